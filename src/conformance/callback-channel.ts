import qs from 'qs'
import { acknowledges, isTimeout } from '../core/callbacks/attempt.js'
import { encodeForm, FORM_CONTENT_TYPE } from '../core/callbacks/form.js'
import type { OutboundRequest, OutboundResponse, Transport } from '../core/ports/transport.js'
import type { ApiName } from './endpoints.js'

/**
 * The scenario's view of callbacks: every one the gateway made (with each attempt and the
 * receiver's answer) and every one the kit sent itself (duplicates, forgeries). It is the
 * transport of a kit-hosted gateway, so it can hold callbacks (`"callbacks": "manual"`) or fail
 * attempts (`callbacks.fail`) before they reach the receiver.
 */

export interface CallbackAttempt {
  status?: number
  body?: string
  error?: string
  /** The receiver did not answer within the time-out (docs/rules.md#acknowledgement: a failed attempt). */
  timedOut?: boolean
  /** The kit failed it itself (`callbacks.fail`): not the merchant's answer. */
  byKit?: boolean
  acknowledged: boolean
  ms: number
  /**
   * Kit-hosted gateway: the merchant's requests that had arrived when the attempt began and when
   * it ended (`ObservedRequest.seq`), so a status lookup is known to be made while the merchant
   * handled the callback, or after it answered.
   */
  requests?: { before: number; after: number }
}

/** The merchant's view of its order just before and just after a callback the kit sent itself. */
export interface CallbackEffect {
  before?: Record<string, unknown>
  after?: Record<string, unknown>
}

export interface CallbackRecord {
  index: number
  /** `probe`: the kit re-sent a refused callback with a key added, to learn what the merchant reads. */
  source: 'gateway' | 'duplicate' | 'forged' | 'probe'
  api: ApiName
  url: string
  /** As POSTed: flat keys in bracket notation. */
  fields: Record<string, string>
  /** As a form parser reads it: nested objects. */
  body: Record<string, unknown>
  text: string
  /** Made by the gateway and not yet delivered to the receiver (manual mode). */
  held: boolean
  attempts: CallbackAttempt[]
  /** Matched by an expect.callback step already. */
  consumed: boolean
  /** Kit-sent callbacks (duplicate, forged) in merchant mode: what they did to the merchant's order. */
  effect?: CallbackEffect
  /** A forgery: what the kit changed, for reports. */
  forgery?: string
  /** A step expected the merchant to refuse or drop it (`acknowledged: false`). */
  expectedRefusal?: boolean
}

/** Sends one callback to the receiver and returns its answer (throws when unreachable or timed out). */
export type Deliver = (request: {
  url: string
  text: string
  timeoutMs?: number
}) => Promise<OutboundResponse>

export interface CallbackChannel {
  readonly log: CallbackRecord[]
  mode: 'auto' | 'manual'
  /** Attempts still to fail before reaching the receiver. */
  failNext: number
  /** The receiver's time to answer (the scenario's sandbox setting); the kit's own sends use it too. */
  timeoutMs: number
  readonly transport: Transport
  /** A callback that reached the kit's own receiver over HTTP (gateway mode, external gateway). */
  received(url: string, text: string, api?: ApiName): OutboundResponse
  /** Delivers held callbacks (positions in the held list, oldest first). */
  sendHeld(which: number[] | 'all' | 'next'): Promise<CallbackRecord[]>
  /** Sends fields the kit made itself to the receiver. */
  sendOwn(
    template: CallbackRecord,
    fields: Record<string, string>,
    source: 'duplicate' | 'forged' | 'probe',
  ): Promise<CallbackRecord>
  held(): CallbackRecord[]
}

