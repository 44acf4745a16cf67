import { payerActionRequest } from '../core/control/payer-door.js'
import { numberForMasked } from '../core/order-scenario/cards.js'
import { IN_PROCESS } from '../core/engine/http.js'
import { addFault, listFaults } from '../core/faults/index.js'
import type { SandboxFaultRequest } from '../generated/types.js'
import { fetchDeliver } from './callback-channel.js'
import type { ScenarioContext } from './context.js'
import { toCurl } from './curl.js'
import { reportText } from './reporters/redact.js'
import {
  type HostedGateway,
  type PayerActionRecord,
  type SandboxHost,
  startSandboxHost,
} from './sandbox-host.js'
import type { ReproRequest, Reproduction, RunSummary, ScenarioResult } from './types.js'

/**
 * A failure's reproduction after the run (issue 33): the kit's own sandbox of a failed scenario is
 * kept in the report as it was when the failing step began (its configuration, the requests it had
 * received, its clock and armed faults), and `paysandbox repro REPORT SCENARIO` starts it again on
 * a port: the earlier requests are sent again to a sandbox seeded as the scenario's was (so they
 * make the same payments with the same ids), the clock is set, the faults armed, and the failing
 * request is printed as a curl command against it (or sent, with --run).
 */

/** The sandbox's state when a step begins, so that a failure can report what it started from. */
export interface StepStart {
  arrived: number
  /** The kit's payer actions so far (HostedGateway.payerActions). */
  payerActions: number
  clockMs: number
  faults: SandboxFaultRequest[]
}

export function stepStart(ctx: ScenarioContext): StepStart | undefined {
  const hosted = ctx.hosted
  if (!hosted) return undefined
  return {
    arrived: hosted.arrived,
    payerActions: hosted.payerActions.length,
    clockMs: hosted.clock.now(),
    faults: listFaults(hosted.gateway.ctx).map((r) => ({
      mode: r.mode,
      ...(Object.keys(r.match).length ? { match: r.match } : {}),
      count: r.remaining,
      seconds: r.seconds,
      ...(r.status !== undefined ? { status: r.status } : {}),
      ...(r.hold_seconds !== undefined ? { hold_seconds: r.hold_seconds } : {}),
    })),
  }
}

/** Headers a request sent again must not copy (the client sets them). */
const CLIENT_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'accept-encoding',
])

const kept = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !CLIENT_HEADERS.has(name.toLowerCase())))

/** What `paysandbox repro` needs, for a step that failed on the kit's own sandbox. */
export function reproductionOf(ctx: ScenarioContext, start: StepStart | undefined): Reproduction | undefined {
  const hosted = ctx.hosted
  if (!hosted || !start) return undefined
  const { scenario } = ctx.loaded
  const request = ctx.request
  const path = request?.url.startsWith(ctx.gatewayUrl)
    ? request.url.slice(ctx.gatewayUrl.length) || '/'
    : undefined
  return {
    credentials: ctx.credentials,
    ...(ctx.merchant ? { notification_url: ctx.merchant.notificationUrl } : {}),
    ...(scenario.setup ? { setup: scenario.setup } : {}),
    ...(scenario.callbacks ? { callbacks: scenario.callbacks } : {}),
    clock_ms: start.clockMs,
    faults: start.faults,
    before: before(hosted, start),
    ...(request && path
      ? {
          request: {
            method: request.method,
            path,
            headers: kept(request.headers),
            body: reportText(request.body),
          },
        }
      : {}),
  }
}

/** The requests and the payer's actions before the failing step, in the order the sandbox had them. */
function before(hosted: HostedGateway, start: StepStart): ReproRequest[] {
  const requests = hosted.requests.filter((r) => r.seq < start.arrived)
  const actions = hosted.payerActions.slice(0, start.payerActions)
  const out: ReproRequest[] = []
  let next = 0
  const payerUpTo = (arrived: number) => {
    while (next < actions.length && (actions[next] as PayerActionRecord).after <= arrived) {
      const record = actions[next++] as PayerActionRecord
      const { path, query, body } = payerActionRequest(record.action)
      const search = new URLSearchParams(query).toString()
      out.push({
        method: 'POST',
        path: search ? `${path}?${search}` : path,
        headers: { 'content-type': 'application/json' },
        body: reportText(JSON.stringify(body)),
        at: record.at,
        door: 'in-process',
      })
    }
  }
  for (const r of requests) {
    payerUpTo(r.seq)
    out.push({
      method: r.method,
      path: r.path,
      headers: kept(r.headers),
      body: reportText(r.text),
      ...(r.at !== undefined ? { at: r.at } : {}),
    })
  }
  payerUpTo(Number.POSITIVE_INFINITY)
  return out
}

export class ReproError extends Error {}

