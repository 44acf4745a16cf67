import { createFetchHandler } from '../adapters/fetch/fetch-handler.js'
import { serve } from '../adapters/serve.js'
import type { Logger } from '../core/ports/logger.js'
import type { FetchLike } from './client.js'

export interface EmbeddedOptions {
  /** lowdb data file of a recorded sandbox (`paysandbox serve --data FILE`); absent: memory. */
  dataFile?: string
  configFile?: string
  /** 0 (the default) picks a free port. */
  port?: number
  host?: string
}

export interface EmbeddedSandbox {
  /** Where merchants, browsers and curl reach this sandbox. */
  baseUrl: string
  /** The control API in-process: the same requests as over HTTP, with no network between. */
  fetch: FetchLike
  /** The last problems the engine logged (the console owns the terminal, so nothing is printed). */
  log: string[]
  /** The configuration's first merchant: scenario runs act as it. */
  merchant?: { merchant_key: string; password: string }
  /** Every configured merchant: scenario runs act as the one chosen in the console. */
  merchants: { merchant_key: string; password: string }[]
  /** The configuration's control token, if any: scenario runs send it when they create the kit's merchants over HTTP. */
  controlToken?: string
  close(): Promise<void>
}

/**
 * `paysandbox tui --data FILE` and `paysandbox tui` (embedded): the sandbox `serve` would run, in
 * this process. It also listens, so a merchant backend, a browser (3DS and APM pages) and the curl
 * commands the console copies reach it; the console itself calls the engine directly.
 */
export async function startEmbedded(options: EmbeddedOptions): Promise<EmbeddedSandbox> {
  const log: string[] = []
  const keep = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    log.push(`${level}: ${message} ${fields ? JSON.stringify(fields) : ''}`.trim())
    if (log.length > 50) log.shift()
  }
  const logger: Logger = { info() {}, warn: keep('warn'), error: keep('error') }
  const sandbox = await serve({
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    logger,
    ...(options.configFile ? { configFile: options.configFile } : {}),
    ...(options.dataFile ? { dataFile: options.dataFile } : {}),
  })
  const handler = createFetchHandler(sandbox.gateway, { base: sandbox.baseUrl })
  const first = sandbox.loaded.config.merchants[0]
  return {
    ...(first ? { merchant: { merchant_key: first.key, password: first.password } } : {}),
    merchants: sandbox.loaded.config.merchants.map((m) => ({ merchant_key: m.key, password: m.password })),
    ...(sandbox.loaded.config.control_token ? { controlToken: sandbox.loaded.config.control_token } : {}),
    baseUrl: sandbox.baseUrl,
    fetch: (input, init) => handler(new Request(input, init)),
    log,
    close: () => sandbox.close(),
  }
}
