import type { EngineContext } from '../engine/context.js'
import type { Delivery } from '../engine/model.js'
import { SECOND } from '../ports/clock.js'
import { attemptOnce } from './attempt.js'
import { encodeForm, FORM_CONTENT_TYPE } from './form.js'

/** The callbacks module's name for a delivery record. */
export type CallbackDelivery = Delivery

export type NewDelivery = Omit<CallbackDelivery, 'id' | 'seq' | 'state' | 'attempts' | 'created_at'>

export interface DeliveryQueue {
  /** Stores the delivery (state `queued`) and sends it once every earlier callback of its payment is done. */
  enqueue(input: NewDelivery): CallbackDelivery
  /** A new delivery of the same fields, marked `replay_of`; undefined when the id names none. */
  replay(id: string): CallbackDelivery | undefined
  /** Resolves when nothing is being sent or waiting to be sent (retries scheduled later do not count). */
  idle(): Promise<void>
  /** Picks up the deliveries a previous run left unfinished in the store. */
  resume(): void
  /** Forgets everything in flight (the store was cleared). */
  reset(): void
  stop(): void
}

export interface DeliverySettings {
  /** decisions.md §3: "a time-out (10 s)"; config callbacks.timeout_seconds. */
  timeoutMs: number
  /** decisions.md §3 (sandbox): 1 min, 5 min, 15 min, 1 h, 6 h, 24 h; config callbacks.retry_schedule_seconds. */
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

/** One merchant's sending state: ids only (the deliveries themselves live in the store). */
interface Lane {
  active: number
  ready: IdQueue
  scheduled: boolean
}

/**
 * The callback queue. Per payment, strict order: only the earliest unfinished delivery of a
 * payment is ever ready, so a later one waits until the earlier one is acknowledged or failed
 * (decisions.md §3). Per merchant, independence: each merchant has its own lane and slots, so a
 * merchant that hangs, refuses or answers 500 only ever occupies its own. Retries are jobs on the
 * sandbox clock. Memory: each record lives in the store; in memory are ids of ready deliveries,
 * one cancel function per scheduled retry, and the attempts in flight (at most `concurrency`
 * per merchant).
 */
export function createDeliveryQueue(
  ctx: EngineContext,
  overrides: Partial<DeliverySettings> = {},
): DeliveryQueue {
  const settings = deliverySettings(ctx, overrides)
  let lanes = new Map<string, Lane>()
  const retries = new Map<string, () => void>()
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
  const unfinishedOf = (paymentId: string) =>
    (ctx.store.findBy('deliveries', 'payment_id', paymentId) as CallbackDelivery[])
      .filter((d) => !FINAL.has(d.state))
      .sort((a, b) => a.seq - b.seq)
  const isHead = (d: CallbackDelivery) => unfinishedOf(d.payment_id)[0]?.id === d.id

  function lane(key: string): Lane {
    let found = lanes.get(key)
    if (!found) {
      found = { active: 0, ready: new IdQueue(), scheduled: false }
      lanes.set(key, found)
    }
    return found
  }

  function makeReady(d: CallbackDelivery) {
    const l = lane(d.merchant_key)
    l.ready.push(d.id)
    if (l.scheduled) return
    l.scheduled = true
    // Sending starts after the operation that emitted the transaction has finished its own work.
    queueMicrotask(() => {
      l.scheduled = false
      pump(l, generation)
    })
  }

  function pump(l: Lane, gen: number) {
    while (!stopped && gen === generation && l.active < settings.concurrency) {
      const id = l.ready.shift()
      if (id === undefined) break
      const d = get(id)
      if (!d || d.state === 'acknowledged' || d.state === 'failed' || d.state === 'delivering') continue
      l.active++
      void send(l, d, gen)
    }
    settleWaiters()
  }

  async function send(l: Lane, d: CallbackDelivery, gen: number) {
    d.state = 'delivering'
    delete d.next_attempt_at
    save(d)
    const at = ctx.clock.now()
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
    l.active--
    const current = gen === generation && !stopped ? get(d.id) : undefined
    if (current) {
      current.attempts.push({ at, ...outcome })
      const retryIndex = current.attempts.length - 1
      if (outcome.acknowledged) current.state = 'acknowledged'
      else if (retryIndex < settings.retrySeconds.length) {
        current.state = 'retrying'
        current.next_attempt_at = ctx.clock.now() + (settings.retrySeconds[retryIndex] ?? 0) * SECOND
        arm(current)
      } else current.state = 'failed'
      save(current)
      if (FINAL.has(current.state)) promoteNext(current.payment_id)
    }
    pump(l, gen)
  }

  function arm(d: CallbackDelivery) {
    const gen = generation
    const cancel = ctx.clock.at(d.next_attempt_at ?? ctx.clock.now(), () => {
      retries.delete(d.id)
      const current = gen === generation ? get(d.id) : undefined
      if (current?.state === 'retrying') makeReady(current)
    })
    retries.set(d.id, cancel)
  }

  function promoteNext(paymentId: string) {
    const next = unfinishedOf(paymentId)[0]
    if (next?.state === 'queued') makeReady(next)
  }

  function settleWaiters() {
    if (!waiters.length) return
    for (const l of lanes.values()) if (l.active > 0 || l.ready.size > 0 || l.scheduled) return
    const done = waiters
    waiters = []
    for (const resolve of done) resolve()
  }

  function enqueue(input: NewDelivery): CallbackDelivery {
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
    if (!stopped && isHead(delivery)) makeReady(delivery)
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
    enqueue,
    replay(id) {
      const original = get(id)
      if (!original) return undefined
      const { merchant_key, payment_id, order_id, api, kind, url, fields, transaction_id } = original
      const copy: NewDelivery = { merchant_key, payment_id, order_id, api, kind, url, fields, replay_of: id }
      if (transaction_id) copy.transaction_id = transaction_id
      return enqueue(copy)
    },
    idle() {
      return new Promise<void>((resolve) => {
        waiters.push(resolve)
        settleWaiters()
      })
    },
    resume() {
      for (const d of ctx.store.list('deliveries') as CallbackDelivery[]) {
        if (FINAL.has(d.state)) continue
        if (d.state === 'retrying') arm(d)
        else if (isHead(d)) {
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
    stop() {
      stopped = true
      forget()
    },
  }
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
