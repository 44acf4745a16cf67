import type { EngineContext } from './context.js'
import { fail } from './errors.js'
import type { EngineEvent } from './events.js'
import {
  DEFAULT_STREAM_LIMITS,
  FAN_OUT_MAX_MS,
  FAN_OUT_MS,
  FAN_OUT_PER_STREAM_MS,
  FAN_OUT_SLICE,
  formatEvent,
  formatGap,
  HEARTBEAT,
  HEARTBEAT_MS,
  HISTORY,
  type Numbered,
  REAL_TIMERS,
  type StreamClient,
  type StreamLimits,
  type StreamSlot,
  type StreamStats,
  type StreamTimers,
  SWEEP_MS,
} from './stream-clients.js'

export * from './stream-clients.js'
/**
 * The engine's events, numbered, with the last HISTORY kept in a ring, and the streams that read
 * them. `publish` costs the request that emits an event O(1) whatever the number of streams: the
 * event goes into the ring and one fan-out is scheduled; the fan-out (FAN_OUT_MS) writes each stream
 * everything from its cursor to the newest event in one write. A stream whose buffer is full is not
 * written to (nothing is queued for it: its cursor stays where it was); once it drains it gets
 * what it missed from the ring, or a `gap` when that is no longer kept. A stream whose reader takes
 * nothing of what waits for it for `drainTimeoutMs` is let go (docs/rules.md#connections).
 */
export interface EventHistory {
  publish(event: EngineEvent): void
  /** Takes a place for a stream from `address`, or throws its refusal (total, then per client). */
  admit(address: string | undefined): StreamSlot
  /** Starts serving a stream admitted with `slot`; returns its end (idempotent). */
  attach(slot: StreamSlot, client: StreamClient): () => void
  /** Writes to `client` what it has not had yet, at once (it has just drained, or just opened). */
  catchUp(client: StreamClient): void
  /** Runs the fan-out now instead of at its time (tests; a fan-out due later then finds nothing new). */
  flush(): void
  /** Events after `id`, or undefined when some of them are no longer kept. */
  since(id: number): Numbered[] | undefined
  lastId(): number
  /**
   * Looks at every stream (every SWEEP_MS while there is one, or as a test drives it): a stream
   * whose reader took nothing of what waits for it since `drainTimeoutMs` before `now` is let go;
   * one that drained gets what it missed; a heartbeat goes out when due.
   */
  sweep(now?: number): void
  stats(): StreamStats
  /** Ends every stream and the timers. */
  stop(): void
}

/** An admitted stream the adapter never attached (its client left first) gives its place back after this. */
const ATTACH_GRACE_MS = 10_000

