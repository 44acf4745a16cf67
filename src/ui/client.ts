import type {
  ApmOutcome,
  CallbacksQuery,
  ClockView,
  DeliveriesPage,
  DeliveryDetail,
  EngineEvent,
  Health,
  ImportResult,
  MerchantAction,
  MerchantRequest,
  MerchantView,
  PayerAnswer,
  PaymentDetail,
  PaymentExport,
  PaymentsPage,
  PaymentsQuery,
  RequestsPage,
  RequestsQuery,
  ScheduleView,
  SentAnswer,
} from './client-types.js'
import type { SandboxFaultRequest, SandboxFaultResponse, SandboxFaultsResponse } from '../generated/types.js'
import { readEvents } from './sse.js'

/** `fetch` itself, or the in-process gateway behind the same signature (in-process.ts). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

/** The sandbox answered with an error envelope (`{http_code, error_code, error_message, errors?}`). */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error_message?: string; errors?: { error_message: string }[] },
  ) {
    const detail = body.errors?.map((e) => e.error_message).join('; ')
    super(`${body.error_message ?? `HTTP ${status}`}${detail ? ` ${detail}` : ''}`)
  }
}

/** The sandbox could not be reached at all (refused, reset, timed out). */
export class UnreachableError extends Error {}

/**
 * The sandbox is served with a control token (serve --control-token) and refused the console's:
 * none was given (`given` false) or another one (SANDBOX_CONTROL_TOKEN_INVALID, HTTP 401).
 */
export class TokenRefusedError extends Error {
  constructor(readonly given: boolean) {
    super(
      given
        ? 'the sandbox refused the control token given (--control-token or $PAYSANDBOX_CONTROL_TOKEN): it is not the one it was served with'
        : 'the sandbox needs a control token: start the console with --control-token TOKEN (or $PAYSANDBOX_CONTROL_TOKEN), the token it was served with',
    )
  }
}

export interface ControlClient {
  /** Where the sandbox is reached: shown in the header, the base of merchant requests sent. */
  readonly baseUrl: string
  health(): Promise<Health>
  clock(): Promise<ClockView>
  advanceClock(seconds: number): Promise<ClockView>
  /** Gateway faults (POST /sandbox/faults): the next matching request fails as `mode` says. */
  addFault(rule: SandboxFaultRequest): Promise<SandboxFaultResponse>
  /** The gateway faults still to happen (GET /sandbox/faults). */
  faults(): Promise<SandboxFaultsResponse['faults']>
  /** Forgets them all (DELETE /sandbox/faults). */
  clearFaults(): Promise<{ removed: number }>
  merchants(): Promise<MerchantView[]>
  payments(query?: PaymentsQuery): Promise<PaymentsPage>
  payment(id: string): Promise<PaymentDetail>
  callbacks(query?: CallbacksQuery): Promise<DeliveriesPage>
  callback(id: string): Promise<DeliveryDetail>
  replayCallback(id: string): Promise<{ id: string; replay_of: string; state: string }>
  schedules(): Promise<ScheduleView[]>
  pauseSchedule(id: string): Promise<ScheduleView>
  runSchedule(id: string): Promise<ScheduleView>
  threeDs(id: string, result: 'pass' | 'fail'): Promise<PayerAnswer>
  payerReturn(id: string): Promise<PayerAnswer>
  apmOutcome(id: string, outcome: ApmOutcome): Promise<PayerAnswer>
  exportPayment(id: string): Promise<PaymentExport>
  importPayment(document: unknown): Promise<ImportResult>
  merchantRequest(id: string, action: MerchantAction, amount?: string): Promise<MerchantRequest>
  /** The request log (docs/rules.md#request-log): an order's or a payment's requests, what they carried and got. */
  requests(query: RequestsQuery): Promise<RequestsPage>
  /** GET /sandbox/orders/{order_id}/scenario: the order as a conformance scenario (docs/replay.md). */
  orderScenario(orderId: string, merchant?: string): Promise<Record<string, unknown>>
  /** Sends a prepared merchant request to the gateway's own endpoint, as the merchant would. */
  send(request: MerchantRequest): Promise<SentAnswer>
  /** The live event stream; `onOpen` once the sandbox accepted it. Ends when the sandbox goes away. */
  events(signal: AbortSignal, onOpen?: () => void): AsyncGenerator<EngineEvent>
}

export interface ClientOptions {
  baseUrl: string
  fetch?: FetchLike
  /** Per request; a sandbox that stops answering is reported instead of hanging the console. */
  timeoutMs?: number
  /** Sent as X-Sandbox-Control-Token to the control API (/sandbox/...) of a sandbox that requires it. */
  controlToken?: string
}

const enc = encodeURIComponent

