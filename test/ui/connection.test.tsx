import { cleanup, render } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { createFetchHandler } from '../../src/adapters/fetch/fetch-handler.js'
import { Banner } from '../../src/ui/Banner.js'
import { createControlClient } from '../../src/ui/client.js'
import type { EngineEvent } from '../../src/ui/client-types.js'
import { type ConnectionState, followSandbox } from '../../src/ui/connection.js'
import { parseBlock, readEvents } from '../../src/ui/sse.js'
import { BASE, cardPayment, supportGateway } from './harness.js'
import { renderApp } from './render-app.js'

afterEach(() => cleanup())

describe('event stream reading', () => {
  it('reads events split across chunks, skipping heartbeats and data that is not JSON', async () => {
    const chunks = [
      ': paysandbox events\n\nevent: clock\ndata: {"type":"clo',
      'ck","now":1,"at":1}\r\n\r\n: heartbeat\n\nevent: x\ndata: not json\n\n',
      'event: reset\ndata: {"type":"reset","at":2}\n\n',
    ]
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk))
        c.close()
      },
    })
    const seen: EngineEvent[] = []
    for await (const event of readEvents(body)) seen.push(event)
    expect(seen).toEqual([
      { type: 'clock', now: 1, at: 1 },
      { type: 'reset', at: 2 },
    ])
    expect(parseBlock('event: x\ndata: [1]')).toBeUndefined()
  })
})

/**
 * A client over an in-process gateway whose "network" can be cut: while down, every request is
 * refused as a stopped server refuses it, and open event streams end.
 */
function cuttableClient(t: ReturnType<typeof supportGateway>) {
  const handler = createFetchHandler(t.gateway, { base: BASE })
  let cut = new AbortController()
  let down = false
  const client = createControlClient({
    baseUrl: BASE,
    fetch: (input, init) => {
      if (down) return Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }))
      const signals = [cut.signal, ...(init?.signal ? [init.signal] : [])]
      return handler(new Request(input, { ...init, signal: AbortSignal.any(signals) }))
    },
  })
  return {
    client,
    goDown: () => {
      down = true
      cut.abort()
    },
    comeBack: () => {
      cut = new AbortController()
      down = false
    },
  }
}

describe('following the sandbox', () => {
  it('says when the sandbox goes away, retries, and says when it is back', async () => {
    const t = supportGateway()
    const link = cuttableClient(t)
    const states: ConnectionState[] = []
    const events: EngineEvent[] = []
    const stop = followSandbox(link.client, {
      onEvent: (e) => events.push(e),
      onState: (s) => states.push(s),
      delaysMs: [5, 10],
    })
    const until = (test: () => boolean) => expect.poll(test, { interval: 10 }).toBe(true)
    await until(() => states.at(-1)?.kind === 'connected')
    await t.call('POST', '/sandbox/clock/advance', { seconds: 1 })
    await until(() => events.some((e) => e.type === 'clock'))
    link.goDown()
    await until(() => states.filter((s) => s.kind === 'reconnecting').length >= 3)
    const lost = states.filter((s) => s.kind === 'reconnecting')
    expect(lost.map((s) => s.kind === 'reconnecting' && [s.attempt, s.retryInMs])).toEqual(
      lost.map((_, i) => [i + 1, i === 0 ? 5 : 10]),
    )
    expect(lost.at(-1)).toMatchObject({ error: 'http://sandbox.test is not answering (ECONNREFUSED)' })
    link.comeBack()
    await until(() => states.at(-1)?.kind === 'connected')
    expect(states[0]).toEqual({ kind: 'connecting' })
    expect(states.at(-1)).toMatchObject({ kind: 'connected', reconnected: true })
    stop()
  })
})

describe('disconnected banner', () => {
  it('is empty while connected and says what happened while reconnecting', () => {
    const since = Date.UTC(2026, 0, 1)
    const none = render(<Banner connection={{ kind: 'connected', since, reconnected: false }} width={80} />)
    expect(none.lastFrame()).toBe('')
    const state: ConnectionState = {
      kind: 'reconnecting',
      attempt: 3,
      retryInMs: 2000,
      error: 'http://localhost:8080 is not answering (ECONNREFUSED)',
      since,
    }
    const shown = render(<Banner connection={state} width={80} now={since + 75_000} />)
    expect(shown.lastFrame()?.trimEnd()).toBe(
      '!! DISCONNECTED 1m 15s (ECONNREFUSED): reconnecting, attempt 3; last data shown',
    )
  })

  it('appears in the console when the sandbox goes away, keeps the last data, and clears when it is back', async () => {
    const t = supportGateway()
    await cardPayment(t, { order: 'order-kept' })
    const link = cuttableClient(t)
    const ui = renderApp(link.client, { reconnectDelaysMs: [20, 50] })
    await ui.waitForText('[live]')
    await ui.waitForText('order-kept')
    link.goDown()
    // The open stream ends first; the attempts after it are refused.
    const frame = await ui.waitForText('(ECONNREFUSED): reconnecting, attempt')
    expect(frame).toContain('!! DISCONNECTED ')
    expect(frame).toContain('[OFFLINE]')
    expect(frame).toContain('order-kept')
    link.comeBack()
    const back = await ui.waitForText('Reconnected to http://sandbox.test.')
    expect(back).not.toContain('DISCONNECTED')
    expect(back).toContain('[live]')
  })
})
