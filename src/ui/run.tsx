import { basename } from 'node:path'
import { render } from 'ink'
import { App } from './App.js'
import type { ReplayReport } from '../replay/run.js'
import { ReplayApp } from './ReplayApp.js'
import { createControlClient } from './client.js'
import { loadScenarioSource } from './load-scenarios.js'
import { withFirstAnswers } from './first-answers.js'
import { createNodeFetch } from './node-fetch.js'
import { colorsWanted } from './theme.js'

export interface TuiOptions {
  /** A running sandbox (`paysandbox serve`). */
  url?: string
  /** A recorded sandbox's data file, opened in this process. */
  data?: string
  config?: string
  /** Port of the embedded or --data sandbox (default: a free one). */
  port?: number
  /** The merchant scenario runs act as (with --url; otherwise the configuration's first merchant). */
  key?: string
  password?: string
  /** The control token of a sandbox served with --control-token (with --url). */
  controlToken?: string
}

/**
 * `paysandbox tui`: the support console. Loaded only by the tui command (cli/commands/tui.ts), so
 * serve, validate and test never load ink or react's terminal renderer.
 */
export async function runTui(options: TuiOptions): Promise<void> {
  // The engine is loaded only when this process runs the sandbox: --url needs none of it.
  const embedded = options.url
    ? undefined
    : await (await import('./in-process.js')).startEmbedded({
        ...(options.data ? { dataFile: options.data } : {}),
        ...(options.config ? { configFile: options.config } : {}),
        ...(options.port !== undefined ? { port: options.port } : {}),
      })
  const client = withFirstAnswers(
    embedded
      ? createControlClient({ baseUrl: embedded.baseUrl, fetch: embedded.fetch })
      : createControlClient({
          baseUrl: options.url as string,
          fetch: createNodeFetch(options.url),
          ...(options.controlToken ? { controlToken: options.controlToken } : {}),
        }),
  )
  const mode = options.url ? 'url' : options.data ? `data ${basename(options.data)} at` : 'embedded at'
  const given =
    options.key && options.password ? { merchant_key: options.key, password: options.password } : undefined
  const scenarios = loadScenarioSource(
    client,
    given ?? embedded?.merchants,
    options.url ? options.controlToken : embedded?.controlToken,
  )
  const fullScreen = Boolean(process.stdout.isTTY)
  // The alternate screen keeps the operator's shell history intact, as full-screen tools do.
  if (fullScreen) process.stdout.write('\x1b[?1049h\x1b[H')
  const instance = render(
    <App
      client={client}
      mode={mode}
      colors={colorsWanted()}
      scenarios={scenarios}
      writeRaw={(text) => process.stdout.write(text)}
    />,
    { exitOnCtrlC: true },
  )
  try {
    await instance.waitUntilExit()
  } finally {
    instance.cleanup()
    if (fullScreen) process.stdout.write('\x1b[?1049l')
    await embedded?.close()
  }
}

/** `paysandbox replay --console`: steps through a replay's report (the report is computed before). */
export async function runReplayConsole(report: ReplayReport): Promise<void> {
  const fullScreen = Boolean(process.stdout.isTTY)
  if (fullScreen) process.stdout.write('\x1b[?1049h\x1b[H')
  const instance = render(<ReplayApp report={report} colors={colorsWanted()} />, { exitOnCtrlC: true })
  try {
    await instance.waitUntilExit()
  } finally {
    instance.cleanup()
    if (fullScreen) process.stdout.write('\x1b[?1049l')
  }
}
