import yargs from 'yargs'
import { hideBin } from 'yargs/helpers'
import { replayCommand } from './commands/replay.js'
import { reproCommand } from './commands/repro.js'
import { scenarioCommand } from './commands/scenario.js'
import { scenariosCommand } from './commands/scenarios.js'
import { serveCommand } from './commands/serve.js'
import { testCommand } from './commands/test.js'
import { tuiCommand } from './commands/tui.js'
import { validateCommand } from './commands/validate.js'
import { EXIT, EXIT_CODES_HELP, UsageError } from './exit-codes.js'
import { closest } from './suggest.js'
import { NO_COMMAND, packageVersion } from './version.js'

/** The yargs command line, at `width` columns. */
function commandLine(argv: string[], width: number) {
  return yargs(argv)
    .scriptName('paysandbox')
    .usage('$0 <command> [options]\n\nLocal sandbox and conformance kit for the payment gateway interface.')
    .command(validateCommand)
    .command(serveCommand)
    .command(tuiCommand)
    .command(testCommand)
    .command(scenariosCommand)
    .command(scenarioCommand)
    .command(replayCommand)
    .command(reproCommand)
    .demandCommand(1, NO_COMMAND)
    .recommendCommands()
    .strict()
    .help()
    .alias('h', 'help')
    .version(packageVersion())
    .wrap(width)
    .epilogue(EXIT_CODES_HELP)
}

/**
 * What `paysandbox [command] --help` prints at `width` columns, rendered by yargs without printing
 * or exiting: scripts/build.mjs saves it for cli/main.ts, which answers --help without yargs.
 */
export async function renderHelp(command: string, width: number): Promise<string> {
  let text = ''
  await commandLine([], width)
    .exitProcess(false)
    .parseAsync([...(command ? [command] : []), '--help'], {}, (_error, _argv, output) => {
      text = output
    })
  return text
}

/**
 * The whole command line through yargs. cli/main.ts answers the commonest calls (--help,
 * --version, validate, serve, tui) without loading yargs, and hands everything else here.
 */
export async function runCli(argv: string[] = hideBin(process.argv)): Promise<void> {
  await commandLine(argv, Math.min(110, process.stdout.columns || 100))
    .fail((message, error, y) => {
      if (error && !(error instanceof UsageError)) throw error
      // yargs asks for a command before it checks the options: `paysandbox --versoin` is a typo
      // of an option, not a missing command.
      const unknown = message === NO_COMMAND ? unknownGlobalOptions(argv) : []
      if (unknown.length) {
        const near = unknown.length === 1 ? closest(unknown[0] as string, ['help', 'version']) : undefined
        console.error(
          `Unknown argument${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}${near ? `\nDid you mean --${near}?` : ''}\nRun with --help for usage.`,
        )
        process.exit(EXIT.USAGE)
      }
      // A misspelt option of a command (yargs' strict mode names it): the option meant, from the command's own.
      const typos = (/^Unknown arguments?: (.+)$/.exec(message ?? '')?.[1]?.split(', ') ?? []).filter(
        (typo) => !/[A-Z]/.test(typo), // yargs adds the camelCase twin of a dashed name
      )
      if (typos.length) {
        // yargs hands its usage object over: its descriptions are those of every option the command declares.
        const usage = y as unknown as { getDescriptions?: () => Record<string, unknown> }
        const known = Object.keys(usage.getDescriptions?.() ?? {}).filter((k) => /^[a-z][a-z0-9-]+$/.test(k))
        const hints = typos
          .map((typo) => [typo, closest(typo, known)] as const)
          .filter((pair): pair is readonly [string, string] => !!pair[1])
          .map(([typo, near]) =>
            typos.length === 1 ? `Did you mean --${near}?` : `--${typo}: did you mean --${near}?`,
          )
        const named = `Unknown argument${typos.length === 1 ? '' : 's'}: ${typos.join(', ')}`
        console.error(`${named}${hints.length ? `\n${hints.join('\n')}` : ''}\nRun with --help for usage.`)
        process.exit(EXIT.USAGE)
      }
      // Bare `paysandbox`: the usage itself, then what is missing.
      if (message === NO_COMMAND) y.showHelp((text) => console.error(`${text}\n`))
      console.error(`${message ?? error?.message}\nRun with --help for usage.`)
      process.exit(EXIT.USAGE)
    })
    .parseAsync()
}

/** The options before any command that the program itself does not take (only --help, -h, --version). */
function unknownGlobalOptions(argv: string[]): string[] {
  const unknown: string[] = []
  for (const arg of argv) {
    if (arg === '--') break
    if (!arg.startsWith('-') || arg === '-') continue
    const names = arg.startsWith('--')
      ? [arg.slice(2).replace(/=.*$/, '')]
      : [...arg.slice(1).replace(/=.*$/, '')]
    for (const name of names) if (!['help', 'h', 'version'].includes(name)) unknown.push(name)
  }
  return unknown
}
