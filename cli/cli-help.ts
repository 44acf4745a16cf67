// Used by scripts/build.mjs only: the yargs command line, to render --help into dist/cli/help.json.
import { runCli } from './cli.js'

await runCli()
