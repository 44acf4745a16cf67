import { availableParallelism } from 'node:os'
import { type ScenarioContext, StepFailed, StepSkipped } from './context.js'
import { causesOf, findingLines, probeRefusedCallback, refusedSince } from './causes.js'
import { toCurl } from './curl.js'
import { redacting } from './reporters/redact.js'
import { JsonPathError, selectAll, UnknownVariableError } from './interpolate.js'
import { AdapterError, type MerchantClient, MerchantUnreachable } from './merchant.js'
import { merchantStory, recordTimeline, warningsSince } from './observations.js'
import { LATEST_CONTRACT } from './contract.js'
import { notRunFor } from './profile.js'
import { reproductionOf, stepStart } from './reproduction.js'
import type { SandboxHost } from './sandbox-host.js'
import { type ContextOptions, type GatewayTarget, scenarioContext, unsupported } from './scenario-context.js'
import { STEP_HANDLERS } from './steps/index.js'
import type {
  Finding,
  LoadedScenario,
  Mode,
  NotRunGroup,
  Reporter,
  RunSummary,
  ScenarioResult,
  Step,
  StepResult,
} from './types.js'

/** The step failed because of the causes themselves (a refused or warned request): no other message. */
class CauseObserved extends StepFailed {}

/** The interface section and rule-book anchor of a cause, for the failure's `interface:` line. */
const causeSection = (f: Finding): string => f.section ?? ''

export interface RunOptions {
  scenarios: LoadedScenario[]
  mode: Mode
  host: SandboxHost
  merchant?: MerchantClient
  gateway?: GatewayTarget
  /** Scenarios at once; default the CPU count (1 for a sequential merchant). */
  concurrency?: number
  /** A step that takes longer fails. Default 30 s. */
  stepTimeoutMs?: number
  waitMs?: number
  reporters: Reporter[]
  /** Shown by reporters: what is being tested. */
  target: string
  /**
   * When the run started (a `performance.now()` value): the summary's duration is the wall time
   * from then, start-up included. Default: when runScenarios is called.
   */
  startedAt?: number
  /** Why a scenario cannot run against this target (an external gateway's missing settings). */
  blocked?: (scenario: LoadedScenario) => string | undefined
  /** Lines reporters show before the run (what the target lacks). */
  notes?: string[]
}

/** Scenarios a mode runs: merchant mode the merchant-facing ones, gateway mode the gateway-facing ones. */
export const forMode = (scenarios: LoadedScenario[], mode: Mode): LoadedScenario[] =>
  scenarios.filter((s) => s.scenario.mode === mode || s.scenario.mode === 'both')

/** Tag filter (any of the tags) and name filter (substring of the slug or the title, case-insensitive). */
export function filterScenarios(
  scenarios: LoadedScenario[],
  filters: { tags?: string[]; names?: string[] },
): LoadedScenario[] {
  const tags = (filters.tags ?? []).filter(Boolean)
  const names = (filters.names ?? []).map((n) => n.toLowerCase()).filter(Boolean)
  return scenarios.filter(
    (s) =>
      (tags.length === 0 || tags.some((t) => (s.scenario.tags ?? []).includes(t))) &&
      (names.length === 0 ||
        names.some((n) => s.slug.toLowerCase().includes(n) || s.scenario.title.toLowerCase().includes(n))),
  )
}

