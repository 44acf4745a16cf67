import type { EngineContext } from '../engine/context.js'
import { eventHistory, formatGap, type StreamClient, type StreamProgress } from '../engine/event-history.js'
import type { GatewayResponse, StreamSink } from '../engine/http.js'

export {
  eventHistory,
  formatEvent,
  formatGap,
  HEARTBEAT_MS,
  HISTORY,
  streamLimits,
} from '../engine/event-history.js'

/**
 * `GET /sandbox/events`: a long-lived answer the adapter keeps open. Admission
 * (docs/rules.md#connections): a stream beyond the total or the client's cap is refused (503
 * SANDBOX_EVENT_STREAMS_FULL, 429 SANDBOX_EVENT_STREAMS_CLIENT_FULL) before anything is written.
 * Backpressure: while the adapter says the client has not taken what was written
 * (`sink.ready()`), nothing more is written nor kept for it; once it drains (`sink.onDrain`) it
 * gets what it missed from the history, or one `gap` naming what is no longer kept. A stream that
 * does not drain within the drain time-out is let go (`sink.close()`: the adapter drops the
 * connection). Resume: `Last-Event-ID` (or `?last_event_id=`) replays what the history still has,
 * else a `gap`. A heartbeat comment every HEARTBEAT_MS keeps proxies from closing a quiet stream.
 * Nothing is written once the answer is closed (the sink's `open()` false, the engine let the
 * client go, or the adapter's unsubscribe).
 */
export function eventStream(
  ctx: EngineContext,
  lastEventId: string | undefined,
  address: string | undefined,
): GatewayResponse {
  const history = eventHistory(ctx)
  const slot = history.admit(address)
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
      cancel: () => slot.release(),
      subscribe(write, sink?: StreamSink) {
        let closed = false
        // Without a sink, a write() that answers false means the client's buffer is full: nothing
        // more is written until the next sweep tries again (a write that goes through is progress).
        let congested = false
        let written = 0
        const sinkless = (): StreamProgress => {
          const progress = { waiting: congested ? 1 : 0, taken: written }
          congested = false
          return progress
        }
        const client: StreamClient = {
          next: history.lastId() + 1,
          open: () => !closed && (sink?.open ? sink.open() : true),
          ready: () => (sink ? sink.ready() : !congested),
          write: (chunk) => {
            if (!client.open()) return false
            const taken = write(chunk) !== false
            if (taken) written++
            else if (!sink) congested = true
            return taken
          },
          letGo: () => {
            closed = true
            sink?.close?.()
          },
        }
        if (sink?.progress) client.progress = sink.progress.bind(sink)
        else if (!sink) client.progress = sinkless
        if (cursor !== undefined) {
          // What the history still has after the cursor is written from it; older is a gap.
          if (history.since(cursor)) client.next = Math.min(cursor, history.lastId()) + 1
          else client.write(formatGap(cursor + 1, history.lastId(), 'cursor-too-old'))
        }
        const end = history.attach(slot, client)
        sink?.onDrain?.(() => {
          if (!closed) history.catchUp(client)
        })
        history.catchUp(client)
        return () => {
          closed = true
          end()
        }
      },
    },
  }
}
