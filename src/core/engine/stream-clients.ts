import type { SandboxHealthResponse } from '../../generated/types.js'
import type { EngineEvent } from './events.js'

/**
 * The event streams' terms (event-history.ts serves them): their limits, the timers they run on,
 * what a stream client is to the history, and the text of an event on the wire.
 */

/** Events kept for clients that reconnect with `Last-Event-ID`, and for readers that fall behind. */
export const HISTORY = 2048

/** Real-time comment lines keep proxies and clients from closing a quiet event stream. */
export const HEARTBEAT_MS = 15_000
export const HEARTBEAT = ': heartbeat\n\n'

/**
 * How often every stream is looked at: whether its reader is taking what was written (a reader
 * that has taken nothing for the drain time-out is let go), whether it has drained and can have
 * what it missed, and whether a heartbeat is due.
 */
export const SWEEP_MS = 1_000

/**
 * How often events reach the streams: a fan-out at most every FAN_OUT_MS, one more millisecond per
 * open stream (FAN_OUT_PER_STREAM_MS), FAN_OUT_MAX_MS at most; the first event after a quiet spell
 * at once. Publishing is O(1) for the request (an event is put in the ring); the writes, one per
 * stream for everything published since, are done off its path, and their cost is bounded by
 * time, not by the number of events: with 200 streams, 5 fan-outs a second of 200 writes each.
 */
export const FAN_OUT_MS = 20
export const FAN_OUT_PER_STREAM_MS = 1
export const FAN_OUT_MAX_MS = 500
/** Streams written per turn of the event loop: requests are answered between the slices of a fan-out. */
export const FAN_OUT_SLICE = 25

/** docs/rules.md#connections: the event stream's limits (config `limits`, serve flags). */
export interface StreamLimits {
  /** Streams open at most, every client together. */
  maxStreams: number
  /** Streams open at most from one address. */
  maxPerClient: number
  /** A stream whose reader has taken nothing of what waits for it for this long (ms) is let go. */
  drainTimeoutMs: number
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxStreams: 128,
  maxPerClient: 32,
  drainTimeoutMs: 30_000,
}

/** What the history needs of time: real timers by default; tests give their own. */
export interface StreamTimers {
  /** A monotonic time in ms (drain time-outs, heartbeats). */
  now(): number
  /** Runs `fn` after `ms` (0: at the end of this turn of the event loop, after the answers written in it). */
  later(fn: () => void, ms: number): void
  /** Runs `fn` every `ms` until the returned stop is called; it never keeps the process alive. */
  every(fn: () => void, ms: number): () => void
}

export const REAL_TIMERS: StreamTimers = {
  now: () => performance.now(),
  later: (fn, ms) => {
    if (ms <= 0)
      return void setImmediate(fn)
      // A pending fan-out or grace period never keeps the process alive by itself.
    ;(setTimeout(fn, ms) as { unref?: () => void }).unref?.()
  },
  every: (fn, ms) => {
    const timer = setInterval(fn, ms)
    ;(timer as { unref?: () => void }).unref?.()
    return () => clearInterval(timer)
  },
}

export interface Numbered {
  id: number
  event: EngineEvent
  /** Its server-sent event text, made once for every stream (formatEvent). */
  text?: string
}

/** What a connection has of a stream: bytes (or chunks) written and not yet taken, and how much it has taken so far. */
export interface StreamProgress {
  waiting: number
  taken: number
}

/** One open stream as the history sees it (event-stream.ts makes them). */
export interface StreamClient {
  /** The next event id it has to get. */
  next: number
  /** Writes a chunk; false once the client's buffer is full (nothing more until it drains). */
  write(chunk: string): boolean
  /** False while the client's buffer is full. */
  ready(): boolean
  /** False once the answer is closed (nothing more is written). */
  open(): boolean
  /** What waits for the reader and what it has taken (without it: waiting while not ready, never any progress). */
  progress?(): StreamProgress
  /** Ends the answer and lets the client go (its connection dropped): it did not drain in time. */
  letGo(): void
  /** Since when (StreamTimers.now) something has waited for it with nothing taken; undefined while it keeps up. */
  stalledSince?: number
  /** Its progress's `taken` when the sweep last looked. */
  takenBefore?: number
}

/** A place taken by a stream as it is answered, before the adapter attaches it; released once. */
export interface StreamSlot {
  readonly address: string
  release(): void
}

/** What health shows of the event streams (schemas/control/health-response). */
export type StreamStats = NonNullable<SandboxHealthResponse['event_streams']>

/** One server-sent event per engine event, with its id for `Last-Event-ID`. */
export const formatEvent = (event: EngineEvent, id?: number): string =>
  `${id === undefined ? '' : `id: ${id}\n`}event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`

/**
 * `gap`: events the client did not get (it read too slowly, or its resume cursor is older than
 * what is kept). The client should reload its lists; the stream goes on from `to + 1`.
 */
export const formatGap = (from: number, to: number, reason: 'slow-client' | 'cursor-too-old'): string =>
  `id: ${to}\nevent: gap\ndata: ${JSON.stringify({ type: 'gap', from, to, reason })}\n\n`
