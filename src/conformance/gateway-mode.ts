import type { GatewayTarget } from './scenario-context.js'
import type { LoadedScenario, Step } from './types.js'

/** The external gateway cannot be reached at all: an infrastructure error (exit 3). */
export class GatewayUnreachable extends Error {}

/**
 * `--gateway URL --key K --password P`: the gateway-facing scenarios run against that gateway.
 * A paysandbox (it answers GET /sandbox/health) also lets the kit act as the payer (Hosted Payment
 * Fields, APM control) and move the clock; against any other gateway, steps that need those are
 * reported skipped ("needs payer control"), never passed.
 */
export async function probeGateway(
  url: string,
  credentials: GatewayTarget['credentials'],
  controlToken?: string,
): Promise<GatewayTarget> {
  const base = url.replace(/\/+$/, '')
  let health: Response
  try {
    health = await fetch(`${base}/sandbox/health`, { signal: AbortSignal.timeout(5000) })
    await health.arrayBuffer()
  } catch (error) {
    const cause = (error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message
    throw new GatewayUnreachable(`the gateway at ${base} cannot be reached (${cause})`)
  }
  return {
    url: base,
    credentials,
    paysandbox: health.status === 200,
    ...(controlToken ? { controlToken } : {}),
  }
}

/** What a scenario needs of the external gateway's merchant beyond its credentials. */
type Need = 'checkout callbacks' | 'moto' | 'zero amount' | 'clock'

export interface GatewayReadiness {
  /** One line each, printed before the run: the merchant settings that are missing. */
  notes: string[]
  /** Why a scenario cannot run against this gateway (undefined: it can). */
  blocked(loaded: LoadedScenario): string | undefined
}

const stepsOf = (loaded: LoadedScenario) => loaded.scenario.steps as (Step & Record<string, unknown>)[]

/** The settings a scenario needs, read from its steps. */
export function needsOf(loaded: LoadedScenario): Need[] {
  const steps = stepsOf(loaded)
  const text = JSON.stringify(steps)
  const needs = new Set<Need>()
  if (steps.some((s) => s.step === 'clock.advance')) needs.add('clock')
  if (/"moto_type"/.test(text)) needs.add('moto')
  if (
    steps.some(
      (s) =>
        s.step === 'merchant.start' && /^0+(\.0+)?$/.test(String((s.order as { amount?: unknown })?.amount)),
    )
  )
    needs.add('zero amount')
  const checkout = steps.some((s) => s.step === 'merchant.start' && s.api === 'checkout')
  const waitsForCallback = steps.some(
    (s) => s.step === 'expect.callback' || s.step === 'expect.callback_acknowledged',
  )
  if (checkout && waitsForCallback) needs.add('checkout callbacks')
  return [...needs]
}

/**
 * Before the run, against an external paysandbox: reads its merchant (GET /sandbox/merchants) and
 * says in one line what is missing for which scenarios, so they are skipped with that reason
 * instead of failing after a wait. Its clock is shared: scenarios that move it are never run
 * there (the kit never leaves another sandbox's clock moved).
 */
export async function gatewayReadiness(
  target: GatewayTarget,
  kitCallbacksUrl: string,
): Promise<GatewayReadiness> {
  const base = target.url ?? ''
  const missing = new Map<Need, string>()
  missing.set(
    'clock',
    `moves the clock, which is shared by everyone using ${base}: run it against the built-in sandbox (paysandbox test without --gateway)`,
  )
  if (target.paysandbox) {
    let merchants: { key: string; notification_url?: string | null; mids?: Record<string, unknown>[] }[] = []
    try {
      const response = await fetch(`${base}/sandbox/merchants`, {
        headers: target.controlToken ? { 'x-sandbox-control-token': target.controlToken } : {},
        signal: AbortSignal.timeout(5000),
      })
      const body = (await response.json()) as { merchants?: typeof merchants }
      if (response.status !== 200)
        throw new GatewayMisconfigured(
          `GET ${base}/sandbox/merchants answered HTTP ${response.status}${response.status === 401 || response.status === 403 ? ': give its control token (--control-token)' : ''}`,
        )
      merchants = body.merchants ?? []
    } catch (error) {
      if (error instanceof GatewayMisconfigured) throw error
      throw new GatewayMisconfigured(`GET ${base}/sandbox/merchants failed: ${(error as Error).message}`)
    }
    const merchant = merchants.find((m) => m.key === target.credentials.merchant_key)
    if (!merchant)
      throw new GatewayMisconfigured(
        `the gateway at ${base} has no merchant "${target.credentials.merchant_key}" (it has: ${merchants.map((m) => m.key).join(', ') || 'none'}); configure it or pass --key of one of them`,
      )
    const url = merchant.notification_url ?? ''
    if (url.replace(/\/+$/, '') !== kitCallbacksUrl)
      missing.set(
        'checkout callbacks',
        `merchant ${merchant.key}'s notification_url is ${url || 'not set'}, not the kit's ${kitCallbacksUrl}, so Checkout callbacks never reach the kit (set it, and run with that --port)`,
      )
    const mids = merchant.mids ?? []
    if (!mids.some((m) => m.moto === true)) missing.set('moto', `merchant ${merchant.key} has no MOTO MID`)
    if (!mids.some((m) => m.zero_amount === true))
      missing.set('zero amount', `merchant ${merchant.key} has no zero-amount MID`)
  }
  const notes = [...missing.entries()].filter(([need]) => need !== 'clock').map(([, why]) => why)
  return {
    notes: notes.length ? [`gateway ${base}: ${notes.join('; ')}`] : [],
    blocked(loaded) {
      const reasons = needsOf(loaded)
        .map((need) => missing.get(need))
        .filter((r): r is string => !!r)
      return reasons.length ? reasons.join('; ') : undefined
    },
  }
}

/** The external gateway is set up so that no scenario can run (no such merchant): exit code 2. */
export class GatewayMisconfigured extends Error {}
