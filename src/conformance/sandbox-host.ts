import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  createMemoryStore,
  createSeededIds,
  createVirtualClock,
  type VirtualClock,
} from '../adapters/index.js'
import { callbacksOf } from '../core/callbacks/index.js'
import type { SandboxConfig } from '../core/engine/context.js'
import type { Gateway } from '../core/engine/gateway.js'
import { type Collections, STORE_INDEXES } from '../core/engine/model.js'
import { parseBody } from '../core/engine/parse.js'
import type { Refusal } from '../core/engine/refusal.js'
import { assembleGateway } from '../assembly.js'
import { toGatewayRequest, writeResponse } from '../adapters/express/node-request.js'
import { answerClientError } from '../adapters/express/server.js'
import type { PayerAction } from '../core/control/payer-door.js'
import { silentLogger } from '../core/ports/logger.js'
import { FAULT_HEADER } from '../core/faults/index.js'
import type { ScenarioSetup } from '../generated/types.js'
import { type CallbackChannel, createCallbackChannel, type Deliver } from './callback-channel.js'
import type { ApiName } from './endpoints.js'

/**
 * One HTTP server for the whole run. Each scenario gets its own gateway (memory store, virtual
 * clock, ids seeded `scenario:<slug>`) under `/run/<slug>`, so scenarios run at once against one
 * merchant process without seeing each other. The server also receives callbacks for the kit
 * acting as a merchant (`/callbacks/<slug>`) and payers coming back (`/return/<slug>/...`).
 */

/** A request to a scenario's gateway, as it arrived, with the gateway's answer. */
export interface ObservedRequest {
  /** Arrival order (a request held by a fault is recorded when it ends, in its arrival place). */
  seq: number
  method: string
  path: string
  headers: Record<string, string>
  text: string
  /** Parsed JSON or form (bracket notation expanded); undefined when it could not be parsed. */
  body?: Record<string, unknown>
  answer: {
    status: number
    text: string
    json?: unknown
    /** docs/rules.md#warnings: the `Sandbox-Warning` headers it carried. */
    warnings?: string[]
    /** docs/rules.md#rule-book: why the gateway refused it (the rule, the fields, the formula), as it answered. */
    refusal?: Refusal
  }
  /** Matched by an expect.merchant_request already. */
  consumed: boolean
  /** The answer was a gateway fault the scenario injected (src/core/faults): not the merchant's doing. */
  fault?: string
  /**
   * Fault `late`: how long the answer was held (real time) and whether it reached the merchant
   * (its client was still waiting) or not (its client gave up first).
   */
  late?: { ms: number; delivered: boolean }
  /** A step expected the gateway to refuse it (signature `invalid`, `accepted: false`). */
  expectedRefusal?: boolean
  /** When it arrived, on the scenario's clock (ms). */
  at?: number
}

export interface HostedGateway {
  slug: string
  baseUrl: string
  gateway: Gateway
  clock: VirtualClock
  /** In arrival order (`seq`). */
  requests: ObservedRequest[]
  /** Requests arrived so far: the `seq` of the next one. */
  arrived: number
  channel: CallbackChannel
  /** The kit's in-process payer actions, in order (a reproduction sends them again in their place). */
  payerActions: PayerActionRecord[]
  /** Resolves once no callback is being sent or waits to be sent. */
  idle(): Promise<void>
}

/** One in-process payer action (control/payer-door.ts), where it fell among the requests. */
export interface PayerActionRecord {
  /** Requests arrived before it (`arrived` when it was sent). */
  after: number
  /** On the scenario's clock (ms). */
  at: number
  action: PayerAction
}

export interface GatewayOptions {
  credentials: { merchant_key: string; password: string }
  notificationUrl: string
  setup?: ScenarioSetup
  /** Where the gateway's callbacks go (the merchant, or the kit's own receiver). */
  deliver: Deliver
}

export interface SandboxHost {
  url: string
  create(slug: string, options: GatewayOptions): HostedGateway
  get(slug: string): HostedGateway | undefined
  remove(slug: string): void
  /** `/run/current` serves this scenario (merchants that read one gateway URL at start). */
  setCurrent(slug: string | undefined): void
  /** A channel that receives callbacks at `/callbacks/<slug>`, or at `/callbacks` for orders carrying `runId`. */
  receiveCallbacks(slug: string, channel: CallbackChannel, runId?: string): void
  returns: { slug: string; path: string; query: string }[]
  close(): Promise<void>
}

/** Marks a request the kit itself sends in merchant mode (gateway.call `in_merchant_mode`): not the merchant's. */
export const KIT_REQUEST_HEADER = 'x-paysandbox-kit-request'

/** 2026-11-02 10:00:00 UTC: every scenario starts at the same instant, so its answers repeat. */
export const SCENARIO_START_MS = Date.UTC(2026, 10, 2, 10, 0, 0)

