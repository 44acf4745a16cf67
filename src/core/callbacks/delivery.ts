import type { EngineContext } from '../engine/context.js'
import { formatDateTime } from '../engine/format.js'
import type { Delivery, DeliveryAttempt } from '../engine/model.js'
import { SECOND } from '../ports/clock.js'
import type { StoreOp } from '../ports/store.js'
import { attemptOnce } from './attempt.js'
import { encodeForm, FORM_CONTENT_TYPE } from './form.js'
import { BLOCK_REASON, createUrlGuard, type UrlGuard } from './url-guard.js'

/** The callbacks module's name for a delivery record. */
export type CallbackDelivery = Delivery

export type NewDelivery = Omit<CallbackDelivery, 'id' | 'seq' | 'state' | 'attempts' | 'created_at'>

export interface DeliveryQueue {
  /** Stores the delivery (state `queued`) and sends it at once, never behind an earlier callback's acknowledgement. */
  enqueue(input: NewDelivery): CallbackDelivery
  /** A new delivery of the same fields, marked `replay_of`, sent at once; undefined when the id names none. */
  replay(id: string): CallbackDelivery | undefined
  /** Resolves when nothing is being sent or waiting to be sent (retries scheduled later do not count). */
  idle(): Promise<void>
  /** Picks up the deliveries a previous run left unfinished in the store. */
  resume(): void
  /** Forgets everything in flight (the store was cleared). */
  reset(): void
  /** The store forgot these deliveries (retention): their scheduled retries are cancelled. */
  forgotten(ids: readonly string[]): void
  stop(): void
  /** The notification URLs with time-outs or a block (docs/rules.md#callbacks URL blocking). */
  urls: UrlGuard
}

export interface DeliverySettings {
  /** docs/rules.md#acknowledgement: "a time-out (10 s)"; config callbacks.timeout_seconds. Enforced by the transport. */
  timeoutMs: number
  /** docs/rules.md#callbacks (sandbox): 1 min, 5 min, 15 min, 1 h, 6 h, 24 h; config callbacks.retry_schedule_seconds. */
  retrySeconds: number[]
  /** Attempts in flight per merchant: a slow merchant is served in parallel, and only its own slots wait. */
  concurrency: number
}

export const DEFAULT_RETRY_SECONDS = [60, 300, 900, 3600, 21600, 86400]
export const DEFAULT_CONCURRENCY = 8
const FINAL = new Set<Delivery['state']>(['acknowledged', 'failed'])

export function deliverySettings(
  ctx: EngineContext,
  overrides: Partial<DeliverySettings> = {},
): DeliverySettings {
  const config = ctx.config.callbacks ?? {}
  return {
    timeoutMs: overrides.timeoutMs ?? (config.timeout_seconds ?? 10) * SECOND,
    retrySeconds: overrides.retrySeconds ?? config.retry_schedule_seconds ?? DEFAULT_RETRY_SECONDS,
    concurrency: overrides.concurrency ?? DEFAULT_CONCURRENCY,
  }
}

/**
 * docs/rules.md#retries: "Retries are per merchant: on by default …, off with `callbacks.retries:
 * false`". The merchant's own setting wins over the sandbox-wide one.
 */
export function retriesOn(ctx: EngineContext, merchantKey: string): boolean {
  return ctx.merchant(merchantKey)?.callbacks?.retries ?? ctx.config.callbacks?.retries ?? true
}

/** One merchant's sending state: ids only (the deliveries themselves live in the store). */
interface Lane {
  active: number
  /** Replays: "A replay goes out at once", ahead of the merchant's backlog. */
  urgent: IdQueue
  ready: IdQueue
  scheduled: boolean
}

/**
 * The callback queue (docs/rules.md#callbacks "Delivery"). Each callback goes out when it is created, in
 * creation order per merchant lane, and never waits for an earlier callback's acknowledgement:
 * a 3DS callback that is being retried does not hold back the payment's final one. Per
 * merchant, independence: each merchant has its own lane and slots, so a merchant that hangs,
 * refuses or answers 500 only ever occupies its own. Retries are jobs on the sandbox clock, and a
 * retry job awaits its attempt, so advancing the clock past several due attempts runs every one
 * of them (the next is due inside the same window). The time-out is the transport's (it is
 * passed `timeoutMs`): the engine never starts a real-time timer. Memory: each record lives in
 * the store; in memory are ids of ready deliveries, one cancel function per scheduled retry, the
 * attempts in flight (at most `concurrency` per merchant); the URL guard's counters are in the store.
 */