const DEFAULT_TIMEOUT_MS = 10_000
const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`)

/** "attempt 1: HTTP 400 "invalid hash"; attempt 2: no answer within 10 s (time-out)": a callback's history. */
export const describeAttempts = (attempts: CallbackAttempt[]): string =>
  attempts
    .map(
      (a, i) =>
        `attempt ${i + 1}: ${a.error ? a.error : `HTTP ${a.status}${a.body ? ` ${JSON.stringify(a.body.slice(0, 120))}` : ''}`}${a.ms >= 1000 ? ` after ${(a.ms / 1000).toFixed(1)} s` : ''}`,
    )
    .join('; ')

const QS = { depth: 6, arrayLimit: 200, parameterLimit: 2000, allowPrototypes: false } as const
const ACK: OutboundResponse = { status: 200, body: 'OK' }

export function parseForm(text: string): { fields: Record<string, string>; body: Record<string, unknown> } {
  return {
    fields: Object.fromEntries(new URLSearchParams(text)),
    body: qs.parse(text, QS) as Record<string, unknown>,
  }
}

/** Checkout callbacks carry `order_status`; S2S ones `action`. APM or CARD is the gateway's to say. */
export const guessApi = (fields: Record<string, string>): ApiName =>
  'order_status' in fields || !('action' in fields) ? 'checkout' : 's2s-card'

export function createCallbackChannel(options: {
  deliver: Deliver
  /** Which API a callback belongs to (the kit-hosted gateway knows its payments). */
  apiOf?: (fields: Record<string, string>) => ApiName | undefined
  /** The merchant's requests arrived so far (kit-hosted gateway), to place attempts among them. */
  requestsArrived?: () => number
}): CallbackChannel {
  const log: CallbackRecord[] = []
  const apiOf = (fields: Record<string, string>) => options.apiOf?.(fields) ?? guessApi(fields)

  const record = (
    url: string,
    text: string,
    source: CallbackRecord['source'],
    api?: ApiName,
  ): CallbackRecord => {
    const { fields, body } = parseForm(text)
    const entry: CallbackRecord = {
      index: log.length,
      source,
      api: api ?? apiOf(fields),
      url,
      fields,
      body,
      text,
      held: false,
      attempts: [],
      consumed: false,
    }
    log.push(entry)
    return entry
  }

  /** A retry of the gateway's is the same callback again: one record, one more attempt. */
  const recordOf = (url: string, text: string) =>
    log.find(
      (r) =>
        r.source === 'gateway' && r.url === url && r.text === text && !r.attempts.some((a) => a.acknowledged),
    ) ?? record(url, text, 'gateway')

  async function attempt(entry: CallbackRecord, given?: number): Promise<OutboundResponse> {
    const timeoutMs = given ?? channel.timeoutMs
    const started = performance.now()
    const ms = () => Math.round(performance.now() - started)
    const before = options.requestsArrived?.()
    const stamp = () =>
      before === undefined ? {} : { requests: { before, after: options.requestsArrived?.() ?? before } }
    if (channel.failNext > 0) {
      channel.failNext--
      entry.attempts.push({
        error: 'refused by the kit (callbacks.fail)',
        byKit: true,
        acknowledged: false,
        ms: 0,
      })
      throw new Error('connection refused by the kit (callbacks.fail)')
    }
    try {
      const answer = await options.deliver({
        url: entry.url,
        text: entry.text,
        timeoutMs,
      })
      entry.attempts.push({
        status: answer.status,
        body: answer.body.slice(0, 500),
        acknowledged: acknowledges(entry.api, answer.status, answer.body),
        ms: ms(),
        ...stamp(),
      })
      return answer
    } catch (error) {
      const timedOut = isTimeout(error)
      entry.attempts.push({
        error: timedOut
          ? `no answer within ${seconds(timeoutMs)} (time-out)`
          : String((error as Error)?.message ?? error),
        ...(timedOut ? { timedOut } : {}),
        acknowledged: false,
        ms: ms(),
        ...stamp(),
      })
      throw error
    }
  }

  const transport: Transport = {
    async send(request: OutboundRequest) {
      const entry = recordOf(request.url, request.body)
      if (channel.mode === 'manual' && entry.attempts.length === 0) {
        // Held: the gateway counts it as delivered; the scenario decides when the receiver gets it.
        entry.held = true
        return ACK
      }
      return attempt(entry, request.timeoutMs)
    },
  }

  const channel: CallbackChannel = {
    log,
    mode: 'auto',
    failNext: 0,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    transport,
    received(url, text, api) {
      const entry = recordOf(url, text)
      if (api) entry.api = api
      if (channel.failNext > 0) {
        channel.failNext--
        entry.attempts.push({
          status: 503,
          error: 'refused by the kit (callbacks.fail)',
          byKit: true,
          acknowledged: false,
          ms: 0,
        })
        return { status: 503, body: 'refused by the kit (callbacks.fail)' }
      }
      entry.attempts.push({ status: 200, body: 'OK', acknowledged: true, ms: 0 })
      return ACK
    },
    held: () => log.filter((r) => r.held),
    async sendHeld(which) {
      const held = channel.held()
      const picked =
        which === 'all'
          ? held
          : which === 'next'
            ? held.slice(0, 1)
            : which.map((i) => held[i]).filter((r) => !!r)
      for (const entry of picked) {
        entry.held = false
        await attempt(entry).catch(() => undefined)
      }
      return picked
    },
    async sendOwn(template, fields, source) {
      const entry = record(template.url, encodeForm(fields), source, template.api)
      await attempt(entry).catch(() => undefined)
      return entry
    },
  }
  return channel
}

/** POSTs a callback as the sandbox does (docs/rules.md#callbacks), with the sandbox's time-out. */
export const fetchDeliver =
  (defaultTimeoutMs = DEFAULT_TIMEOUT_MS): Deliver =>
  async ({ url, text, timeoutMs = defaultTimeoutMs }) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': FORM_CONTENT_TYPE, 'user-agent': 'paysandbox-conformance' },
      body: text,
      // A 3xx is the merchant's answer, and not an acknowledgement (docs/rules.md#callbacks): never follow it.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    })
    return { status: response.status, body: await response.text() }
  }
