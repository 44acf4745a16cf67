import { EventEmitter } from 'node:events'
import { render as inkRender } from 'ink'
import { render } from 'ink-testing-library'
import type { ControlClient } from '../../src/ui/client.js'
import { App } from '../../src/ui/App.js'
import { type ScenarioSource, unavailableScenarios } from '../../src/ui/scenario-source.js'

export const KEY = { enter: '\r', escape: '\u001B', down: '\u001B[B', up: '\u001B[A', tab: '\t' }

/** The console at 80x24 over `client`, with helpers to wait for a frame and to type. */
export function renderApp(
  client: ControlClient,
  options: {
    colors?: boolean
    scenarios?: ScenarioSource
    reconnectDelaysMs?: number[]
    /** Another terminal size than 80x24 (a terminal of that width, not ink-testing-library's 100 columns). */
    size?: { columns: number; rows: number }
  } = {},
) {
  const tree = (
    <App
      client={client}
      mode="test"
      colors={options.colors ?? false}
      scenarios={options.scenarios ?? unavailableScenarios('No runner in this test.')}
      size={options.size ?? { columns: 80, rows: 24 }}
      {...(options.reconnectDelaysMs ? { reconnectDelaysMs: options.reconnectDelaysMs } : {})}
    />
  )
  const app = options.size ? renderSized(tree, options.size.columns) : render(tree)
  const frame = () => app.lastFrame() ?? ''
  /** Resolves with the first frame for which `test` holds; fails after `ms` with the last frame. */
  const waitFor = async (test: (frame: string) => boolean, ms = 5000): Promise<string> => {
    const until = Date.now() + ms
    while (Date.now() < until) {
      if (test(frame())) return frame()
      await new Promise((r) => setTimeout(r, 20))
    }
    throw new Error(`no frame matched in ${ms} ms; last frame:\n${frame()}`)
  }
  const waitForText = (text: string, ms?: number) => waitFor((f) => f.includes(text), ms)
  /**
   * One key at a time, as a person types (ink reads a chunk of several characters as one input).
   * Each waits a moment first: a frame is drawn before the effects that listen for keys run.
   */
  const press = async (...keys: string[]) => {
    for (const key of keys) {
      await new Promise((r) => setTimeout(r, 100))
      app.stdin.write(key)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return { ...app, frame, waitFor, waitForText, press }
}

/**
 * ink-testing-library's render on a terminal `columns` wide (its own is always 100 columns, and ink
 * cuts every line at the terminal's width). Unmounted by `cleanupSized` (call it in afterEach).
 */
function renderSized(tree: Parameters<typeof inkRender>[0], columns: number) {
  let last: string | undefined
  const stdout = Object.assign(new EventEmitter(), {
    columns,
    write: (frame: string) => {
      last = frame
      return true
    },
  })
  const stdin = Object.assign(new EventEmitter(), {
    isTTY: true,
    data: null as string | null,
    write(data: string) {
      stdin.data = data
      stdin.emit('readable')
      stdin.emit('data', data)
    },
    read() {
      const { data } = stdin
      stdin.data = null
      return data
    },
    setEncoding() {},
    setRawMode() {},
    resume() {},
    pause() {},
    ref() {},
    unref() {},
  })
  const instance = inkRender(tree, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  })
  sized.push(instance)
  return { ...instance, stdin, lastFrame: () => last }
}

const sized: ReturnType<typeof inkRender>[] = []

export function cleanupSized() {
  for (const instance of sized.splice(0)) {
    instance.unmount()
    instance.cleanup()
  }
}