export function createDeliveryQueue(
  ctx: EngineContext,
  overrides: Partial<DeliverySettings> = {},
): DeliveryQueue {
  const settings = deliverySettings(ctx, overrides)
  let lanes = new Map<string, Lane>()
  const retries = new Map<string, () => void>()
  const urls = createUrlGuard(ctx)
  /** URL -> the end of the block already logged (one line per block, not per delivery). */
  const loggedBlocks = new Map<string, number>()
  let generation = 0
  let stopped = false
  let waiters: (() => void)[] = []

  const get = (id: string) => ctx.store.get('deliveries', id) as CallbackDelivery | undefined
  const announce = (d: CallbackDelivery) =>
    ctx.events.emit({
      type: 'delivery',
      delivery_id: d.id,
      payment_id: d.payment_id,
      merchant_key: d.merchant_key,
      state: d.state,
      at: ctx.clock.now(),
    })
  const save = (d: CallbackDelivery) => {
    ctx.store.put('deliveries', d)
    announce(d)
  }
  /**
   * An attempt's outcome and the URL guard's counters it changed, as one batch (all or nothing,
   * on disk too): a restart never finds a time-out counted without its attempt, or the reverse.
   */
  const saveWith = (d: CallbackDelivery | undefined, urlOp: StoreOp | undefined) => {
    if (!urlOp) {
      if (d) save(d)
      return
    }
    const ops: StoreOp[] = [urlOp]
    if (d) ops.unshift({ collection: 'deliveries', kind: 'put', id: d.id, record: d })
    // Nobody awaits it: a failure to persist rolls the batch back and is reported by the store (writable, flush).
    ctx.store.commit(ops).catch(() => {})
    if (d) announce(d)
  }
  const scheduleFor = (d: CallbackDelivery) => (retriesOn(ctx, d.merchant_key) ? settings.retrySeconds : [])

  function lane(key: string): Lane {
    let found = lanes.get(key)
    if (!found) {
      found = { active: 0, urgent: new IdQueue(), ready: new IdQueue(), scheduled: false }
      lanes.set(key, found)
    }
    return found
  }

  function makeReady(d: CallbackDelivery, urgent = false) {
    const l = lane(d.merchant_key)
    ;(urgent ? l.urgent : l.ready).push(d.id)
    if (l.scheduled) return
    l.scheduled = true
    // Sending starts after the operation that emitted the transaction has finished its own work.
    queueMicrotask(() => {
      l.scheduled = false
      pump(l, generation)
    })
  }

  function pump(l: Lane, gen: number) {
    while (!stopped && gen === generation && (l.active < settings.concurrency || l.urgent.size > 0)) {
      const id = l.urgent.shift() ?? l.ready.shift()
      if (id === undefined) break
      const d = get(id)
      if (d?.state !== 'queued') continue
      void send(l, d, gen).then(() => pump(l, gen))
    }
    settleWaiters()
  }

  /** One attempt of `d` now, and what follows from its outcome (acknowledged, retry, failed). */
  async function send(l: Lane, d: CallbackDelivery, gen: number): Promise<void> {
    l.active++
    try {
      const at = ctx.clock.now()
      const blockedUntil = urls.blockedUntil(d.url, at)
      let attempt: DeliveryAttempt
      let urlOp: StoreOp | undefined
      if (blockedUntil !== undefined) {
        // docs/rules.md#url-blocking: "Blocked deliveries are logged as such": not sent, an attempt that failed.
        attempt = {
          at,
          error: `Not sent: ${d.url} is blocked until ${formatDateTime(blockedUntil)} (${BLOCK_REASON})`,
          blocked: true,
          latency_ms: 0,
          acknowledged: false,
        }
        // Logged once per block (each delivery's attempt records it): thousands of payments to a
        // URL where nothing listens would otherwise write a line each.
        if (loggedBlocks.get(d.url) !== blockedUntil) {
          loggedBlocks.set(d.url, blockedUntil)
          ctx.logger.warn('callback not sent: URL blocked', {
            delivery_id: d.id,
            url: d.url,
            until: blockedUntil,
          })
        }
      } else {
        d.state = 'delivering'
        delete d.next_attempt_at
        save(d)
        const outcome = await attemptOnce(
          ctx.transport,
          {
            url: d.url,
            method: 'POST',
            headers: { 'content-type': FORM_CONTENT_TYPE, 'user-agent': 'paysandbox-callbacks' },
            body: encodeForm(d.fields),
            timeoutMs: settings.timeoutMs,
          },
          d.api,
        )
        attempt = { at, ...outcome }
        if (gen === generation && !stopped) urlOp = urls.record(d.url, ctx.clock.now(), outcome)
      }
      const current = gen === generation && !stopped ? get(d.id) : undefined
      if (!current) return saveWith(undefined, urlOp)
      current.attempts.push(attempt)
      const schedule = scheduleFor(current)
      const retryIndex = current.attempts.length - 1
      if (attempt.acknowledged) {
        current.state = 'acknowledged'
        delete current.next_attempt_at
      } else if (retryIndex < schedule.length) {
        current.state = 'retrying'
        current.next_attempt_at = at + (schedule[retryIndex] ?? 0) * SECOND
        arm(current)
      } else {
        current.state = 'failed'
        delete current.next_attempt_at
      }
      saveWith(current, urlOp)
    } finally {
      l.active--
    }
  }

  /**
   * The retry is a clock job that awaits its attempt: on a virtual clock the job runs with now()
   * at its due time, and a retry it schedules inside the advanced window runs in the same advance.
   */
  function arm(d: CallbackDelivery) {
    const gen = generation
    retries.get(d.id)?.()
    const cancel = ctx.clock.at(d.next_attempt_at ?? ctx.clock.now(), async () => {
      retries.delete(d.id)
      const current = gen === generation && !stopped ? get(d.id) : undefined
      if (current?.state !== 'retrying') return
      const l = lane(current.merchant_key)
      await send(l, current, gen)
      settleWaiters()
    })
    retries.set(d.id, cancel)
  }

  function settleWaiters() {
    if (!waiters.length) return
    for (const l of lanes.values())
      if (l.active > 0 || l.ready.size > 0 || l.urgent.size > 0 || l.scheduled) return
    const done = waiters
    waiters = []
    for (const resolve of done) resolve()
  }

  function enqueue(input: NewDelivery, urgent = false): CallbackDelivery {
    const previous = ctx.store.findBy('deliveries', 'payment_id', input.payment_id)
    const delivery: CallbackDelivery = {
      ...input,
      id: ctx.ids.uuid(),
      seq: previous.reduce((max, d) => Math.max(max, d.seq), 0) + 1,
      state: 'queued',
      attempts: [],
      created_at: ctx.clock.now(),
    }
    ctx.store.put('deliveries', delivery)
    // Enqueued from inside a `transaction` event: announced after it, so the stream reads cause, then effect.
    const queued = { ...delivery }
    queueMicrotask(() => announce(queued))
    if (!stopped) makeReady(delivery, urgent)
    return delivery
  }

  function forget() {
    generation++
    for (const cancel of retries.values()) cancel()
    retries.clear()
    lanes = new Map()
    const done = waiters
    waiters = []
    for (const resolve of done) resolve()
  }

  return {
    enqueue: (input) => enqueue(input),
    replay(id) {
      const original = get(id)
      if (!original) return undefined
      const { merchant_key, payment_id, order_id, api, kind, url, fields, transaction_id } = original
      const copy: NewDelivery = { merchant_key, payment_id, order_id, api, kind, url, fields, replay_of: id }
      if (transaction_id) copy.transaction_id = transaction_id
      return enqueue(copy, true)
    },
    idle() {
      return new Promise<void>((resolve) => {
        waiters.push(resolve)
        settleWaiters()
      })
    },
    resume() {
      const unfinished = unfinishedDeliveries(ctx).sort(
        (a, b) => a.created_at - b.created_at || a.seq - b.seq,
      )
      for (const d of unfinished) {
        if (d.state === 'retrying') arm(d)
        else {
          // An attempt cut short by a stop never got its answer: it is sent again, not counted.
          if (d.state === 'delivering') {
            d.state = 'queued'
            save(d)
          }
          makeReady(d)
        }
      }
    },
    reset: forget,
    forgotten(ids) {
      for (const id of ids) {
        retries.get(id)?.()
        retries.delete(id)
      }
    },
    stop() {
      stopped = true
      forget()
    },
    urls,
  }
}

/** Deliveries not yet acknowledged or failed: from the store's state index when it has one (no full read). */
function unfinishedDeliveries(ctx: EngineContext): CallbackDelivery[] {
  if (!ctx.store.query)
    return (ctx.store.list('deliveries') as CallbackDelivery[]).filter((d) => !FINAL.has(d.state))
  const out: CallbackDelivery[] = []
  for (const state of ['queued', 'delivering', 'retrying'] as const) {
    const found = ctx.store.query('deliveries', {
      where: { state },
      order: 'asc',
      limit: Number.MAX_SAFE_INTEGER,
    })
    for (const id of found?.ids ?? []) {
      const d = ctx.store.get('deliveries', id) as CallbackDelivery | undefined
      if (d) out.push(d)
    }
  }
  return out
}

/** A FIFO of ids that does not copy on every shift. */
class IdQueue {
  private items: string[] = []
  private head = 0
  get size(): number {
    return this.items.length - this.head
  }
  push(id: string) {
    this.items.push(id)
  }
  shift(): string | undefined {
    if (this.head >= this.items.length) return undefined
    const id = this.items[this.head++]
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head)
      this.head = 0
    }
    return id
  }
}
