import { render } from 'ink-testing-library'
import type { ControlClient } from '../../src/ui/client.js'
import { App } from '../../src/ui/App.js'
import { type ScenarioSource, unavailableScenarios } from '../../src/ui/scenario-source.js'

export const KEY = { enter: '\r', escape: '\u001B', down: '\u001B[B', up: '\u001B[A', tab: '\t' }

/** The console at 80x24 over `client`, with helpers to wait for a frame and to type. */
export function renderApp(
  client: ControlClient,
  options: { colors?: boolean; scenarios?: ScenarioSource; reconnectDelaysMs?: number[] } = {},
) {
  const app = render(
    <App
      client={client}
      mode="test"
      colors={options.colors ?? false}
      scenarios={options.scenarios ?? unavailableScenarios('No runner in this test.')}
      size={{ columns: 80, rows: 24 }}
      {...(options.reconnectDelaysMs ? { reconnectDelaysMs: options.reconnectDelaysMs } : {})}
    />,
  )
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
