import yargs from 'yargs'
import { hideBin } from 'yargs/helpers'
import { scenariosCommand } from './commands/scenarios.js'
import { serveCommand } from './commands/serve.js'
import { testCommand } from './commands/test.js'
import { tuiCommand } from './commands/tui.js'
import { validateCommand } from './commands/validate.js'
import { EXIT, UsageError } from './exit-codes.js'

await yargs(hideBin(process.argv))
  .scriptName('paysandbox')
  .usage('$0 <command> [options]\n\nLocal sandbox and conformance kit for the payment gateway interface.')
  .command(validateCommand)
  .command(serveCommand)
  .command(tuiCommand)
  .command(testCommand)
  .command(scenariosCommand)
  .demandCommand(1, 'Name a command: see the list above.')
  .recommendCommands()
  .strict()
  .help()
  .alias('h', 'help')
  .version()
  .wrap(Math.min(110, process.stdout.columns || 100))
  .epilogue('Exit codes: 0 ok, 1 invalid or failed, 2 usage or configuration error, 3 infrastructure.')
  .fail((message, error) => {
    if (error && !(error instanceof UsageError)) throw error
    console.error(`${message ?? error?.message}\nRun with --help for usage.`)
    process.exit(EXIT.USAGE)
  })
  .parseAsync()
