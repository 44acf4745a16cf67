import { describe, expect, it } from 'vitest'
import {
  createEventHistory,
  DEFAULT_STREAM_LIMITS,
  FAN_OUT_MAX_MS,
  FAN_OUT_MS,
  FAN_OUT_PER_STREAM_MS,
  FAN_OUT_SLICE,
  HEARTBEAT_MS,
  HISTORY,
  type StreamClient,
  type StreamLimits,
  type StreamTimers,
  SWEEP_MS,
} from '../../src/core/engine/event-history.js'
import { GatewayError } from '../../src/core/engine/errors.js'
import type { EngineEvent } from '../../src/core/engine/events.js'

/**
 * docs/rules.md#connections, the event stream's upkeep in the engine (core/engine/event-history.ts),
 * driven with its own timers: nothing here waits for real time. Issue 32 items 3 and 4: a reader
 * that does not drain is let go within the drain time-out; publishing an event costs the request
 * O(1) whatever the number of streams (the streams are written off its path, once per fan-out).
 */

/** Timers under the test's control: `run()` runs what is due, `advance(ms)` moves time. */
function manualTimers() {
  let now = 1_000
  let later: { at: number; fn: () => void }[] = []
  const every = new Set<{ fn: () => void; ms: number; next: number }>()
  const timers: StreamTimers = {
    now: () => now,
    later: (fn, ms) => void later.push({ at: now + ms, fn }),
    every: (fn, ms) => {
      const entry = { fn, ms, next: now + ms }
      every.add(entry)
      return () => every.delete(entry)
    },
  }
  /** One turn: what is due now (what it schedules for now runs at the next turn). */
  const turn = () => {
    const due = later.filter((t) => t.at <= now)
    later = later.filter((t) => t.at > now)
    for (const t of due) t.fn()
    return due.length
  }
  const run = () => {
    while (turn() > 0);
  }
  return {
    timers,
    now: () => now,
    /** Callbacks waiting (fan-outs, grace periods). */
    pending: () => later.length,
    intervals: () => every.size,
    turn,
    run,
    advance(ms: number) {
      now += ms
      run()
    },
  }
}

const clock = (n: number): EngineEvent => ({ type: 'clock', now: n, at: n })

interface FakeClient extends StreamClient {
  written: string[]
  text(): string
  isReady: boolean
  waiting: number
  taken: number
  closed: boolean
  lettingGo: number
}

function fakeClient(next: number): FakeClient {
  const client: FakeClient = {
    next,
    written: [],
    text: () => client.written.join(''),
    isReady: true,
    waiting: 0,
    taken: 0,
    closed: false,
    lettingGo: 0,
    write(chunk) {
      if (client.closed) throw new Error('written after the end')
      client.written.push(chunk)
      return client.isReady
    },
    ready: () => client.isReady,
    open: () => !client.closed,
    progress: () => ({ waiting: client.waiting, taken: client.taken }),
    letGo() {
      client.lettingGo++
      client.closed = true
    },
  }
  return client
}

function setup(limits: Partial<StreamLimits> = {}) {
  const t = manualTimers()
  const history = createEventHistory({ ...DEFAULT_STREAM_LIMITS, ...limits }, t.timers)
  const open = (address = '127.0.0.1') => {
    const client = fakeClient(history.lastId() + 1)
    const end = history.attach(history.admit(address), client)
    return Object.assign(client, { end })
  }
  return { t, history, open }
}

const ids = (text: string) => [...text.matchAll(/^id: (\d+)\nevent: clock$/gm)].map((m) => Number(m[1]))

