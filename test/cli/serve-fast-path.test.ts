import yargs from 'yargs'
import { describe, expect, it } from 'vitest'
import { type ServeArgs, serveCommand } from '../../cli/commands/serve.js'
import { SERVE_OPTIONS, serveArgs } from '../../cli/serve-options.js'
import { throughYargs as throughYargsOf } from '../helpers/yargs.js'

/**
 * `paysandbox serve` reads its options with node's parseArgs when it can (issue 15: yargs cost
 * about a seventh of start-up). What it reads must be what yargs reads for the same words, and
 * anything it cannot read the same way must go to yargs (undefined).
 */
const throughYargs = (args: string[]) => throughYargsOf(serveCommand, args)

/** Only the options of the command: yargs adds `_`, `$0` and camelCase copies. */
function optionsOf(args: ServeArgs): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([k, v]) => k in SERVE_OPTIONS && v !== undefined))
}

describe('serve options read without yargs (cli/serve-options.ts)', () => {
  const cases: string[][] = [
    [],
    ['--port', '0'],
    ['--port=9000', '--host', '0.0.0.0'],
    ['--config', 'fixtures/config/demo.json', '--data', '/tmp/x.json'],
    ['--control-token', 'secret', '--allow-host', 'a.test', '--allow-host', 'b.test'],
    ['--retain', '50', '--base-path', '/payment', '--strict'],
    ['--retain', 'abc'],
    ['--headers-timeout', '5', '--request-timeout', '20', '--body-timeout', '3', '--max-connections', '200'],
    // docs/rules.md#connections
    [
      '--reserve-connections',
      '8',
      '--max-event-streams',
      '40',
      '--max-event-streams-per-client',
      '4',
      '--stream-drain-timeout',
      '12',
    ],
    ['--port', 'abc'],
  ]
  it.each(cases.map((c) => [c.join(' ') || '(none)', c] as const))(
    '%s: as yargs reads it',
    async (_, args) => {
      const fast = serveArgs(args)
      expect(fast).toBeDefined()
      const slow = optionsOf(await throughYargs(args))
      // NaN is NaN on both sides (`--retain abc`): the handler refuses it the same way.
      expect(optionsOf(fast as ServeArgs)).toEqual(slow)
    },
  )

  it.each([
    ['an unknown option', ['--prot', '8080']],
    ['a positional', ['extra']],
    ['a repeated single option', ['--port', '1', '--port', '2']],
    ['a negated boolean', ['--no-strict']],
    ['an empty value', ['--config=']],
    ['a missing value', ['--port']],
  ])('%s goes to yargs', (_, args) => {
    expect(serveArgs(args)).toBeUndefined()
  })

  it('knows every option of the yargs command, with the same type', async () => {
    const described: Record<string, string> = {}
    const y = yargs([])
    ;(serveCommand.builder as (y: unknown) => unknown)(y)
    const opts = (y as unknown as { getOptions(): Record<string, string[]> }).getOptions()
    for (const type of ['string', 'boolean', 'number'])
      for (const key of opts[type] ?? [])
        if (!key.includes('-') || key in SERVE_OPTIONS) described[key] = type
    for (const key of Object.keys(described).filter((k) => !['help', 'version'].includes(k)))
      expect(SERVE_OPTIONS, key).toHaveProperty(key)
    for (const [key, def] of Object.entries(SERVE_OPTIONS)) expect(described[key], key).toBe(def.type)
  })
})
