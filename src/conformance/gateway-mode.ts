import { randomBytes } from 'node:crypto'
import type { GatewayTarget } from './scenario-context.js'
import { errorEntry } from '../core/engine/errors.js'
import { refusalOf } from './http.js'
import { checkoutHash } from './signing.js'
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
  /** Why the gateway refused to let the kit create its own merchants (said with the missing settings). */
  refused?: string,
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
    notes: notes.length
      ? [
          `gateway ${base}: ${notes.join('; ')}${refused ? ` (the kit could not create a merchant of its own: ${refused})` : ''}`,
        ]
      : [],
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

type Credentials = GatewayTarget['credentials']

/** The merchants the kit created on an external paysandbox for this run, and how to remove them. */
export interface ProvisionedMerchants {
  /** The run's merchant: callbacks to the kit, one MID with MOTO, card-on-file and zero amount. */
  credentials: Credentials
  /** Merchants of the scenarios with a `setup` (their MIDs and Protocol Mapping), by slug. */
  scenarioCredentials: Record<string, Credentials>
  /** Deletes every merchant created (also after a failed run); answers what could not be deleted. */
  release(): Promise<string[]>
}

/** Why the gateway did not let the kit create a merchant: the run falls back to the given one. */
export class ProvisionRefused extends Error {}

/** A setup the kit can give a merchant of its own: MIDs and Protocol Mapping (the rest is sandbox-wide). */
const merchantSetup = (loaded: LoadedScenario) => {
  const setup = loaded.scenario.setup
  if (!setup) return undefined
  const { mids, protocol_mapping, ...rest } = setup as Record<string, unknown>
  return Object.keys(rest).length ? undefined : { mids, protocol_mapping }
}

/**
 * Issue 16 point 3: against a running paysandbox, whatever its configuration, the kit creates the
 * merchants its scenarios need through the control API (POST /sandbox/merchants) with keys unique
 * to this run: one whose callbacks go to the kit (`kitCallbacksUrl`), with a MOTO, card-on-file and
 * zero-amount MID; and one per scenario with a `setup` (its MIDs, ids made unique, and Protocol
 * Mapping). `release` deletes them all. A gateway that refuses the creation (not a paysandbox, an
 * older one without the route, a control token not given) throws ProvisionRefused with the reason.
 */
export async function provisionMerchants(
  target: GatewayTarget,
  kitCallbacksUrl: string,
  scenarios: LoadedScenario[],
): Promise<ProvisionedMerchants> {
  const base = target.url ?? ''
  if (!target.paysandbox) throw new ProvisionRefused(`${base} is not a paysandbox (no GET /sandbox/health)`)
  const run = randomBytes(4).toString('hex')
  const headers = {
    'content-type': 'application/json',
    ...(target.controlToken ? { 'x-sandbox-control-token': target.controlToken } : {}),
  }
  const created: string[] = []
  const release = async () => {
    const problems: string[] = []
    for (const key of created.splice(0)) {
      try {
        const r = await fetch(`${base}/sandbox/merchants/${encodeURIComponent(key)}`, {
          method: 'DELETE',
          headers,
          signal: AbortSignal.timeout(5000),
        })
        await r.arrayBuffer()
        if (r.status !== 200 && r.status !== 404) problems.push(`${key}: HTTP ${r.status}`)
      } catch (error) {
        problems.push(`${key}: ${(error as Error).message}`)
      }
    }
    return problems
  }
  const create = async (merchant: Record<string, unknown>): Promise<Credentials> => {
    const password = randomBytes(16).toString('hex')
    const body = { ...merchant, password }
    let response: Response
    try {
      response = await fetch(`${base}/sandbox/merchants`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5000),
      })
    } catch (error) {
      throw new ProvisionRefused(`POST ${base}/sandbox/merchants failed: ${(error as Error).message}`)
    }
    const text = await response.text()
    if (response.status !== 201) {
      const hint =
        response.status === 401 || response.status === 403
          ? ' (give its control token: --control-token)'
          : response.status === 404
            ? ' (no such route: a gateway that is not a paysandbox, or an older one)'
            : ''
      throw new ProvisionRefused(
        `POST ${base}/sandbox/merchants answered HTTP ${response.status}${hint}: ${text.slice(0, 200)}`,
      )
    }
    created.push(String(merchant.key))
    return { merchant_key: String(merchant.key), password }
  }
  try {
    const credentials = await create({
      key: `kit-${run}`,
      name: `paysandbox conformance kit, run ${run}`,
      notification_url: kitCallbacksUrl,
      mids: [
        {
          id: `kit-${run}-mid`,
          name: 'Conformance MID (SMS/DMS, MOTO, card-on-file, zero amount)',
          payment_mode: 'SMS/DMS',
          moto: true,
          card_on_file: true,
          zero_amount: true,
        },
      ],
    })
    const scenarioCredentials: Record<string, Credentials> = {}
    let n = 0
    for (const loaded of scenarios) {
      const setup = merchantSetup(loaded)
      if (!setup) continue
      n += 1
      const key = `kit-${run}-${n}`
      scenarioCredentials[loaded.slug] = await create({
        key,
        name: `paysandbox conformance kit, run ${run}: ${loaded.slug}`.slice(0, 200),
        notification_url: kitCallbacksUrl,
        mids: ((setup.mids as { id: string }[] | undefined) ?? [{ id: 'mid', payment_mode: 'SMS/DMS' }]).map(
          (mid) => ({ ...mid, id: `${mid.id}-${run}-${n}`.slice(0, 64) }),
        ),
        ...(setup.protocol_mapping ? { protocol_mapping: setup.protocol_mapping } : {}),
      })
    }
    return { credentials, scenarioCredentials, release }
  } catch (error) {
    await release()
    throw error
  }
}

