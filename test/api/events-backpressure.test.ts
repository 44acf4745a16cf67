import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DROP_AFTER, eventHistory, HEARTBEAT_MS } from '../../src/core/callbacks/event-stream.js'
import type { EngineEvent } from '../../src/core/engine/events.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import { createSandbox, type Sandbox } from '../../src/library/create-sandbox.js'

/**
 * Issue 21, requirement 4: "A reader that stops reading is skipped ahead and then let go, and
 * nothing is written to a closed stream (heartbeat included). A test with a paused reader and
 * 20,000+ events shows the process alive and its heap flat." (core/callbacks/event-stream.ts:
 * events are skipped while the client does not read, a `gap` names them once it reads again, and
 * after DROP_AFTER skipped in a row the client is let go.)
 */
const EVENTS = 25_000
/** Each event carries about 2 kB, so a paused reader's socket buffers fill after a few thousand. */
const PAD = 'x'.repeat(2_000)
const MB = 1024 * 1024

const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** A raw HTTP client of GET /sandbox/events that can stop reading (its socket paused). */
async function openStream(
  port: number,
): Promise<{ socket: Socket; text: () => string; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1')
  let text = ''
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1')
    // Keep only the tail: the test looks for the last lines, not for every event.
    if (text.length > 64 * 1024) text = text.slice(-32 * 1024)
  })
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  socket.on('error', () => {
    // A client let go may see its connection reset: that is the point.
  })
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  socket.write('GET /sandbox/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n')
  for (let i = 0; i < 2_000 && !text.includes(': paysandbox events'); i++) await turn()
  expect(text).toContain('200 OK')
  return { socket, text: () => text, closed }
}

/**
 * Emits `count` events in bursts of `burst`, letting the event loop flush sockets between bursts.
 * (Between bursts the kernel takes what the server wrote, tens of megabytes on loopback, so a
 * reader counts as stopped once a burst of DROP_AFTER events finds its socket full.)
 */
async function produce(sandbox: Sandbox, count: number, burst: number) {
  for (let i = 0; i < count; i++) {
    sandbox.gateway.ctx.events.emit({ type: 'clock', now: i, at: i, pad: PAD } as EngineEvent)
    if (i % burst === burst - 1) await turn()
  }
}

/** How many stream clients the engine is writing to. */
function subscribers(sandbox: Sandbox): () => number {
  const history = eventHistory(sandbox.gateway.ctx)
  let count = 0
  const subscribe = history.subscribe.bind(history)
  history.subscribe = (fan) => {
    count++
    const off = subscribe(fan)
    return () => {
      count--
      return off()
    }
  }
  return () => count
}

describe('GET /sandbox/events with a reader that stops reading', () => {
  let sandbox: Sandbox | undefined
  afterEach(async () => {
    vi.useRealTimers()
    await sandbox?.close()
    sandbox = undefined
  })

  it(`lets a paused reader go after ${DROP_AFTER} skipped events of ${EVENTS}: alive, heap flat, no write after the end`, async () => {
    // Only the heartbeat's interval is faked: it can be run at will after the stream has ended.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    sandbox = await createSandbox({ logger: silentLogger })
    const count = subscribers(sandbox)
    const listening = await sandbox.listen()
    const errors: unknown[] = []
    const onError = (error: unknown) => errors.push(error)
    process.on('uncaughtException', onError)
    try {
      const client = await openStream(listening.port)
      expect(count()).toBe(1)
      expect(vi.getTimerCount()).toBe(1) // the stream's heartbeat
      client.socket.pause()
      ;(globalThis as { gc?: () => void }).gc?.()
      const heapBefore = process.memoryUsage().heapUsed
      await produce(sandbox, EVENTS, 12_500)
      ;(globalThis as { gc?: () => void }).gc?.()
      const heapAfter = process.memoryUsage().heapUsed
      // Let go: the engine no longer writes to it, and its heartbeat is gone with it.
      expect(count()).toBe(0)
      expect(vi.getTimerCount()).toBe(0)
      // A heartbeat due after the end writes nothing and throws nothing (ERR_STREAM_WRITE_AFTER_END before).
      vi.advanceTimersByTime(HEARTBEAT_MS * 4)
      // The connection was closed: the client sees its end once it reads again.
      client.socket.resume()
      await client.closed
      // 25,000 events of 2 kB went by (50 MB): what the server kept for this client is bounded.
      expect(heapAfter - heapBefore).toBeLessThan(32 * MB)
      expect(errors).toEqual([])
      // The process still serves.
      const health = await fetch(`${listening.url}/sandbox/health`)
      expect(health.status).toBe(200)
    } finally {
      process.off('uncaughtException', onError)
    }
  }, 60_000)

  it('skips ahead for a reader that pauses and comes back: one gap event names what it missed', async () => {
    sandbox = await createSandbox({ logger: silentLogger })
    const count = subscribers(sandbox)
    const listening = await sandbox.listen()
    const client = await openStream(listening.port)
    client.socket.pause()
    await produce(sandbox, 4_000, 250)
    expect(count()).toBe(1) // fewer than DROP_AFTER skipped: still served
    client.socket.resume()
    // Once it reads again, the next event comes after a gap naming the skipped ones.
    for (let i = 0; i < 5_000 && !/event: gap[\s\S]*"now":999999/.test(client.text()); i++) {
      if (i % 50 === 0) sandbox.gateway.ctx.events.emit({ type: 'clock', now: 999_999, at: 999_999 })
      await turn()
    }
    const text = client.text()
    expect(text).toMatch(/event: gap\ndata: \{"type":"gap","from":\d+,"to":\d+,"reason":"slow-client"\}/)
    expect(text).toContain('"now":999999')
    client.socket.destroy()
    await client.closed
    for (let i = 0; i < 1_000 && count() > 0; i++) await turn()
    expect(count()).toBe(0)
  })
})
