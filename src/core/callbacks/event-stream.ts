import type { EngineContext } from '../engine/context.js'
import type { EngineEvent } from '../engine/events.js'
import type { GatewayResponse, StreamSink } from '../engine/http.js'

/** Events kept for clients that reconnect with `Last-Event-ID` (about 200 bytes each). */
export const HISTORY = 2048

interface Numbered {
  id: number
  event: EngineEvent
}

type Fan = (item: Numbered) => void

/**
 * The engine's events, numbered, with the last `HISTORY` kept: a client that reconnects names the
 * last id it saw and gets what it missed. One per engine context, subscribed once to the bus; each
 * stream client subscribes here, so a client costs one closure, never a queue.
 */
export interface EventHistory {
  subscribe(fan: Fan): () => void
  /** Events after `id`, or undefined when some of them are no longer kept. */
  since(id: number): Numbered[] | undefined
  lastId(): number
  stop(): void
}

const histories = new WeakMap<EngineContext, EventHistory>()

export function eventHistory(ctx: EngineContext): EventHistory {
  let history = histories.get(ctx)
  if (history) return history
  const ring: (Numbered | undefined)[] = new Array(HISTORY)
  let last = 0
  const fans = new Set<Fan>()
  const unsubscribe = ctx.events.subscribe((event) => {
    const item = { id: ++last, event }
    ring[last % HISTORY] = item
    for (const fan of fans) fan(item)
  })
  history = {
    subscribe(fan) {
      fans.add(fan)
      return () => fans.delete(fan)
    },
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
    stop() {
      unsubscribe()
      fans.clear()
      histories.delete(ctx)
    },
  }
  histories.set(ctx, history)
  return history
}

/** One server-sent event per engine event, with its id for `Last-Event-ID`. */
export const formatEvent = (event: EngineEvent, id?: number): string =>
  `${id === undefined ? '' : `id: ${id}\n`}event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`

/**
 * `gap`: events the client did not get (it read too slowly, or its resume cursor is older than
 * what is kept). The client should reload its lists; the stream goes on from `to + 1`.
 */
export const formatGap = (from: number, to: number, reason: 'slow-client' | 'cursor-too-old'): string =>
  `id: ${to}\nevent: gap\ndata: ${JSON.stringify({ type: 'gap', from, to, reason })}\n\n`

/** A client that could not take this many events in a row is let go (it reconnects with its cursor). */
export const DROP_AFTER = 10_000

/** Real-time comment lines keep proxies and clients from closing a quiet event stream. */
export const HEARTBEAT_MS = 15_000
const HEARTBEAT = ': heartbeat\n\n'

/**
 * `GET /sandbox/events`: a long-lived answer the adapter keeps open. Backpressure: the adapter
 * says whether the client is keeping up (`sink.ready()`, or `write` returning false); while it
 * is not, events are skipped, never queued, and the client gets one `gap` event naming what it
 * missed once it reads again (skip ahead). After DROP_AFTER skipped events in a row the stream is
 * closed and the client let go. Resume: `Last-Event-ID` (or `?last_event_id=`) replays what the
 * history still has, else a `gap`. A heartbeat comment every HEARTBEAT_MS (real time) keeps
 * proxies from closing a quiet stream. Nothing is ever written once the answer is closed (the
 * sink's `open()` false, the engine's own close, or the adapter's unsubscribe): the heartbeat
 * timer and the subscription end together, whichever side ends first.
 */
export function eventStream(ctx: EngineContext, lastEventId: string | undefined): GatewayResponse {
  const history = eventHistory(ctx)
  const cursor = lastEventId !== undefined && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : undefined
  return {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    },
    body: ': paysandbox events\n\n',
    stream: {
      subscribe(write, sink?: StreamSink) {
        let congested = false
        let skippedFrom = 0
        let skippedTo = 0
        let ended = false
        let unsubscribe: (() => void) | undefined
        let heartbeat: ReturnType<typeof setInterval> | undefined
        const open = () => !ended && (sink?.open ? sink.open() : true)
        const ready = () => (sink ? sink.ready() : !congested)
        /** Every write goes through here: none once the answer is closed. */
        const put = (chunk: string) => {
          if (!open()) {
            end()
            return
          }
          if (write(chunk) === false) congested = true
        }
        const send = (item: Numbered) => {
          if (!open()) return end()
          if (!ready()) {
            if (!skippedFrom) skippedFrom = item.id
            skippedTo = item.id
            if (skippedTo - skippedFrom + 1 >= DROP_AFTER && sink?.close) {
              end()
              sink.close()
            }
            // Without a sink, try again every 256 skipped events (a gap line is all it costs).
            if (!sink && (skippedTo - skippedFrom + 1) % 256 === 0) congested = false
            return
          }
          let chunk = formatEvent(item.event, item.id)
          if (skippedFrom) {
            chunk = formatGap(skippedFrom, skippedTo, 'slow-client') + chunk
            skippedFrom = 0
          }
          put(chunk)
        }
        if (cursor !== undefined) {
          const missed = history.since(cursor)
          if (missed) for (const item of missed) send(item)
          else put(formatGap(cursor + 1, history.lastId(), 'cursor-too-old'))
        }
        if (ended) return end
        unsubscribe = history.subscribe(send)
        heartbeat = setInterval(() => put(HEARTBEAT), HEARTBEAT_MS)
        // A heartbeat alone never keeps the process alive.
        ;(heartbeat as { unref?: () => void }).unref?.()
        function end() {
          if (ended && !unsubscribe) return
          ended = true
          if (heartbeat !== undefined) clearInterval(heartbeat)
          unsubscribe?.()
          unsubscribe = undefined
        }
        return end
      },
    },
  }
}
