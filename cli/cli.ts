import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import yargs from 'yargs'
import { hideBin } from 'yargs/helpers'
import { PACKAGE_ROOT } from '../src/package-root.js'
import { scenariosCommand } from './commands/scenarios.js'
import { serveCommand } from './commands/serve.js'
import { testCommand } from './commands/test.js'
import { tuiCommand } from './commands/tui.js'
import { validateCommand } from './commands/validate.js'
import { EXIT, EXIT_CODES_HELP, UsageError } from './exit-codes.js'

// Start-up matters (`--help` within 2x of a bare `node`): this module loads only yargs and the
// command definitions; each command imports what it runs (the engine, express, ink) in its handler.

const NO_COMMAND = 'Name a command.'

/** paysandbox's own version, from its package.json (also when installed in another project). */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version
}

const cli = yargs(hideBin(process.argv))
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
  .wrap(Math.min(110, process.stdout.columns || 100))
  .epilogue(EXIT_CODES_HELP)
  .fail((message, error, y) => {
    if (error && !(error instanceof UsageError)) throw error
    // Bare `paysandbox`: the usage itself, then what is missing.
    if (message === NO_COMMAND) y.showHelp((text) => console.error(`${text}\n`))
    console.error(`${message ?? error?.message}\nRun with --help for usage.`)
    process.exit(EXIT.USAGE)
  })

await cli.parseAsync()