/** The typed control API client every console mode uses (--url, --data, embedded). */
export function createControlClient(options: ClientOptions): ControlClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => fetch(input, init))
  const timeoutMs = options.timeoutMs ?? 10_000
  /** The token goes to the control API only, never to the gateway endpoints a merchant request reaches. */
  const tokenFor = (path: string): Record<string, string> =>
    options.controlToken && path.startsWith('/sandbox/')
      ? { 'x-sandbox-control-token': options.controlToken }
      : {}

  async function raw(method: string, path: string, body?: string, type = 'application/json') {
    try {
      return await fetchImpl(`${baseUrl}${path}`, {
        method,
        headers: { ...tokenFor(path), ...(body === undefined ? {} : { 'content-type': type }) },
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      throw new UnreachableError(`${baseUrl} is not answering (${reason(error)})`)
    }
  }

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await raw(method, path, body === undefined ? undefined : JSON.stringify(body))
    const text = await response.text()
    let parsed: unknown
    try {
      parsed = text ? JSON.parse(text) : {}
    } catch {
      throw new ControlError(response.status, { error_message: `not JSON: ${text.slice(0, 80)}` })
    }
    if (!response.ok) throw new ControlError(response.status, parsed as ControlError['body'])
    return parsed as T
  }

  const query = (q: object = {}) => {
    const entries = Object.entries(q).filter(([, v]) => v !== undefined && v !== '')
    return entries.length ? `?${new URLSearchParams(entries as [string, string][])}` : ''
  }

  return {
    baseUrl,
    health: () => call('GET', '/sandbox/health'),
    clock: () => call('GET', '/sandbox/clock'),
    advanceClock: (seconds) => call('POST', '/sandbox/clock/advance', { seconds }),
    addFault: (rule) => call('POST', '/sandbox/faults', rule),
    faults: async () => (await call<SandboxFaultsResponse>('GET', '/sandbox/faults')).faults,
    clearFaults: () => call('DELETE', '/sandbox/faults'),
    merchants: async () => (await call<{ merchants: MerchantView[] }>('GET', '/sandbox/merchants')).merchants,
    payments: (q) => call('GET', `/sandbox/payments${query(q)}`),
    payment: (id) => call('GET', `/sandbox/payments/${enc(id)}`),
    callbacks: (q) => call('GET', `/sandbox/callbacks${query(q)}`),
    callback: (id) => call('GET', `/sandbox/callbacks/${enc(id)}`),
    replayCallback: (id) => call('POST', `/sandbox/callbacks/${enc(id)}/replay`, {}),
    schedules: async () => (await call<{ schedules: ScheduleView[] }>('GET', '/sandbox/schedules')).schedules,
    pauseSchedule: (id) => call('POST', `/sandbox/schedules/${enc(id)}/pause`, {}),
    runSchedule: (id) => call('POST', `/sandbox/schedules/${enc(id)}/run`, {}),
    threeDs: (id, result) => call('POST', `/sandbox/payments/${enc(id)}/3ds`, { result }),
    payerReturn: (id) => call('POST', `/sandbox/payments/${enc(id)}/redirect`, {}),
    apmOutcome: (id, outcome) => call('POST', `/sandbox/payments/${enc(id)}/apm`, { outcome }),
    exportPayment: (id) => call('GET', `/sandbox/payments/${enc(id)}/export`),
    importPayment: (document) => call('POST', '/sandbox/import', document),
    requests: (q) => call('GET', `/sandbox/requests${query(q)}`),
    orderScenario: (orderId, merchant) =>
      call('GET', `/sandbox/orders/${enc(orderId)}/scenario${query({ merchant })}`),
    merchantRequest: (id, action, amount) =>
      call('POST', `/sandbox/payments/${enc(id)}/merchant-request`, amount ? { action, amount } : { action }),
    async send(request) {
      const response = await raw(request.method, request.path, request.body, request.content_type)
      const text = await response.text()
      let body: unknown = text
      try {
        body = JSON.parse(text)
      } catch {
        // An S2S or HTML answer that is not JSON is shown as text.
      }
      return { status: response.status, body }
    },
    async *events(signal, onOpen) {
      let response: Response
      try {
        response = await fetchImpl(`${baseUrl}/sandbox/events`, {
          headers: { accept: 'text/event-stream', ...tokenFor('/sandbox/events') },
          signal,
        })
      } catch (error) {
        throw new UnreachableError(`${baseUrl} is not answering (${reason(error)})`)
      }
      if (response.status === 401) throw new TokenRefusedError(Boolean(options.controlToken))
      if (!response.ok || !response.body)
        throw new ControlError(response.status, { error_message: 'no event stream' })
      onOpen?.()
      yield* readEvents(response.body)
    },
  }
}

/** The innermost cause of a failed fetch (`ECONNREFUSED`), which is what an operator needs to see. */
function reason(error: unknown): string {
  let current = error as { cause?: unknown; code?: string; message?: string; name?: string } | undefined
  while (current?.cause) current = current.cause as typeof current
  if (current?.name === 'TimeoutError') return 'timed out'
  return current?.code ?? current?.message ?? String(error)
}
