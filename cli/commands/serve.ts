import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import type { CommandModule } from 'yargs'
import { PACKAGE_ROOT } from '../../src/package-root.js'
import { EXIT, UsageError, wholeNumber } from '../exit-codes.js'
import { SERVE_OPTIONS } from '../serve-options.js'

export interface ServeArgs {
  port?: string
  host: string
  config?: string
  data?: string
  'control-token'?: string
  'allow-host'?: string[]
  retain?: number
  'base-path'?: string
  strict?: boolean
  'check-responses'?: boolean
  'headers-timeout'?: number
  'request-timeout'?: number
  'body-timeout'?: number
  'max-connections'?: number
  'reserve-connections'?: number
  'max-event-streams'?: number
  'max-event-streams-per-client'?: number
  'stream-drain-timeout'?: number
}

/** `paysandbox serve`: the sandbox over HTTP until SIGINT or SIGTERM (docs/rules.md#beyond-the-interface). */
export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'Run the sandbox over HTTP (ready when GET /sandbox/health answers 200)',
  builder: (y) =>
    y
      .options(SERVE_OPTIONS)
      .example('$0 serve', 'demo merchant on http://localhost:8080')
      .example('$0 serve --port 9000 --config merchants.json --data sandbox-data.json', 'your own merchants')
      .epilogue(
        'Stops on SIGINT (Ctrl-C) or SIGTERM. Exit codes: 0 stopped cleanly, 2 bad option, configuration or data file, 3 could not stop cleanly.',
      ),
  handler: (args) => runServe(args),
}

/** The sandbox over HTTP with these options, until SIGINT or SIGTERM. */
export async function runServe(args: ServeArgs): Promise<void> {
  {
    const port = choosePort(args.port, process.env.PORT)
    wholeNumber('retain', args.retain, 1, 10_000_000)
    wholeNumber('headers-timeout', args['headers-timeout'], 1, 3_600)
    wholeNumber('request-timeout', args['request-timeout'], 1, 3_600)
    wholeNumber('body-timeout', args['body-timeout'], 1, 3_600)
    wholeNumber('max-connections', args['max-connections'], 1, 1_000_000)
    wholeNumber('reserve-connections', args['reserve-connections'], 0, 100_000)
    wholeNumber('max-event-streams', args['max-event-streams'], 1, 100_000)
    wholeNumber('max-event-streams-per-client', args['max-event-streams-per-client'], 1, 100_000)
    wholeNumber('stream-drain-timeout', args['stream-drain-timeout'], 1, 3_600)
    const seconds = (value: number | undefined) => (value === undefined ? undefined : value * 1000)
    const limits = {
      headersTimeoutMs: seconds(args['headers-timeout']),
      requestTimeoutMs: seconds(args['request-timeout']),
      bodyTimeoutMs: seconds(args['body-timeout']),
      maxConnections: args['max-connections'],
      reserveConnections: args['reserve-connections'],
      maxEventStreams: args['max-event-streams'],
      maxEventStreamsPerClient: args['max-event-streams-per-client'],
      streamDrainTimeoutMs: seconds(args['stream-drain-timeout']),
    }
    const controlToken = args['control-token'] ?? (process.env.PAYSANDBOX_CONTROL_TOKEN || undefined)
    if (args.data !== undefined) checkDataFile(args.data)
    const { serve, ConfigError, ServeError } = await import('../../src/adapters/serve.js')
    const { StoreFileError } = await import('../../src/adapters/store/snapshot.js')
    const { renderBanner } = await import('../../src/adapters/serve/banner.js')
    let sandbox: Awaited<ReturnType<typeof serve>>
    try {
      sandbox = await serve({
        port,
        host: args.host,
        configFile: args.config,
        dataFile: args.data,
        ...(controlToken !== undefined ? { controlToken } : {}),
        ...(args['allow-host'] ? { allowHosts: args['allow-host'] } : {}),
        ...(args.retain !== undefined ? { retain: args.retain } : {}),
        ...(args['base-path'] !== undefined ? { basePath: basePathOption(args['base-path']) } : {}),
        ...(args.strict !== undefined ? { strict: args.strict } : {}),
        ...(args['check-responses'] !== undefined ? { checkResponses: args['check-responses'] } : {}),
        ...limits,
      })
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
    // npx runs the binary under `sh -c`, and npm passes SIGTERM to that shell only, which dies of it
    // and leaves the server listening. Started by npm, it stops as on SIGTERM once it is orphaned.
    if (process.env.npm_command) {
      const parent = process.ppid
      const watch = setInterval(() => {
        if (process.ppid === parent) return
        clearInterval(watch)
        stop('SIGTERM')
      }, 200)
      watch.unref()
    }
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
  }
}

/** docs/rules.md#transport `--base-path`: a URL path such as /payment; anything else is a usage error. */
function basePathOption(value: string): string {
  if (!/^\/?[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(value) || value.includes('//'))
    throw new UsageError(`--base-path must be a URL path such as /payment, got "${value}"`)
  return value
}

/** docs/rules.md#start: port 8080, `PORT` overrides it, `--port` overrides both. */
export function choosePort(option: string | number | undefined, env: string | undefined): number {
  if (option !== undefined) {
    const text = String(option)
    if (/^\d{1,5}$/.test(text) && Number(text) <= 65535) return Number(text)
    throw new UsageError(`--port must be a whole number from 0 to 65535, got "${text}"`)
  }
  if (env !== undefined && env !== '') {
    if (/^\d{1,5}$/.test(env) && Number(env) <= 65535) return Number(env)
    throw new UsageError(`PORT must be a whole number from 0 to 65535, got "${env}"`)
  }
  return 8080
}

/**
 * `--data FILE` is created when missing, but not its directory: a mistyped path is refused rather
 * than silently creating directories (the message says how to create it).
 */
export function checkDataFile(file: string): void {
  if (file === '') throw new UsageError('--data needs a file name, e.g. --data sandbox-data.json')
  const path = resolve(file)
  if (existsSync(path) && statSync(path).isDirectory())
    throw new UsageError(
      `--data ${file}: is a directory; name a file inside it, e.g. ${join(file, 'data.json')}`,
    )
  const dir = dirname(path)
  if (!existsSync(dir))
    throw new UsageError(
      `--data ${file}: the directory ${dir} does not exist (create it first: mkdir -p ${dir})`,
    )
  if (!statSync(dir).isDirectory()) throw new UsageError(`--data ${file}: ${dir} is not a directory`)
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }
  return pkg.version
}