export async function runScenarios(given: RunOptions): Promise<RunSummary> {
  // Every reporter (the built-in ones, the console's, a caller's) sees what a report may hold:
  // card numbers masked, no security code (reporters/redact.ts).
  const options: RunOptions = { ...given, reporters: given.reporters.map(redacting) }
  const started = options.startedAt ?? performance.now()
  const queue = [...options.scenarios]
  const results: ScenarioResult[] = []
  let infrastructure: string | undefined
  const notes = [...(options.notes ?? []), ...contractNotes(options)]
  for (const r of options.reporters)
    r.start({
      total: queue.length,
      target: options.target,
      mode: options.mode,
      ...(notes.length ? { notes } : {}),
    })
  const limit = options.merchant?.sequential ? 1 : Math.max(1, options.concurrency ?? availableParallelism())
  const run = async (next: LoadedScenario) => {
    const result = infrastructure
      ? notRun(next, options.mode, `not run: ${infrastructure}`)
      : await runOne(next, options)
    // The merchant's process ended by itself: the scenarios not yet run are not run. If it ended
    // because another program had its port, what answered the kit was that program, so a verdict
    // reached meanwhile is not the merchant's.
    const gone = options.merchant?.exited?.()
    if (gone) {
      infrastructure ??= gone.message
      if (gone.portTaken) result.result = voided(result.result, gone.message)
    }
    if (result.infrastructure) infrastructure ??= result.infrastructure
    results.push(result.result)
    for (const r of options.reporters) r.scenarioFinished(result.result)
  }
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await run(next)
  }
  // An external gateway has one clock for every scenario: those that move it run alone, last.
  const exclusive = options.gateway?.url ? queue.filter(movesClock) : []
  for (const s of exclusive) queue.splice(queue.indexOf(s), 1)
  // Scenarios whose gateway holds an answer until the merchant's client gives up spend seconds
  // waiting, not working: they start first, outside the slots, and wait while the others run.
  const waiting = limit > 1 ? queue.filter(holdsAnswers) : []
  for (const s of waiting) queue.splice(queue.indexOf(s), 1)
  const beside = waiting.map(run)
  await Promise.all(Array.from({ length: Math.min(limit, queue.length) }, worker))
  await Promise.all(beside)
  queue.push(...exclusive)
  await worker()
  // Scenarios that ended before the process was seen gone were played against the same program.
  const gone = options.merchant?.exited?.()
  if (gone?.portTaken) results.splice(0, results.length, ...results.map((r) => voided(r, gone.message)))
  if (gone) infrastructure ??= gone.message
  const order = new Map(options.scenarios.map((s, i) => [s.slug, i]))
  results.sort((a, b) => (order.get(a.slug) ?? 0) - (order.get(b.slug) ?? 0))
  const summary: RunSummary = {
    results,
    passed: results.filter((r) => r.status === 'passed').length,
    failed: results.filter((r) => r.status === 'failed').length,
    skipped: results.filter((r) => r.status === 'skipped').length,
    notRun: notRunGroups(results),
    ms: Math.round(performance.now() - started),
    ...(infrastructure ? { infrastructure } : {}),
  }
  for (const r of options.reporters) await r.finish(summary)
  return summary
}

/** An adapter written to an earlier contract: said once, before the run. */
function contractNotes(options: RunOptions): string[] {
  const declared = options.mode === 'merchant' ? options.merchant?.declaration?.contract : undefined
  if (declared === undefined || declared >= LATEST_CONTRACT) return []
  return [
    `the adapter is written to contract ${declared} (no "contract": ${LATEST_CONTRACT}): scenarios that need what contract ${LATEST_CONTRACT} added are not run (docs/conformance.md, The merchant contract)`,
  ]
}

/** The skipped scenarios grouped by why: each need the adapter lacks, else the skip's own reason. */
export function notRunGroups(results: ScenarioResult[]): NotRunGroup[] {
  const groups = new Map<string, NotRunGroup>()
  for (const r of results) {
    if (r.status !== 'skipped') continue
    const reasons: { need?: string; reason: string }[] = r.missing?.length
      ? r.missing.map((m) => ({ need: m.need, reason: m.label }))
      : [{ reason: r.reason ?? 'skipped' }]
    for (const { need, reason } of reasons) {
      const group: NotRunGroup = groups.get(reason) ?? { ...(need ? { need } : {}), reason, scenarios: [] }
      group.scenarios.push(r.slug)
      groups.set(reason, group)
    }
  }
  return [...groups.values()]
}

const movesClock = (s: LoadedScenario) => s.scenario.steps.some((step) => step.step === 'clock.advance')

/** A gateway fault that holds an answer in real time (docs/conformance.md, Gateway faults). */
const holdsAnswers = (s: LoadedScenario) =>
  s.scenario.steps.some(
    (step) => step.step === 'gateway.fault' && (step.mode === 'late' || step.hold_seconds !== undefined),
  )

/** A scenario played against whatever held the merchant's port: failed, saying so, unless not run. */
function voided(result: ScenarioResult, why: string): ScenarioResult {
  if (result.status === 'skipped' || result.steps.some((s) => s.message === why)) return result
  const step: StepResult = {
    index: -1,
    kind: 'merchant.process',
    label: 'the merchant process',
    status: 'failed',
    message: why,
    ms: 0,
  }
  return { ...result, status: 'failed', steps: [step, ...result.steps] }
}

