import type { Scenario1, ScenarioStep } from '../generated/types.js'

export type ScenarioData = Scenario1
export type Step = ScenarioStep
export type Mode = 'merchant' | 'gateway'

/** A scenario file, read and validated. */
export interface LoadedScenario {
  /** The file name without `.json`: unique, used in URLs (`/run/<slug>`) and seeds. */
  slug: string
  file: string
  scenario: ScenarioData
}

export type Status = 'passed' | 'failed' | 'skipped'

export interface StepResult {
  index: number
  kind: string
  label: string
  status: Status
  /** Failed: what is wrong; skipped: why the step could not run. */
  message?: string
  /** Interface section(s) the failure is about. */
  section?: string
  /** A command that sends the request involved again. */
  curl?: string
  ms: number
}

export interface ScenarioResult {
  slug: string
  file: string
  title: string
  section: string
  tags: string[]
  mode: Mode
  status: Status
  /** For a skipped scenario: why. */
  reason?: string
  steps: StepResult[]
  ms: number
}

export interface RunSummary {
  results: ScenarioResult[]
  passed: number
  failed: number
  skipped: number
  ms: number
  /** Set when the run stopped for infrastructure reasons (merchant unreachable). */
  infrastructure?: string
}

/** How the run reports: each reporter gets every event; `finish` returns when its output is written. */
export interface Reporter {
  start(info: { total: number; target: string; mode: Mode; notes?: string[] }): void
  scenarioStarted?(scenario: LoadedScenario): void
  stepFinished?(scenario: LoadedScenario, step: StepResult): void
  scenarioFinished(result: ScenarioResult): void
  finish(summary: RunSummary): Promise<void> | void
}