export const DEFAULT_MIDS: NonNullable<ScenarioSetup['mids']> = [
  {
    id: 'mid-1',
    name: 'Conformance MID (SMS/DMS, MOTO, card-on-file, zero amount)',
    payment_mode: 'SMS/DMS',
    moto: true,
    card_on_file: true,
    zero_amount: true,
    override_link_target: null,
  },
]

export function scenarioConfig(options: Omit<GatewayOptions, 'deliver'>): SandboxConfig {
  const retries = options.setup?.retry_schedule_seconds
  return {
    merchants: [
      {
        key: options.credentials.merchant_key,
        password: options.credentials.password,
        name: 'Merchant under test',
        notification_url: options.notificationUrl,
        mids: options.setup?.mids ?? DEFAULT_MIDS,
        protocol_mapping: options.setup?.protocol_mapping ?? {},
      },
    ],
    clock: { mode: 'virtual' },
    callbacks: {
      timeout_seconds: options.setup?.callback_timeout_seconds ?? 10,
      ...(retries ? { retry_schedule_seconds: retries } : {}),
    },
  } as SandboxConfig
}

export async function startSandboxHost(port = 0): Promise<SandboxHost> {
  const gateways = new Map<string, HostedGateway>()
  const receivers = new Map<string, CallbackChannel>()
  const runIds = new Map<string, string>()
  const returns: SandboxHost['returns'] = []
  let current: string | undefined
  const server: Server = createServer((req, res) => {
    route(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: String((error as Error)?.message ?? error) }))
    })
  })
  // A head node cannot read gets the same structured envelope as from `serve` (docs/rules.md#request-limits).
  server.on('clientError', answerClientError)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  async function route(req: IncomingMessage, res: ServerResponse) {
    const target = new URL(req.url ?? '/', url)
    const [, area, rawSlug, ...rest] = target.pathname.split('/')
    const slug = rawSlug === 'current' && area === 'run' ? current : decodeURIComponent(rawSlug ?? '')
    if (area === 'run' && slug && gateways.has(slug)) {
      // The gateway reads the body itself, within its limits (gateway.handle), as `serve` does.
      return serveGateway(gateways.get(slug) as HostedGateway, req, res, `/${area}/${rawSlug}`)
    }
    if (area === 'callbacks') {
      const body = await readBody(req, CALLBACK_LIMIT)
      if (!body)
        return void res
          .writeHead(413, { 'content-type': 'text/plain', connection: 'close' })
          .end(`a callback is at most ${CALLBACK_LIMIT} bytes`)
      const text = new TextDecoder().decode(body)
      // A callback of an earlier run against the same gateway (a schedule still running) is not this run's.
      const runId = slug ? runIds.get(slug) : undefined
      const order = new URLSearchParams(text).get('order_number') ?? new URLSearchParams(text).get('order_id')
      const stale = runId && ((rest[0] && rest[0] !== runId) || (order && !order.includes(runId)))
      if (stale) return void res.writeHead(200, { 'content-type': 'text/plain' }).end('OK')
      const channel = (slug && receivers.get(slug)) || receiverOf(text)
      if (!channel)
        return void res
          .writeHead(404, { 'content-type': 'text/plain' })
          .end('no scenario awaits this callback')
      const answer = channel.received(target.href, text)
      return void res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body)
    }
    if (area === 'return' && slug) {
      returns.push({ slug, path: `/${rest.join('/')}`, query: target.search })
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end('The payer is back.')
    }
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ error: `No scenario is served at ${target.pathname}` }))
  }

  /**
   * A gateway configured with one notification URL (Checkout) sends every scenario's callbacks
   * to `/callbacks`: the order number, which carries the scenario's run id, says whose it is.
   */
  function receiverOf(text: string): CallbackChannel | undefined {
    const fields = new URLSearchParams(text)
    const order = fields.get('order_number') ?? fields.get('order_id') ?? ''
    for (const [slug, channel] of receivers)
      if (runIds.get(slug) && order.includes(runIds.get(slug) as string)) return channel
    return undefined
  }

  return {
    url,
    returns,
    create(slug, options) {
      const hosted = createHostedGateway(slug, `${url}/run/${slug}`, options)
      gateways.set(slug, hosted)
      return hosted
    },
    get: (slug) => gateways.get(slug),
    remove(slug) {
      gateways.get(slug)?.gateway.stop()
      gateways.delete(slug)
      receivers.delete(slug)
      runIds.delete(slug)
    },
    setCurrent(slug) {
      current = slug
    },
    receiveCallbacks(slug, channel, runId) {
      receivers.set(slug, channel)
      if (runId) runIds.set(slug, runId)
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const hosted of gateways.values()) hosted.gateway.stop()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function createHostedGateway(slug: string, baseUrl: string, options: GatewayOptions): HostedGateway {
  const clock = createVirtualClock(SCENARIO_START_MS)
  const store = createMemoryStore<Collections>(STORE_INDEXES)
  let gateway: Gateway | undefined
  const apiOf = (fields: Record<string, string>): ApiName | undefined => {
    const id = fields.trans_id ?? fields.id
    const payment = id ? gateway?.ctx.store.get('payments', id) : undefined
    return payment?.api
  }
  let arrived = () => 0
  const channel = createCallbackChannel({ deliver: options.deliver, apiOf, requestsArrived: () => arrived() })
  channel.timeoutMs = (options.setup?.callback_timeout_seconds ?? 10) * 1000
  gateway = assembleGateway({
    store,
    clock,
    ids: createSeededIds(`scenario:${slug}`),
    transport: channel.transport,
    logger: silentLogger,
    config: scenarioConfig(options),
    baseUrl,
  })
  const engine = gateway
  const hosted: HostedGateway = {
    slug,
    baseUrl,
    gateway: engine,
    clock,
    requests: [],
    arrived: 0,
    channel,
    payerActions: [],
    idle: () => callbacksOf(engine.ctx).idle(),
  }
  arrived = () => hosted.arrived
  return hosted
}

/**
 * A scenario's gateway at `/run/<slug>`: the request goes through the same node translation as
 * `serve` (adapters/express/node-request), so the kit sees exactly what a merchant sees and every
 * cross-cutting step (path, guard, limits, body read, faults, commit) is the engine's. The request
 * log keeps what the merchant sent, as far as the gateway read it, and what it was answered, with
 * its warnings and the refusal the gateway gave (the kit judges from it, not from the messages).
 */
async function serveGateway(
  hosted: HostedGateway,
  req: IncomingMessage,
  res: ServerResponse,
  prefix: string,
) {
  const incoming = toGatewayRequest(req, res, { basePath: prefix, servedHosts: SERVED_HOSTS })
  let bytes: Uint8Array = new Uint8Array(0)
  const read = incoming.readBody
  if (read)
    incoming.readBody = async (limit) => {
      const result = await read(limit)
      if (result.ok) bytes = result.body
      return result
    }
  const at = hosted.clock.now()
  const seq = hosted.arrived++
  const started = performance.now()
  const response = await hosted.gateway.handle(incoming)
  const ms = Math.round(performance.now() - started)
  const path = incoming.path.startsWith(prefix) ? incoming.path.slice(prefix.length) || '/' : incoming.path
  const { headers, method } = incoming
  const dropped = response.fault === 'drop'
  const fault = response.headers[FAULT_HEADER]
  if (!path.startsWith('/sandbox/') && !headers[KIT_REQUEST_HEADER]) {
    const text = response.stream ? '' : response.body
    const parsed = await parseBody(headers['content-type'], bytes)
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    record(hosted.requests, {
      seq,
      method,
      path,
      headers,
      text: new TextDecoder().decode(bytes),
      ...(parsed.ok ? { body: parsed.value } : {}),
      answer: {
        status: dropped ? 0 : response.status,
        text: dropped ? noAnswer(fault) : text,
        ...(json !== undefined ? { json } : {}),
        ...(response.warnings?.length ? { warnings: response.warnings } : {}),
        ...(response.refusal ? { refusal: response.refusal } : {}),
      },
      consumed: false,
      ...(fault ? { fault } : {}),
      ...(fault === 'late' ? { late: { ms, delivered: !dropped } } : {}),
      at,
    })
  }
  writeResponse(req, res, response)
}

/** Keeps the log in arrival order: a late answer ends after requests that came after it. */
function record(requests: ObservedRequest[], request: ObservedRequest): void {
  let at = requests.length
  while (at > 0 && (requests[at - 1] as ObservedRequest).seq > request.seq) at--
  requests.splice(at, 0, request)
}

/** What the merchant got when a fault took the answer away. */
const noAnswer = (fault: string | undefined) =>
  fault === 'late'
    ? "(no answer: the gateway did it and held its answer until the merchant's client gave up, sandbox fault late)"
    : fault
      ? `(no answer: connection dropped, sandbox fault ${fault})`
      : "(no answer: the merchant's client had gone before its request was handled; nothing was done)"

/** The kit's host is reached at loopback only (the control guard's served hosts). */
const SERVED_HOSTS: readonly string[] = Object.freeze(['127.0.0.1'])
/** The gateway's callbacks to the kit's own receiver are small forms. */
const CALLBACK_LIMIT = 1024 * 1024

/** The body, or undefined past `limit` bytes (the rest is not read: the connection closes). */
function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      req.off('data', onData)
      req.pause()
      resolve(undefined)
    }
    req.on('data', onData)
    req.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))))
    req.on('error', reject)
  })
}