describe('publishing an event (issue 32 item 4: O(1) for the request)', () => {
  it('writes to no stream while the request publishes; one fan-out writes each stream once', () => {
    const { t, history, open } = setup({ maxStreams: 1000, maxPerClient: 1000 })
    const streams = Array.from({ length: 200 }, () => open())
    const before = t.pending()
    for (let n = 1; n <= 5; n++) history.publish(clock(n))
    // Nothing written on the publisher's path, and one fan-out scheduled however many events.
    expect(streams.every((s) => s.written.length === 0)).toBe(true)
    expect(t.pending() - before).toBe(1)
    // FAN_OUT_SLICE streams per turn of the event loop, so that requests are answered in between.
    t.turn()
    expect(streams.filter((s) => s.written.length === 1)).toHaveLength(FAN_OUT_SLICE)
    t.run()
    expect(streams.every((s) => s.written.length === 1)).toBe(true)
    expect(ids(streams[0]?.text() ?? '')).toEqual([1, 2, 3, 4, 5])
    // Streams at the same cursor get the same chunk, made once.
    expect(new Set(streams.map((s) => s.written[0])).size).toBe(1)
  })

  it('writes at most once per FAN_OUT_MS: the first event at once, the next ones together', () => {
    const { t, history, open } = setup()
    const s = open()
    history.publish(clock(1))
    t.run()
    history.publish(clock(2))
    history.publish(clock(3))
    t.run()
    expect(s.written).toHaveLength(1)
    t.advance(FAN_OUT_MS)
    expect(s.written).toHaveLength(2)
    expect(ids(s.written[1] ?? '')).toEqual([2, 3])
  })

  it('spaces fan-outs by one millisecond per open stream, within FAN_OUT_MS and FAN_OUT_MAX_MS', () => {
    const { t, history, open } = setup({ maxStreams: 1000, maxPerClient: 1000 })
    const streams = Array.from({ length: 200 }, () => open())
    history.publish(clock(1))
    t.run()
    history.publish(clock(2))
    t.advance(200 * FAN_OUT_PER_STREAM_MS - 1)
    expect(streams[0]?.written).toHaveLength(1)
    t.advance(1)
    expect(streams[0]?.written).toHaveLength(2)
    for (let i = 0; i < 700; i++) open()
    history.publish(clock(3))
    t.advance(FAN_OUT_MAX_MS)
    expect(streams[0]?.written).toHaveLength(3)
  })

  it('schedules nothing when no stream is open', () => {
    const { t, history } = setup()
    for (let n = 1; n <= 100; n++) history.publish(clock(n))
    expect(t.pending()).toBe(0)
    expect(history.lastId()).toBe(100)
  })
})

describe('a reader whose buffer is full (backpressure)', () => {
  it('is not written to; once it drains it gets what it missed from the history', () => {
    const { history, open } = setup()
    const s = open()
    history.publish(clock(1))
    history.flush()
    s.isReady = false
    for (let n = 2; n <= 100; n++) history.publish(clock(n))
    history.flush()
    expect(s.written).toHaveLength(1)
    s.isReady = true
    history.catchUp(s)
    expect(ids(s.text())).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
    expect(s.text()).not.toContain('event: gap')
  })

  it('gets one gap naming what is no longer kept, then the events that are', () => {
    const { history, open } = setup()
    const s = open()
    s.isReady = false
    const total = HISTORY + 500
    for (let n = 1; n <= total; n++) history.publish(clock(n))
    history.flush()
    expect(s.written).toEqual([])
    s.isReady = true
    history.catchUp(s)
    const text = s.text()
    expect(text).toMatch(
      /^id: 500\nevent: gap\ndata: \{"type":"gap","from":1,"to":500,"reason":"slow-client"\}\n\n/,
    )
    expect(ids(text)).toEqual(Array.from({ length: HISTORY }, (_, i) => i + 501))
  })
})

