import yargs from 'yargs'
import { hideBin } from 'yargs/helpers'
import { scenariosCommand } from './commands/scenarios.js'
import { serveCommand } from './commands/serve.js'
import { testCommand } from './commands/test.js'
import { tuiCommand } from './commands/tui.js'
import { validateCommand } from './commands/validate.js'
import { EXIT, EXIT_CODES_HELP, UsageError } from './exit-codes.js'
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
      // Bare `paysandbox`: the usage itself, then what is missing.
      if (message === NO_COMMAND) y.showHelp((text) => console.error(`${text}\n`))
      console.error(`${message ?? error?.message}\nRun with --help for usage.`)
      process.exit(EXIT.USAGE)
    })
    .parseAsync()
}
