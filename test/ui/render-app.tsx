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
    /** What the console writes to the terminal past ink (OSC 52 copies). */
    writeRaw?: (text: string) => void
  } = {},
) {
  // The client's calls still in flight (a key's effect that waits on the sandbox), for settle().
  const inFlight = new Set<Promise<unknown>>()
  const tracked = new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        const result = value.apply(target, args)
        if (result instanceof Promise) {
          const call: Promise<unknown> = result.then(
            () => inFlight.delete(call),
            () => inFlight.delete(call),
          )
          inFlight.add(call)
        }
        return result
      }
    },
  })
  const tree = (
    <App
      client={tracked}
      mode="test"
      colors={options.colors ?? false}
      scenarios={options.scenarios ?? unavailableScenarios('No runner in this test.')}
      size={options.size ?? { columns: 80, rows: 24 }}
      {...(options.reconnectDelaysMs ? { reconnectDelaysMs: options.reconnectDelaysMs } : {})}
      {...(options.writeRaw ? { writeRaw: options.writeRaw } : {})}
    />
  )
  const app = options.size ? renderSized(tree, options.size.columns) : render(tree)
  const frame = () => app.lastFrame() ?? ''
  /**
   * Resolves with the first frame for which `test` holds; fails after `ms` with the last frame.
   * The bound only decides how long a real hang takes to be reported (with the frame it left): a
   * starved machine (four suites on 2 cores) can take seconds to draw a frame that waits on the
   * sandbox's answers, so it is half the test's own time-out, not an expected duration.
   */
  const waitFor = async (test: (frame: string) => boolean, ms = 30_000): Promise<string> => {
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
   * Each waits first until the console has settled, so that a key reaches the screen the test
   * expects (a list whose rows are still loading takes Enter for another row). Settled: no call of
   * the console's client in flight (awaited) and the same frame over 3 turns of the event loop in
   * a row (ink renders a key's or an answer's update synchronously and runs its effects with it,
   * so a turn with no change has nothing left to draw). Nothing here is timed: a starved machine
   * takes longer, never a different path.
   */
  const settle = async () => {
    for (let quiet = 0; quiet < 3; ) {
      if (inFlight.size > 0) {
        await Promise.all(inFlight)
        quiet = 0
        continue
      }
      const before = frame()
      await new Promise<void>((r) => setImmediate(r))
      quiet = frame() === before && inFlight.size === 0 ? quiet + 1 : 0
    }
  }
  const press = async (...keys: string[]) => {
    for (const key of keys) {
      await settle()
      app.stdin.write(key)
    }
    await settle()
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
