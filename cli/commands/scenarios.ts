import type { CommandModule } from 'yargs'
import { EXIT, UsageError } from '../exit-codes.js'
import { closest } from '../suggest.js'

interface Args {
  action: string
  tag?: string[]
  mode?: string
  json: boolean
  scenarios?: string[]
}

/** `paysandbox scenarios list`: the bundled (or given) scenarios, readable as documentation. */
export const scenariosCommand: CommandModule<object, Args> = {
  command: 'scenarios <action>',
  describe: 'List the conformance scenarios (name, mode, interface section, tags, title)',
  builder: (y) =>
    y
      .positional('action', { type: 'string', choices: ['list'], demandOption: true })
      .option('tag', { type: 'string', array: true, describe: 'Only scenarios with one of these tags' })
      .option('mode', {
        type: 'string',
        choices: ['merchant', 'gateway'],
        describe: 'Only scenarios this mode runs',
      })
      .option('scenarios', {
        type: 'string',
        array: true,
        describe: 'Scenario files or directories (default: the bundled ones)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'Print the list as JSON' }),
  handler: async (args) => {
    const kit = await import('../../src/conformance/index.js')
    const { scenarios, errors } = kit.loadScenarios(
      args.scenarios?.length ? args.scenarios : [kit.BUNDLED_SCENARIOS],
    )
    if (errors.length) throw new UsageError(errors.map((e) => e.message).join('\n'))
    let list = args.mode ? kit.forMode(scenarios, args.mode as 'merchant' | 'gateway') : scenarios
    list = kit.filterScenarios(list, { ...(args.tag ? { tags: args.tag } : {}) })
    // An empty selection is a usage error (exit 2), as it is for `paysandbox test`.
    if (list.length === 0) {
      const used = new Set(scenarios.flatMap((s) => s.scenario.tags ?? []))
      const unknown = (args.tag ?? []).filter((t) => !used.has(t))
      const hint = unknown.map((t) => {
        const near = closest(t, [...used])
        return `no scenario has the tag "${t}"${near ? ` (did you mean "${near}"?)` : ''}`
      })
      throw new UsageError(
        `no scenario matches the filters (${scenarios.length} loaded)${hint.length ? `: ${hint.join('; ')}` : ''}`,
      )
    }
    if (args.json) {
      const rows = list.map((s) => ({
        name: s.slug,
        title: s.scenario.title,
        mode: s.scenario.mode,
        section: s.scenario.section,
        tags: s.scenario.tags ?? [],
        steps: s.scenario.steps.length,
        file: s.file,
      }))
      process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`)
    } else {
      const width = Math.max(4, ...list.map((s) => s.slug.length))
      for (const s of list)
        process.stdout.write(
          `${s.slug.padEnd(width)}  ${s.scenario.mode.padEnd(8)}  ${s.scenario.section.padEnd(22)}  ${s.scenario.title}${s.scenario.tags?.length ? `  [${s.scenario.tags.join(', ')}]` : ''}\n`,
        )
      process.stdout.write(`${list.length} scenario${list.length === 1 ? '' : 's'}\n`)
    }
    process.exitCode = EXIT.OK
  },
}
