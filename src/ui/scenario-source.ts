/** What the scenario-runs view needs of the conformance runner (src/conformance), whatever its shape. */
export interface ScenarioInfo {
  id: string
  title: string
  tags: string[]
}

export type ScenarioStatus = 'running' | 'passed' | 'failed' | 'error' | 'skipped'

export interface ScenarioResult {
  id: string
  status: ScenarioStatus
  /** Why it failed: the runner's message, naming the interface section. */
  message?: string
  durationMs?: number
}

export interface ScenarioSource {
  /** Set when scenarios cannot run from this console: the view shows it instead of a list. */
  unavailable?: string
  list(): Promise<ScenarioInfo[]>
  /**
   * Runs the scenarios (by id or by tag) against the console's sandbox as `merchant` (its key;
   * default: the console's first known merchant), reporting each as it goes.
   */
  run(
    selection: { ids?: string[]; tag?: string },
    onUpdate: (result: ScenarioResult) => void,
    merchant?: string,
    /** Said before the first scenario starts: which scenarios run as a merchant the kit creates, or are skipped, and why. */
    onNotes?: (notes: string[]) => void,
  ): Promise<void>
}

export const unavailableScenarios = (why: string): ScenarioSource => ({
  unavailable: why,
  list: async () => [],
  run: async () => {},
})