export function createEventHistory(
  limits: StreamLimits = DEFAULT_STREAM_LIMITS,
  timers: StreamTimers = REAL_TIMERS,
): EventHistory {
  const ring: (Numbered | undefined)[] = new Array(HISTORY)
  let last = 0
  const clients = new Map<StreamClient, () => void>()
  const perClient = new Map<string, number>()
  const attached = new WeakSet<StreamSlot>()
  let admitted = 0
  let letGo = 0
  let refused = 0
  let fanOutDue = false
  let lastFanOut = Number.NEGATIVE_INFINITY
  let lastHeartbeat = 0
  let stopSweep: (() => void) | undefined

  const textOf = (item: Numbered) => {
    item.text ??= formatEvent(item.event, item.id)
    return item.text
  }

  /** Everything from `from` to the newest event, as one chunk (a gap first for what is no longer kept). */
  function chunkFrom(from: number, cache?: Map<number, string>): string {
    const cached = cache?.get(from)
    if (cached !== undefined) return cached
    const oldest = Math.max(1, last - HISTORY + 1)
    let chunk = from < oldest ? formatGap(from, oldest - 1, 'slow-client') : ''
    for (let n = Math.max(from, oldest); n <= last; n++) chunk += textOf(ring[n % HISTORY] as Numbered)
    cache?.set(from, chunk)
    return chunk
  }

  const detach = (client: StreamClient) => clients.get(client)?.()

  function send(client: StreamClient, cache?: Map<number, string>) {
    if (!client.open()) return detach(client)
    if (client.next > last || !client.ready()) return
    const chunk = chunkFrom(client.next, cache)
    client.next = last + 1
    client.write(chunk)
  }

  /** Writes each stream what it has not had, FAN_OUT_SLICE streams per turn (all at once when `whole`). */
  function fanOut(whole = false) {
    fanOutDue = false
    lastFanOut = timers.now()
    const pending = [...clients.keys()]
    // Streams at the same cursor (most of them) share one chunk.
    const cache = new Map<number, string>()
    const slice = (from: number) => {
      const to = whole ? pending.length : Math.min(pending.length, from + FAN_OUT_SLICE)
      for (let i = from; i < to; i++) send(pending[i] as StreamClient, cache)
      if (to < pending.length) timers.later(() => slice(to), 0)
    }
    slice(0)
  }

  const fanOutEvery = () =>
    Math.min(FAN_OUT_MAX_MS, Math.max(FAN_OUT_MS, clients.size * FAN_OUT_PER_STREAM_MS))

  /** Whether the reader is taking what waits for it; false once it has taken nothing for the drain time-out. */
  function keepsUp(client: StreamClient, now: number): boolean {
    const progress = client.progress?.() ?? { waiting: client.ready() ? 0 : 1, taken: 0 }
    if (progress.waiting === 0 || progress.taken !== client.takenBefore) {
      client.takenBefore = progress.taken
      client.stalledSince = progress.waiting === 0 ? undefined : now
      return true
    }
    client.stalledSince ??= now
    return now - client.stalledSince < limits.drainTimeoutMs
  }

  const history: EventHistory = {
    publish(event) {
      ring[++last % HISTORY] = { id: last, event }
      if (fanOutDue || clients.size === 0) return
      fanOutDue = true
      timers.later(fanOut, Math.max(0, lastFanOut + fanOutEvery() - timers.now()))
    },
    admit(address = '') {
      const mine = perClient.get(address) ?? 0
      if (admitted >= limits.maxStreams) {
        refused++
        throw fail('SANDBOX_EVENT_STREAMS_FULL')
      }
      if (mine >= limits.maxPerClient) {
        refused++
        throw fail('SANDBOX_EVENT_STREAMS_CLIENT_FULL')
      }
      admitted++
      perClient.set(address, mine + 1)
      let released = false
      const slot: StreamSlot = {
        address,
        release() {
          if (released) return
          released = true
          admitted--
          const left = (perClient.get(address) ?? 1) - 1
          if (left > 0) perClient.set(address, left)
          else perClient.delete(address)
        },
      }
      // A slot the adapter never attaches (the client left before its answer) is not held for ever.
      timers.later(() => {
        if (!attached.has(slot)) slot.release()
      }, ATTACH_GRACE_MS)
      return slot
    },
    attach(slot, client) {
      attached.add(slot)
      if (clients.size === 0) lastHeartbeat = timers.now()
      stopSweep ??= timers.every(() => history.sweep(), SWEEP_MS)
      let ended = false
      const end = () => {
        if (ended) return
        ended = true
        clients.delete(client)
        slot.release()
        if (clients.size > 0) return
        stopSweep?.()
        stopSweep = undefined
      }
      clients.set(client, end)
      return end
    },
    catchUp: (client) => send(client),
    flush: () => fanOut(true),
    since(id) {
      if (id >= last) return []
      if (id < last - HISTORY) return undefined
      const out: Numbered[] = []
      for (let n = id + 1; n <= last; n++) {
        const item = ring[n % HISTORY]
        if (item?.id !== n) return undefined
        out.push(item)
      }
      return out
    },
    lastId: () => last,
    sweep(now = timers.now()) {
      const beat = now - lastHeartbeat >= HEARTBEAT_MS
      if (beat) lastHeartbeat = now
      for (const client of [...clients.keys()]) {
        if (!client.open()) detach(client)
        else if (!keepsUp(client, now)) {
          letGo++
          detach(client)
          client.letGo()
        } else if (client.ready()) {
          send(client)
          // A comment line keeps proxies from closing a quiet stream; one that is behind needs none.
          if (beat && client.stalledSince === undefined) client.write(HEARTBEAT)
        }
      }
    },
    stats() {
      let stalled = 0
      for (const client of clients.keys()) if (client.stalledSince !== undefined) stalled++
      return {
        open: admitted,
        max: limits.maxStreams,
        max_per_client: limits.maxPerClient,
        drain_timeout_seconds: limits.drainTimeoutMs / 1000,
        stalled,
        let_go: letGo,
        refused,
      }
    },
    stop() {
      for (const client of [...clients.keys()]) detach(client)
      stopSweep?.()
      stopSweep = undefined
    },
  }
  return history
}

const histories = new WeakMap<EngineContext, EventHistory>()

/** docs/rules.md#connections: the config's `limits` for event streams, else the defaults. */
export function streamLimits(config: EngineContext['config']): StreamLimits {
  const limits = config.limits ?? {}
  return {
    maxStreams: limits.max_event_streams ?? DEFAULT_STREAM_LIMITS.maxStreams,
    maxPerClient: limits.max_event_streams_per_client ?? DEFAULT_STREAM_LIMITS.maxPerClient,
    drainTimeoutMs:
      limits.stream_drain_timeout !== undefined
        ? limits.stream_drain_timeout * 1000
        : DEFAULT_STREAM_LIMITS.drainTimeoutMs,
  }
}

/**
 * The engine's numbered events and the streams reading them: one per engine context, subscribed
 * once to the bus (by the callbacks module as it starts), so that a `Last-Event-ID` means the same
 * thing to every client.
 */
export function eventHistory(ctx: EngineContext): EventHistory {
  const known = histories.get(ctx)
  if (known) return known
  const history = createEventHistory(streamLimits(ctx.config))
  const unsubscribe = ctx.events.subscribe((event) => history.publish(event))
  const stop = history.stop
  history.stop = () => {
    unsubscribe()
    stop()
    histories.delete(ctx)
  }
  histories.set(ctx, history)
  return history
}
