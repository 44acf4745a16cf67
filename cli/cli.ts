import yargs from 'yargs'
import { hideBin } from 'yargs/helpers'
import { scenariosCommand } from './commands/scenarios.js'
import { serveCommand } from './commands/serve.js'
import { testCommand } from './commands/test.js'
import { tuiCommand } from './commands/tui.js'
import { validateCommand } from './commands/validate.js'
import { EXIT, EXIT_CODES_HELP, UsageError } from './exit-codes.js'
import { closest } from './suggest.js'
import { NO_COMMAND, packageVersion } from './version.js'

/**
 * The whole command line through yargs. cli/main.ts answers the commonest calls (--help,
 * --version, validate) without loading yargs, and hands everything else here.
 */
export async function runCli(argv: string[] = hideBin(process.argv)): Promise<void> {
  // PAYSANDBOX_HELP_WIDTH: the build renders --help at the widths cli/main.ts answers by itself.
  const width = Number(process.env.PAYSANDBOX_HELP_WIDTH) || Math.min(110, process.stdout.columns || 100)
  await yargs(argv)
    .scriptName('paysandbox')
    .usage('$0 <command> [options]\n\nLocal sandbox and conformance kit for the payment gateway interface.')
    .command(validateCommand)
    .command(serveCommand)
    .command(tuiCommand)
    .command(testCommand)
    .command(scenariosCommand)
    .demandCommand(1, NO_COMMAND)
    .recommendCommands()
    .strict()
    .help()
    .alias('h', 'help')
    .version(packageVersion())
    .wrap(width)
    .epilogue(EXIT_CODES_HELP)
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