/** Readiness once the kit's own merchants exist: every setting is there; only the shared clock is not the kit's. */
export function provisionedReadiness(target: GatewayTarget): GatewayReadiness {
  const reason = `moves the clock, which is shared by everyone using ${target.url ?? ''}: run it against the built-in sandbox (paysandbox test without --gateway)`
  return {
    notes: [],
    blocked: (loaded) => (needsOf(loaded).includes('clock') ? reason : undefined),
  }
}

/**
 * Issue 33: a wrong `--key` (or `--password`) is said before the run, plainly, instead of as every
 * scenario's failure: one signed Checkout status lookup of a payment that does not exist. The
 * gateway answers "Merchant not found." (AUTH_MERCHANT_UNKNOWN) for a key it does not know and
 * "Hash is not valid." for a password that is not the key's; any other answer (the payment does
 * not exist) means both were accepted. No answer within `timeoutMs` (the step time limit) says
 * nothing: the run goes on and its steps report it.
 */
export async function checkCredentials(target: GatewayTarget, timeoutMs = 5000): Promise<void> {
  const base = target.url ?? ''
  const { merchant_key: key, password } = target.credentials
  const path = '/api/v1/payment/status'
  const body: Record<string, unknown> = { merchant_key: key, payment_id: 'paysandbox-credentials-check' }
  body.hash = checkoutHash(path, body, password)
  let status: number
  let text: string
  let rule: string | undefined
  try {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    })
    status = response.status
    text = await response.text()
    rule = credentialRule(response.headers.get('sandbox-rule'), status, text)
  } catch {
    // No answer in time: the scenarios' own steps say what the gateway does (time-outs included).
    return
  }
  if (rule === 'credentials')
    throw new GatewayMisconfigured(
      `the gateway at ${base} refused --key ${key}: it answered HTTP ${status} "${messageOf(text)}", so it has no merchant with that key; check --key (its merchant_key / client_key)`,
    )
  if (rule === 'signatures' || rule === 'checkout-signatures')
    throw new GatewayMisconfigured(
      `the gateway at ${base} knows --key ${key} but refused the signature made with --password: it answered HTTP ${status} "${messageOf(text)}"; check --password (that merchant's signing password)`,
    )
}

/** The catalogue rows (schemas/catalogue/errors.json) that refuse a key or a signature. */
const CREDENTIAL_ROWS = [
  'AUTH_MERCHANT_UNKNOWN',
  'CHECKOUT_MERCHANT_KEY_INVALID',
  'AUTH_HASH_INVALID',
  'CHECKOUT_HASH_INVALID',
]

/**
 * The rule a credentials check was refused by: a paysandbox's `Sandbox-Rule` header (or the
 * catalogue rule its codes name, http.ts `refusalOf`); another gateway's answer is matched to the
 * catalogue's credential rows by their exact status and message (code 100000 names too many rules
 * to tell by code alone).
 */
function credentialRule(header: string | null, status: number, text: string): string | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  const refusal = refusalOf(header, status, parsed)
  if (refusal) return refusal.rule
  const b = (parsed && typeof parsed === 'object' ? parsed : {}) as {
    error_message?: unknown
    errors?: { error_message?: unknown }[]
  }
  const said = [b.error_message, ...(Array.isArray(b.errors) ? b.errors.map((e) => e.error_message) : [])]
  const row = CREDENTIAL_ROWS.map((id) => errorEntry(id)).find(
    (entry) => entry.http_code === status && said.includes(entry.error_message),
  )
  return row?.rule
}

const messageOf = (text: string): string => {
  try {
    const body = JSON.parse(text) as { error_message?: string; errors?: { error_message?: string }[] }
    return body.errors?.[0]?.error_message ?? body.error_message ?? text.slice(0, 120)
  } catch {
    return text.slice(0, 120)
  }
}
