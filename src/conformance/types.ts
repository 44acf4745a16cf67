import type { SandboxFaultRequest, Scenario1, ScenarioSetup, ScenarioStep } from '../generated/types.js'

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

/**
 * A cause the kit observed in merchant mode (causes.ts): a request the gateway refused or warned
 * about, or a callback the merchant did not acknowledge. Reported before the failure it led to.
 */
export interface Finding {
  kind:
    | 'refused-request'
    | 'warning'
    | 'unacknowledged-callback'
    | 'intent'
    | 'double-charge'
    | 'unknown-outcome'
    | 'resent-action'
    | 'unapplied-callback'
  /**
   * What the merchant did and the rule it breaks (docs/conformance.md, Cause first), worded from
   * the gateway's structured refusal and the engine's declarations, never from its messages.
   */
  cause: string
  /** One line, derived from what was observed: the cause, then the symptom the kit saw. */
  headline: string
  /** The request as sent (card numbers masked): the merchant's, or the gateway's callback. */
  request?: string
  /** The answer to it: the gateway's, or the merchant's answers to a callback. */
  answer?: string
  /** The rule it broke (formula, field, format), with its source. */
  rule?: string
  /** What to change. */
  fix?: string
  /** The interface's section and the rule book's anchor of the rule (`2.1.1; docs/rules.md#amounts`). */
  section?: string
}

export interface StepResult {
  /** The scenario's step, from 0; -1 for what is about the whole run (the merchant's process ended). */
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
  /** Failed in merchant mode: the causes observed up to this step, first the one the headline names. */
  findings?: Finding[]
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
  /**
   * Skipped because the merchant's adapter does not offer a flow it needs (`flows`) or does not
   * declare a hook, action or field it needs (`contract`, `supports`).
   */
  notApplicable?: boolean
  /** What the adapter lacks, each with its reason and short label (`{need: "void@2", …}`, `{need: "flow:s2s-card", …}`). */
  missing?: { need: string; reason: string; label: string }[]
  steps: StepResult[]
  ms: number
  /** Failed on the kit's own sandbox: what `paysandbox repro` needs to start that sandbox again. */
  reproduction?: Reproduction
}

/** A request the sandbox received, as a report keeps it (card numbers masked, test cards whole). */
export interface ReproRequest {
  method: string
  /** Relative to the gateway's base URL (`/api/v1/payment/refund`). */
  path: string
  headers: Record<string, string>
  body: string
  /** On the scenario's clock (ms since the epoch). */
  at?: number
  /**
   * `in-process`: the kit's payer acted (a card paid, 3DS passed, an APM approved) through the
   * gateway's in-process door (control/payer-door.ts), not over HTTP; sent again the same way.
   */
  door?: 'in-process'
}

/**
 * The sandbox of a failed scenario as it was when the failing step began (issue 33): its
 * configuration, the requests it had received (which, sent again to a sandbox seeded the same
 * way, make the same payments with the same ids), its clock and its armed faults, and the request
 * that failed. `paysandbox repro REPORT SCENARIO` starts it again.
 */
export interface Reproduction {
  credentials: { merchant_key: string; password: string }
  /** Merchant mode: the merchant's notification URL (gateway mode: the sandbox acknowledges its callbacks itself). */
  notification_url?: string
  setup?: ScenarioSetup
  callbacks?: 'auto' | 'manual'
  /** The scenario's clock when the failing step began (ms since the epoch). */
  clock_ms: number
  /** The fault rules armed when the failing step began, as POST /sandbox/faults takes them. */
  faults: SandboxFaultRequest[]
  /** What the sandbox had received before the failing step, in arrival order. */
  before: ReproRequest[]
  /** The request the failing step made or observed, if any. */
  request?: ReproRequest
}

/** Skipped scenarios that share one reason (a need the adapter lacks, or the skip's own reason). */
export interface NotRunGroup {
  /** The need the adapter lacks (`void`, `void@2`, `flow:s2s-card`), when that is the reason. */
  need?: string
  /** Short: `your adapter declares no \`void\` action`, or the skip's own reason. */
  reason: string
  scenarios: string[]
}

export interface RunSummary {
  results: ScenarioResult[]
  passed: number
  failed: number
  skipped: number
  /** What was not run and why, grouped by reason (a scenario lacking two needs is in both groups). */
  notRun?: NotRunGroup[]
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