describe('a reader that does not drain (issue 32 item 3, docs/rules.md#connections)', () => {
  it('is let go once it has taken nothing of what waits for it for the drain time-out', () => {
    const { t, history, open } = setup({ drainTimeoutMs: 30_000 })
    const s = open()
    s.isReady = false
    s.waiting = 4096
    history.sweep()
    expect(history.stats().stalled).toBe(1)
    history.sweep(t.now() + 29_999)
    expect(s.lettingGo).toBe(0)
    history.sweep(t.now() + 30_000)
    expect(s.lettingGo).toBe(1)
    expect(history.stats()).toMatchObject({ open: 0, stalled: 0, let_go: 1 })
    // Let go: nothing more is written to it, and its place is free.
    history.publish(clock(1))
    history.flush()
    expect(s.written).toEqual([])
  })

  it('keeps a slow reader that takes something within each drain time-out', () => {
    const { t, history, open } = setup({ drainTimeoutMs: 30_000 })
    const s = open()
    s.isReady = false
    s.waiting = 4096
    history.sweep()
    for (let step = 1; step <= 10; step++) {
      s.taken += 100
      history.sweep(t.now() + step * 20_000)
    }
    expect(s.lettingGo).toBe(0)
    // It stops taking anything: let go a drain time-out after the last progress.
    history.sweep(t.now() + 10 * 20_000 + 29_999)
    expect(s.lettingGo).toBe(0)
    history.sweep(t.now() + 10 * 20_000 + 30_000)
    expect(s.lettingGo).toBe(1)
  })

  it('never lets go a reader with nothing waiting for it, however quiet', () => {
    const { t, history, open } = setup({ drainTimeoutMs: 1_000 })
    const s = open()
    history.sweep(t.now() + 3_600_000)
    expect(s.lettingGo).toBe(0)
    expect(history.stats().stalled).toBe(0)
  })

  it('sweeps every SWEEP_MS while a stream is open, and stops with the last one', () => {
    const { t, history, open } = setup({ drainTimeoutMs: 2_000 })
    expect(t.intervals()).toBe(0)
    const s = open()
    expect(t.intervals()).toBe(1)
    s.isReady = false
    s.waiting = 1
    history.sweep(t.now())
    history.sweep(t.now() + 2_000 + SWEEP_MS)
    expect(s.lettingGo).toBe(1)
    expect(t.intervals()).toBe(0)
  })
})

describe('heartbeat', () => {
  it('goes to a reader that keeps up every HEARTBEAT_MS, never to one that is behind', () => {
    const { t, history, open } = setup()
    const keeping = open()
    const behind = open()
    behind.isReady = false
    behind.waiting = 10
    history.sweep(t.now() + HEARTBEAT_MS - 1)
    expect(keeping.written).toEqual([])
    history.sweep(t.now() + HEARTBEAT_MS)
    expect(keeping.written).toEqual([': heartbeat\n\n'])
    expect(behind.written).toEqual([])
  })
})

describe('caps (docs/rules.md#connections)', () => {
  const refusal = (fn: () => unknown) => {
    try {
      fn()
    } catch (error) {
      return error instanceof GatewayError ? error.entry.id : String(error)
    }
    return undefined
  }

  it('refuses a stream beyond the total cap, then beyond the client cap, and counts the refusals', () => {
    const { history, open } = setup({ maxStreams: 3, maxPerClient: 2 })
    open('10.0.0.1')
    const second = open('10.0.0.1')
    expect(refusal(() => history.admit('10.0.0.1'))).toBe('SANDBOX_EVENT_STREAMS_CLIENT_FULL')
    open('10.0.0.2')
    expect(refusal(() => history.admit('10.0.0.3'))).toBe('SANDBOX_EVENT_STREAMS_FULL')
    expect(history.stats()).toMatchObject({ open: 3, max: 3, max_per_client: 2, refused: 2 })
    // A stream that ends gives its place back.
    second.end()
    second.end()
    expect(history.stats().open).toBe(2)
    expect(refusal(() => history.admit('10.0.0.1'))).toBeUndefined()
  })

  it('gives back the place of a stream its adapter never attached, after a grace period', () => {
    const { t, history } = setup({ maxStreams: 1 })
    history.admit('10.0.0.1')
    expect(history.stats().open).toBe(1)
    t.advance(10_000)
    expect(history.stats().open).toBe(0)
    // One attached in time keeps it.
    const slot = history.admit('10.0.0.1')
    history.attach(slot, fakeClient(1))
    t.advance(10_000)
    expect(history.stats().open).toBe(1)
  })
})

describe('the end of a stream', () => {
  it('writes nothing after the end, from a fan-out, a catch-up or a heartbeat', () => {
    const { t, history, open } = setup()
    const s = open()
    history.publish(clock(1))
    s.closed = true
    t.run()
    history.sweep(t.now() + HEARTBEAT_MS)
    expect(s.written).toEqual([])
    expect(history.stats().open).toBe(0)
  })

  it('stop() ends every stream and its timers', () => {
    const { t, history, open } = setup()
    open()
    open()
    history.stop()
    expect(history.stats().open).toBe(0)
    expect(t.intervals()).toBe(0)
  })
})
