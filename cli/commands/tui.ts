import { existsSync } from 'node:fs'
import type { CommandModule } from 'yargs'
import { UsageError, wholeNumber } from '../exit-codes.js'
import { TUI_OPTIONS } from '../tui-options.js'

/**
 * The console: the build's one-file bundle of it and its packages (scripts/tui-bundle.mjs), beside
 * run.js in dist/src/ui. The CLI runs only from its own bundle (dist/cli/bundle), at the depth of
 * this file, so the relative path points into dist/.
 */
async function loadConsole(): Promise<typeof import('../../src/ui/run.js')> {
  return import(new URL('../../src/ui/run.bundle.js', import.meta.url).href)
}

export interface TuiArgs {
  url?: string
  'control-token'?: string
  data?: string
  config?: string
  port?: number
  key?: string
  password?: string
}

/**
 * `paysandbox tui`: the support console over a running sandbox (--url), a recorded one (--data),
 * or one it starts itself. The UI (ink, react) is imported inside the handler only.
 */
export const tuiCommand: CommandModule<object, TuiArgs> = {
  command: 'tui',
  describe:
    'Support console: payments, callbacks, schedules, clock, merchants; approve, replay, refund, export',
  builder: (y) =>
    y
      .options(TUI_OPTIONS)
      .implies('key', 'password')
      .implies('password', 'key')
      .conflicts('url', ['data', 'config', 'port'])
      .example('$0 tui --url http://localhost:8080', 'watch and act on a running sandbox')
      .example('$0 tui --data .paysandbox/data.json', 'open a recorded sandbox (not one a server is using)')
      .example('$0 tui', 'start an embedded sandbox and watch it')
      .epilogue('Keys: ? shows every key. Exit codes: 0 on quit, 2 bad option or file.'),
  handler: (args) => runTuiCommand(args),
}

/** The command itself, after yargs or cli/main.ts's fast path (cli/tui-options.ts) read the options. */
export async function runTuiCommand(args: TuiArgs): Promise<void> {
  wholeNumber('port', args.port, 0, 65535)
  if (args.url !== undefined && !/^https?:\/\/[^\s/]+/.test(args.url))
    throw new UsageError(`--url must be an http(s) address such as http://localhost:8080, got "${args.url}"`)
  if (args.data !== undefined && !existsSync(args.data))
    throw new UsageError(
      `--data ${args.data}: no such file (the data file of \`paysandbox serve --data FILE\`)`,
    )
  if (!process.stdin.isTTY) throw new UsageError('paysandbox tui needs an interactive terminal')
  // ink draws only a final frame when it believes it runs in CI (is-in-ci reads CI and
  // CONTINUOUS_INTEGRATION at import). Someone who opens the console in a terminal wants it live,
  // even on a machine that exports CI=true.
  process.env.CI = 'false'
  process.env.CONTINUOUS_INTEGRATION = 'false'
  const controlToken = args['control-token'] ?? process.env.PAYSANDBOX_CONTROL_TOKEN
  const { runTui } = await loadConsole()
  try {
    await runTui({
      ...(args.url !== undefined ? { url: args.url } : {}),
      ...(args.data !== undefined ? { data: args.data } : {}),
      ...(args.config !== undefined ? { config: args.config } : {}),
      ...(args.port !== undefined ? { port: args.port } : {}),
      ...(args.key !== undefined ? { key: args.key } : {}),
      ...(args.password !== undefined ? { password: args.password } : {}),
      ...(controlToken ? { controlToken } : {}),
    })
  } catch (error) {
    // Loaded only now: with --url the console never loads the engine (start-up under a second).
    const { ConfigError, ServeError } = await import('../../src/adapters/serve.js')
    const { StoreFileError } = await import('../../src/adapters/store/snapshot.js')
    if (error instanceof ConfigError || error instanceof ServeError || error instanceof StoreFileError)
      throw new UsageError(error.message)
    throw error
  }
}