function notRun(
  loaded: LoadedScenario,
  mode: Mode,
  reason: string,
): { result: ScenarioResult; infrastructure?: string } {
  return { result: { ...head(loaded, mode), status: 'skipped', reason, steps: [], ms: 0 } }
}

const head = (loaded: LoadedScenario, mode: Mode) => ({
  slug: loaded.slug,
  file: loaded.file,
  title: loaded.scenario.title,
  section: loaded.scenario.section,
  tags: loaded.scenario.tags ?? [],
  mode,
})

async function runOne(
  loaded: LoadedScenario,
  options: RunOptions,
): Promise<{ result: ScenarioResult; infrastructure?: string }> {
  const contextOptions: ContextOptions = {
    mode: options.mode,
    host: options.host,
    ...(options.merchant ? { merchant: options.merchant } : {}),
    ...(options.gateway ? { gateway: options.gateway } : {}),
    ...(options.waitMs !== undefined ? { waitMs: options.waitMs } : {}),
  }
  // What the merchant's adapter does not offer or declare: the scenario is not run, never failed.
  const lacking =
    options.mode === 'merchant' && options.merchant ? notRunFor(loaded, options.merchant) : undefined
  if (lacking)
    return {
      result: {
        ...head(loaded, options.mode),
        status: 'skipped',
        reason: lacking.reason,
        notApplicable: true,
        missing: lacking.missing,
        steps: [],
        ms: 0,
      },
    }
  const why = unsupported(loaded, contextOptions) ?? options.blocked?.(loaded)
  if (why) return notRun(loaded, options.mode, `skipped: ${why}`)
  for (const r of options.reporters) r.scenarioStarted?.(loaded)
  const started = performance.now()
  const ctx = scenarioContext(loaded, contextOptions)
  const steps: StepResult[] = []
  let status: ScenarioResult['status'] = 'passed'
  let reason: string | undefined
  let infrastructure: string | undefined
  let reproduction: ScenarioResult['reproduction']
  try {
    for (const [index, step] of loaded.scenario.steps.entries()) {
      const start = stepStart(ctx)
      const outcome = await runStep(step, index, ctx, options.stepTimeoutMs ?? 30_000)
      steps.push(outcome.result)
      for (const r of options.reporters) r.stepFinished?.(loaded, outcome.result)
      if (outcome.infrastructure) infrastructure = outcome.infrastructure
      if (outcome.result.status === 'failed') {
        status = 'failed'
        reproduction = reproductionOf(ctx, start)
        break
      }
      if (outcome.result.status === 'skipped' && outcome.blocking) {
        status = 'skipped'
        reason = outcome.result.message
        break
      }
    }
  } finally {
    options.host.remove(loaded.slug)
  }
  const result: ScenarioResult = {
    ...head(loaded, options.mode),
    status,
    ...(reason ? { reason } : {}),
    steps,
    ms: Math.round(performance.now() - started),
    ...(reproduction ? { reproduction } : {}),
  }
  return infrastructure ? { result, infrastructure } : { result }
}

export function stepLabel(step: Step, index: number): string {
  const s = step as Step & {
    name?: string
    api?: string
    action?: string
    path?: string
    operation?: string
    outcome?: string
    result?: string
  }
  if (s.name) return `${index + 1}. ${s.name}`
  const detail = [s.api, s.action ?? s.path ?? s.operation, s.outcome ?? s.result].filter(Boolean).join(' ')
  return `${index + 1}. ${s.step}${detail ? ` ${detail}` : ''}`
}

