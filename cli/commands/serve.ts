import { readFileSync } from 'node:fs'
import type { CommandModule } from 'yargs'
import { EXIT, UsageError } from '../exit-codes.js'

interface Args {
  port?: number
  host: string
  config?: string
  data?: string
}

/** `paysandbox serve`: the sandbox over HTTP until SIGINT or SIGTERM (decisions.md §6). */
export const serveCommand: CommandModule<object, Args> = {
  command: 'serve',
  describe: 'Run the sandbox over HTTP (ready when GET /sandbox/health answers 200)',
  builder: (y) =>
    y
      .option('port', {
        type: 'number',
        describe: 'Port to listen on (default: $PORT, else 8080; 0 picks a free one)',
      })
      .option('host', {
        type: 'string',
        default: '127.0.0.1',
        describe: 'Address to listen on (0.0.0.0 to accept other machines, e.g. in a container)',
      })
      .option('config', {
        type: 'string',
        describe: 'Configuration file (merchants, MIDs, clock); default: the built-in demo merchant',
      })
      .option('data', {
        type: 'string',
        describe: 'Keep sessions, payments and callbacks in this file across restarts (default: memory)',
      })
      .example('$0 serve', 'demo merchant on http://localhost:8080')
      .example(
        '$0 serve --port 9000 --config merchants.json --data .paysandbox/data.json',
        'your own merchants',
      )
      .epilogue('Exit codes: 0 stopped cleanly, 2 bad option, configuration or data file.'),
  handler: async (args) => {
    const port = choosePort(args.port, process.env.PORT)
    const { serve, ConfigError, ServeError } = await import('../../src/adapters/serve.js')
    const { StoreFileError } = await import('../../src/adapters/store/snapshot.js')
    const { renderBanner } = await import('../../src/adapters/serve/banner.js')
    let sandbox: Awaited<ReturnType<typeof serve>>
    try {
      sandbox = await serve({ port, host: args.host, configFile: args.config, dataFile: args.data })
    } catch (error) {
      if (error instanceof ConfigError || error instanceof ServeError || error instanceof StoreFileError)
        throw new UsageError(error.message)
      throw error
    }
    const stop = (signal: NodeJS.Signals) => {
      // A second signal while draining stops at once.
      process.once(signal, () => process.exit(EXIT.INFRASTRUCTURE))
      process.stderr.write(`paysandbox: ${signal}, stopping\n`)
      sandbox.close().then(
        () => process.exit(EXIT.OK),
        (error) => {
          process.stderr.write(`paysandbox: stopping failed: ${(error as Error).message}\n`)
          process.exit(EXIT.INFRASTRUCTURE)
        },
      )
    }
    // Before the banner: a supervisor may signal as soon as it reads "Ready.".
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    process.stdout.write(
      renderBanner({
        version: packageVersion(),
        baseUrl: sandbox.baseUrl,
        loaded: sandbox.loaded,
        clock: sandbox.gateway.ctx.clock.kind,
        dataFile: sandbox.dataFile,
        routes: sandbox.gateway.routes(),
      }),
    )
  },
}

/** decisions.md §6: port 8080, `PORT` overrides it, `--port` overrides both. */
export function choosePort(option: number | undefined, env: string | undefined): number {
  if (option !== undefined) {
    if (Number.isInteger(option) && option >= 0 && option <= 65535) return option
    throw new UsageError(`--port must be a whole number from 0 to 65535, got ${option}`)
  }
  if (env !== undefined && env !== '') {
    if (/^\d{1,5}$/.test(env) && Number(env) <= 65535) return Number(env)
    throw new UsageError(`PORT must be a whole number from 0 to 65535, got "${env}"`)
  }
  return 8080
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  return pkg.version
}