/** The failed scenario of a JSON report, by id (or a unique part of its id or name). */
export function findFailure(
  report: unknown,
  wanted: string,
): ScenarioResult & { reproduction: Reproduction } {
  const results = (report as { scenarios?: ScenarioResult[] } | null)?.scenarios
  if (!Array.isArray(results))
    throw new ReproError('this is not a report of `paysandbox test --reporter json` (it has no "scenarios")')
  const failed = results.filter((r) => r.status === 'failed')
  const needle = wanted.toLowerCase()
  const exact = results.find((r) => r.slug === wanted)
  const matches = exact
    ? [exact]
    : failed.filter((r) => r.slug.toLowerCase().includes(needle) || r.title.toLowerCase().includes(needle))
  const list = failed.length
    ? `failed in this report: ${failed.map((r) => r.slug).join(', ')}`
    : 'nothing failed in this report'
  if (matches.length !== 1)
    throw new ReproError(
      `${matches.length ? `"${wanted}" names ${matches.length} failed scenarios` : `no failed scenario "${wanted}"`}; ${list}`,
    )
  const found = matches[0] as ScenarioResult
  if (found.status !== 'failed') throw new ReproError(`${found.slug} did not fail (${found.status}); ${list}`)
  if (!found.reproduction)
    throw new ReproError(
      `${found.slug} ran against an external gateway: its state is that gateway's, and the report holds no sandbox to start`,
    )
  return found as ScenarioResult & { reproduction: Reproduction }
}

export interface StartedReproduction {
  host: SandboxHost
  hosted: HostedGateway
  /** The gateway's base URL (`http://127.0.0.1:PORT/run/<slug>`). */
  baseUrl: string
  /** The failing request against this sandbox, as a curl command (undefined when the step made none). */
  curl?: string
  /** Sends the failing request; answers the gateway's status and body. */
  send(): Promise<{ status: number; body: string }>
  close(): Promise<void>
}

/**
 * A report holds every card number masked and no security code (reporters/redact.ts), so a
 * reproduction sends a request again with the number its mask names (the published test card
 * with those first 6 and last 4 digits, else a Luhn-valid one with them: order-scenario/cards.ts
 * `numberForMasked`, as the replay does) and a security code of its own: the sandbox's outcome of
 * a test card depends on its expiry (docs/rules.md#test-cards), never on its CVV, and the expiry
 * is kept.
 */
const CVV_SENT_AGAIN = '123'

/** Masked card numbers back to numbers, a removed security code to one the test cards accept. */
export function restoreRedacted(text: string): string {
  const out = text.replace(
    /(?<![\d*])\d{6}\*{2,9}\d{4}(?![\d*])/g,
    (masked) => numberForMasked(masked) ?? masked,
  )
  return out.replace(
    /((?:^|[&?"{,\s])[\w.[\]%-]*(?:cvv2?|cvc2?|csc|security_code)(?:%5D|\])?\\?["']?\s*[:=]\s*\\?["']?)(?:\[removed\]|%5Bremoved%5D)/gi,
    `$1${CVV_SENT_AGAIN}`,
  )
}

/** Sends one earlier request again: over HTTP, or a payer action through the in-process door. */
async function sendAgain(hosted: HostedGateway, r: ReproRequest): Promise<void> {
  if (r.door !== 'in-process') {
    await (await send(hosted.baseUrl, r)).text()
    return
  }
  const url = new URL(r.path, 'http://in-process')
  await hosted.gateway.handle({
    method: r.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: r.headers,
    body: new TextEncoder().encode(restoreRedacted(r.body)),
    door: IN_PROCESS,
  })
  await hosted.idle()
}

const send = (baseUrl: string, r: ReproRequest) =>
  fetch(`${baseUrl}${r.path}`, {
    method: r.method,
    headers: r.headers,
    ...(r.body && r.method !== 'GET' && r.method !== 'HEAD' ? { body: restoreRedacted(r.body) } : {}),
  })

/** Starts the failed scenario's sandbox on `port` (0: any free one), in the state the failing step began from. */
export async function startReproduction(
  slug: string,
  repro: Reproduction,
  port = 0,
): Promise<StartedReproduction> {
  const host = await startSandboxHost(port)
  const hosted = host.create(slug, {
    credentials: repro.credentials,
    // Without a merchant's URL (gateway mode) the sandbox acknowledges its callbacks itself, as the kit did.
    notificationUrl: repro.notification_url ?? `${host.url}/callbacks/${slug}`,
    ...(repro.setup ? { setup: repro.setup } : {}),
    deliver: repro.notification_url ? fetchDeliver() : async () => ({ status: 200, body: 'OK' }),
  })
  hosted.channel.mode = repro.callbacks ?? 'auto'
  const moveTo = async (at: number | undefined) => {
    if (at !== undefined && at > hosted.clock.now()) await hosted.clock.advance(at - hosted.clock.now())
  }
  for (const request of repro.before) {
    await moveTo(request.at)
    await sendAgain(hosted, request)
  }
  await moveTo(repro.clock_ms)
  await hosted.idle()
  for (const fault of repro.faults) addFault(hosted.gateway.ctx, fault)
  const request = repro.request
  return {
    host,
    hosted,
    baseUrl: hosted.baseUrl,
    ...(request ? { curl: toCurl({ ...request, url: `${hosted.baseUrl}${request.path}` }) } : {}),
    async send() {
      if (!request) throw new ReproError('the failing step made no request to send')
      const answer = await send(hosted.baseUrl, request)
      return { status: answer.status, body: await answer.text() }
    },
    close: () => host.close(),
  }
}

/** The command that starts a failure's sandbox again, for a report written to `file`. */
export const reproCommands = (summary: RunSummary, file: string): string[] =>
  summary.results
    .filter((r) => r.status === 'failed' && r.reproduction)
    .map((r) => `paysandbox repro ${file} ${r.slug}`)