async function runStep(
  step: Step,
  index: number,
  ctx: ScenarioContext,
  timeoutMs: number,
): Promise<{ result: StepResult; blocking?: boolean; infrastructure?: string }> {
  const started = performance.now()
  const scenarioSection = ctx.loaded.scenario.section
  const own = (step as { section?: string }).section
  const base = { index, kind: step.step, label: stepLabel(step, index) }
  const ms = () => Math.round(performance.now() - started)
  ctx.request = undefined
  const seq = ctx.hosted?.arrived ?? 0
  try {
    const result = await withTimeout(STEP_HANDLERS[step.step](step, ctx), timeoutMs)
    capture(step, result, ctx)
    // Cause first: a request the gateway refused or warned about fails the step during which the
    // merchant sent it, whatever the step checks (docs/rules.md#warnings-and-releases).
    if (warningsSince(ctx, seq).length || refusedSince(ctx, seq).length) throw new CauseObserved('')
    if (!step.step.startsWith('expect.') || step.step === 'expect.redirect')
      await recordTimeline(ctx, base.label)
    return { result: { ...base, status: 'passed', ms: ms() } }
  } catch (error) {
    const curl = ctx.request ? { curl: toCurl(ctx.request) } : {}
    if (error instanceof StepSkipped)
      return {
        result: { ...base, status: 'skipped', message: error.message, ms: ms() },
        blocking: error.blocking,
      }
    const section = [scenarioSection, own, error instanceof StepFailed ? error.section : undefined]
      .filter((s, i, all): s is string => !!s && all.indexOf(s) === i)
      .join('; ')
    // What the kit saw leads; the step's description says what the interface expects; in merchant
    // mode the merchant's requests, callbacks and order follow, so the reader sees what it did.
    const description = (step as { description?: string }).description
    // A callback refused for its hash: the kit learns which key the merchant reads (before the story, which shows it).
    if (!(error instanceof StepSkipped)) await probeRefusedCallback(ctx)
    const story = merchantStory(ctx)
    const findings = error instanceof StepSkipped ? [] : causesOf(ctx)
    const failed = (message: string) => {
      const own = error instanceof CauseObserved ? '' : message
      const first = findings[0]
      const lines = first
        ? [
            first.headline,
            '',
            `Cause${findings.length > 1 ? 's' : ''} observed, in the order the merchant made them (each reported before what it led to):`,
            ...findings.flatMap((f, i) =>
              findingLines(f).map((l, j) => `${j === 0 ? `${i + 1}. ` : '   '}${l}`),
            ),
            ...(own ? ['', `This led to the failure of step ${base.label}:`, own] : []),
            ...(description ? [`Expected at this step: ${description}`] : []),
          ]
        : [own || message, ...(description ? [`Expected: ${description}`] : [])]
      const causeSections = first ? [causeSection(first)] : []
      return {
        ...base,
        status: 'failed' as const,
        message: [
          ...lines,
          ...(story.length ? ['What the merchant did:', ...story.map((l) => `  ${l}`)] : []),
        ].join('\n'),
        section: [...causeSections, ...section.split('; ')]
          .filter((s, i, all) => !!s && all.indexOf(s) === i)
          .join('; '),
        ...(findings.length ? { findings } : {}),
        ...curl,
        ms: ms(),
      }
    }
    if (
      error instanceof StepFailed ||
      error instanceof UnknownVariableError ||
      error instanceof JsonPathError ||
      error instanceof AdapterError
    )
      return { result: failed(error.message) }
    if (error instanceof MerchantUnreachable)
      return {
        result: failed(`the merchant is unreachable: ${error.message}`),
        infrastructure: error.message,
      }
    const cause = (error as Error & { cause?: { code?: string } })?.cause?.code
    if (cause === 'ECONNREFUSED' || cause === 'ENOTFOUND')
      return {
        result: failed(`the gateway is unreachable (${cause}) at ${ctx.gatewayUrl}`),
        infrastructure: `gateway unreachable at ${ctx.gatewayUrl}`,
      }
    return {
      result: failed(
        `the kit failed running this step (a bug to report): ${(error as Error)?.stack ?? error}`,
      ),
    }
  }
}

function capture(step: Step, result: unknown, ctx: ScenarioContext) {
  for (const [name, path] of Object.entries((step as { capture?: Record<string, string> }).capture ?? {})) {
    const found = selectAll(result, path)
    if (found.length === 0) {
      const keys =
        result && typeof result === 'object'
          ? Object.keys(result).slice(0, 15).join(', ')
          : JSON.stringify(result)
      throw new StepFailed(`capture ${name}: ${path} selects nothing in the step's result (it has: ${keys})`)
    }
    ctx.vars[name] = found[0]
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new StepFailed(
            `time-out: the step did not finish within ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`} (--step-timeout)`,
          ),
        ),
      ms,
    )
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}
