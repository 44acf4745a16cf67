import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { eventHistory, HEARTBEAT_MS } from '../../src/core/callbacks/event-stream.js'
import type { EngineEvent } from '../../src/core/engine/events.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import { createSandbox, type Sandbox } from '../../src/library/create-sandbox.js'
import { until } from '../helpers/until.js'

/**
 * Issue 21, requirement 4: "A reader that stops reading is skipped ahead and then let go, and
 * nothing is written to a closed stream (heartbeat included). A test with a paused reader and
 * 20,000+ events shows the process alive and its heap flat." Issue 32 item 3: "A stream that does
 * not drain within a bounded time (configurable) is closed, its socket destroyed and its memory
 * freed" (docs/rules.md#connections). The drain check is driven directly (`history.sweep(now)`),
 * never by waiting for the time-out.
 */
const EVENTS = 25_000
/** Each event carries about 2 kB, so a paused reader's socket buffers fill after a few thousand. */
const PAD = 'x'.repeat(2_000)
const MB = 1024 * 1024

const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** A raw HTTP client of GET /sandbox/events that can stop reading (its socket paused). */
async function openStream(
  port: number,
): Promise<{ socket: Socket; text: () => string; gaps: () => string[]; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1')
  let text = ''
  const gaps: string[] = []
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1')
    // Keep only the tail (and every gap line seen): the test looks for the last lines, not for every event.
    if (text.length > 64 * 1024) {
      const cut = text.lastIndexOf('\n\n', text.length - 32 * 1024)
      for (const m of text.slice(0, cut).matchAll(/event: gap\ndata: .*\n/g)) gaps.push(m[0])
      text = text.slice(cut)
    }
  })
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  socket.on('error', () => {
    // A client let go sees its connection reset: that is the point.
  })
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  socket.write('GET /sandbox/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n')
  await until(() => text.includes(': paysandbox events'), "the stream's first line")
  expect(text).toContain('200 OK')
  return {
    socket,
    text: () => text,
    gaps: () => [...gaps, ...[...text.matchAll(/event: gap\ndata: .*\n/g)].map((m) => m[0])],
    closed,
  }
}

/**
 * Emits `count` events in bursts of `burst`, each burst written to the streams at once (the
 * fan-out, driven) and then the event loop let flush the sockets. `stop` ends it early.
 */
async function produce(sandbox: Sandbox, count: number, burst: number, stop: () => boolean = () => false) {
  const history = eventHistory(sandbox.gateway.ctx)
  for (let i = 0; i < count; i++) {
    sandbox.gateway.ctx.events.emit({ type: 'clock', now: i, at: i, pad: PAD } as EngineEvent)
    if (i % burst === burst - 1) {
      history.flush()
      await turn()
      if (stop()) return
    }
  }
}

describe('GET /sandbox/events with a reader that stops reading', () => {
  let sandbox: Sandbox | undefined
  afterEach(async () => {
    vi.useRealTimers()
    await sandbox?.close()
    sandbox = undefined
  })

  it(`lets a paused reader go once it has taken nothing for the drain time-out: alive, heap flat, its connection dropped`, async () => {
    // Only the interval is faked (the sweep's): it can be run at will after the stream has ended.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    sandbox = await createSandbox({ logger: silentLogger })
    const history = eventHistory(sandbox.gateway.ctx)
    const listening = await sandbox.listen()
    const errors: unknown[] = []
    const onError = (error: unknown) => errors.push(error)
    process.on('uncaughtException', onError)
    try {
      const client = await openStream(listening.port)
      expect(history.stats().open).toBe(1)
      expect(vi.getTimerCount()).toBe(1) // the streams' sweep (drain checks and heartbeat)
      client.socket.pause()
      ;(globalThis as { gc?: () => void }).gc?.()
      const heapBefore = process.memoryUsage().heapUsed
      // Events until the reader's buffers are full and something waits for it (the sweep sees it).
      const stalled = () => {
        history.sweep()
        return history.stats().stalled === 1
      }
      await produce(sandbox, EVENTS, 500, stalled)
      expect(history.stats().stalled).toBe(1)
      await produce(sandbox, EVENTS, 12_500)
      ;(globalThis as { gc?: () => void }).gc?.()
      const heapAfter = process.memoryUsage().heapUsed
      // Still held within the drain time-out; let go at it.
      const now = performance.now()
      history.sweep(now)
      expect(history.stats().open).toBe(1)
      history.sweep(now + 30_000)
      expect(history.stats()).toMatchObject({ open: 0, stalled: 0, let_go: 1 })
      expect(vi.getTimerCount()).toBe(0)
      // A sweep or a heartbeat due after the end writes nothing and throws nothing.
      vi.advanceTimersByTime(HEARTBEAT_MS * 4)
      // The connection was dropped: the client sees its end once it reads again.
      client.socket.resume()
      await client.closed
      // 50,000 events of 2 kB went by (100 MB): what the server kept for this client is bounded.
      expect(heapAfter - heapBefore).toBeLessThan(32 * MB)
      expect(errors).toEqual([])
      // The process still serves, and holds no connection but this one.
      const health = await fetch(`${listening.url}/sandbox/health`)
      expect(health.status).toBe(200)
      expect(await health.json()).toMatchObject({
        connections: { open: 1 },
        event_streams: { open: 0, let_go: 1 },
      })
    } finally {
      process.off('uncaughtException', onError)
    }
  })

  it('tells a reader that pauses and comes back what it missed: one gap event, then what is still kept', async () => {
    sandbox = await createSandbox({ logger: silentLogger })
    const history = eventHistory(sandbox.gateway.ctx)
    const count = () => history.stats().open
    const listening = await sandbox.listen()
    const client = await openStream(listening.port)
    client.socket.pause()
    // 16 MB: more than the kernel's buffers take, and more events than the history keeps.
    await produce(sandbox, 8_000, 250)
    expect(count()).toBe(1) // within the drain time-out: still served
    client.socket.resume()
    // Once it reads again it gets a gap naming what is no longer kept, then the rest and the next events.
    let tick = 0
    await until(
      () => /"now":999999/.test(client.text()),
      'the next events to reach the reader',
      () => {
        if (tick++ % 50 !== 0) return
        sandbox?.gateway.ctx.events.emit({ type: 'clock', now: 999_999, at: 999_999 })
        history.flush()
      },
    )
    expect(client.gaps()).toHaveLength(1)
    expect(client.gaps()[0]).toMatch(
      /^event: gap\ndata: \{"type":"gap","from":\d+,"to":\d+,"reason":"slow-client"\}\n$/,
    )
    expect(client.text()).toContain('"now":999999')
    client.socket.destroy()
    await client.closed
    await until(() => count() === 0, 'the server to let the closed stream go')
    expect(count()).toBe(0)
  })
})
