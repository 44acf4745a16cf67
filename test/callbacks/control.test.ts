import { describe, expect, it } from 'vitest'
import { callbacksModule, callbacksOf, eventHistory } from '../../src/core/callbacks/index.js'
import { HISTORY } from '../../src/core/engine/event-history.js'
import { controlModule } from '../../src/core/control/index.js'
import type { Payment, Transaction } from '../../src/core/engine/model.js'
import type { EngineModule } from '../../src/core/engine/modules.js'
import { createTestGateway, demoConfig, type TestGateway } from '../helpers/engine.js'
import { payment, transaction } from './harness.js'

function commit(t: TestGateway, p: Payment, tx: Transaction) {
  t.store.put('payments', p)
  t.store.put('transactions', tx)
  t.gateway.ctx.events.emit({
    type: 'transaction',
    payment_id: p.id,
    transaction_id: tx.id,
    kind: tx.type,
    status: tx.status,
    at: t.clock.now(),
  })
}

const twoMerchants = () => {
  const config = demoConfig()
  const demo = config.merchants[0] as (typeof config.merchants)[0]
  config.merchants.push({ ...demo, key: 'shop-two', notification_url: 'http://two.test/cb' })
  return config
}

async function seeded(modules: EngineModule[] = [callbacksModule]) {
  const t = createTestGateway(modules, twoMerchants())
  const a = payment({ order_id: 'ORD-A', order: { ...payment().order, number: 'ORD-A' } })
  const b = payment({ order_id: 'ORD-B', order: { ...payment().order, number: 'ORD-B' } })
  const c = payment({
    merchant_key: 'shop-two',
    order_id: 'ORD-C',
    order: { ...payment().order, number: 'ORD-C' },
  })
  commit(t, a, transaction(a, 'sale'))
  commit(t, { ...a, status: 'refund' }, transaction(a, 'refund', 'success', { amount: '1.00' }))
  commit(t, b, transaction(b, 'sale'))
  commit(t, c, transaction(c, 'sale'))
  await callbacksOf(t.gateway.ctx).idle()
  return { t, a, b, c }
}

describe('control API: callbacks', () => {
  // docs/rules.md#control-api: "`GET /sandbox/callbacks` (every delivery and its attempts)"
  it('lists every delivery with its attempts, newest first, filtered by merchant, payment or order', async () => {
    const { t, a, c } = await seeded()
    const all = await t.call('GET', '/sandbox/callbacks')
    expect(all.status).toBe(200)
    expect(all.body).toMatchObject({ total: 4, page: 1, per_page: 100 })
    const list = all.body.deliveries as unknown as Record<string, unknown>[]
    expect(list.map((d) => d.order_id)).toEqual(['ORD-C', 'ORD-B', 'ORD-A', 'ORD-A'])
    expect(list[0]).toMatchObject({ state: 'acknowledged', attempts: [{ status: 200, acknowledged: true }] })

    const byMerchant = await t.call('GET', '/sandbox/callbacks?merchant=shop-two')
    expect(byMerchant.body).toMatchObject({ total: 1, deliveries: [{ payment_id: c.id }] })
    const byPayment = await t.call('GET', `/sandbox/callbacks?payment_id=${a.id}`)
    expect((byPayment.body.deliveries as unknown as { kind: string }[]).map((d) => d.kind)).toEqual([
      'refund',
      'sale',
    ])
    const byOrder = await t.call('GET', '/sandbox/callbacks?order_id=ORD-A&merchant=shop-two')
    expect(byOrder.body).toMatchObject({ total: 0 })
    const paged = await t.call('GET', '/sandbox/callbacks?per_page=3&page=2')
    expect(paged.body).toMatchObject({ total: 4, deliveries: [{ order_id: 'ORD-A' }] })
  })

  // Issue 14 point 3 ("answering in under 10 ms at 100,000 payments"): the page goes out as the JSON texts the store
  // keeps (src/core/engine/control-listing.ts listingResponse), which must be the very bytes the parsed records serialise to.
  it('answers a listing with the same bytes as the records serialised, for callbacks and payments, on every store', async () => {
    const { t } = await seeded([callbacksModule, controlModule])
    for (const path of ['/sandbox/callbacks', '/sandbox/payments']) {
      for (const query of ['', '?per_page=2&page=2', '?search=ord-a', '?merchant=nobody']) {
        const fast = await t.gateway.handle({
          method: 'GET',
          path,
          query: Object.fromEntries(new URLSearchParams(query)),
          headers: {},
          body: new Uint8Array(),
        })
        expect(fast.status).toBe(200)
        expect(fast.headers['content-type']).toBe('application/json; charset=utf-8')
        const parsed = JSON.parse(fast.body) as Record<string, unknown>
        expect(fast.body, `${path}${query}`).toBe(JSON.stringify(parsed))
        const name = path === '/sandbox/callbacks' ? 'deliveries' : 'payments'
        const records = parsed[name] as { id: string }[]
        expect(Object.keys(parsed)).toEqual([name, 'page', 'per_page', 'total'])
        for (const r of records)
          expect(r).toEqual(
            name === 'deliveries' ? t.store.get('deliveries', r.id) : t.store.get('payments', r.id),
          )
      }
    }
    // A store without getText answers the same through the parsed records.
    const getText = (t.store as { getText?: unknown }).getText
    expect(getText).toBeTypeOf('function')
    const withText = (await t.call('GET', '/sandbox/callbacks?per_page=2')).raw
    Object.defineProperty(t.store, 'getText', { value: undefined, configurable: true })
    try {
      expect((await t.call('GET', '/sandbox/callbacks?per_page=2')).raw).toBe(withText)
    } finally {
      Object.defineProperty(t.store, 'getText', { value: getText, configurable: true })
    }
  })

  it('refuses a bad query with a structured 400 and changes nothing', async () => {
    const { t } = await seeded()
    const bad = await t.call('GET', '/sandbox/callbacks?per_page=0&colour=red')
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ error_message: 'Request data is invalid.' })
    expect((bad.body.errors as unknown as { error_message: string }[]).map((e) => e.error_message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^per_page: /), expect.stringMatching(/^colour: /)]),
    )
  })

  it('shows one delivery with the exact request it was POSTed as', async () => {
    const { t, b } = await seeded()
    const id = (t.store.findBy('deliveries', 'payment_id', b.id)[0] as { id: string }).id
    const one = await t.call('GET', `/sandbox/callbacks/${id}`)
    expect(one.body).toMatchObject({
      id,
      request: { method: 'POST', url: 'http://localhost:3000/payment/callback' },
    })
    expect(String((one.body.request as unknown as { body: string }).body)).toBe(
      t.sent.find((r) => r.body.includes(b.id))?.body,
    )
    const missing = await t.call('GET', '/sandbox/callbacks/nope')
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({
      http_code: 404,
      error_code: 100000,
      error_message: 'Callback delivery not found.',
    })
  })

  // docs/rules.md#callback-log: "Every attempt is logged and can be replayed."
  it('replays a delivery and answers the new delivery’s id', async () => {
    const { t, b } = await seeded()
    const id = (t.store.findBy('deliveries', 'payment_id', b.id)[0] as { id: string }).id
    const replay = await t.call('POST', `/sandbox/callbacks/${id}/replay`)
    expect(replay.status).toBe(202)
    expect(replay.body).toMatchObject({ replay_of: id, id: expect.any(String) })
    await callbacksOf(t.gateway.ctx).idle()
    const again = await t.call('GET', `/sandbox/callbacks/${replay.body.id}`)
    expect(again.body).toMatchObject({ replay_of: id, state: 'acknowledged' })
    expect(t.sent.filter((r) => r.body.includes(b.id))).toHaveLength(2)
    const missing = await t.call('POST', '/sandbox/callbacks/nope/replay')
    expect(missing.status).toBe(404)
  })
})

describe('control API: event stream', () => {
  const open = (t: TestGateway, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
    t.gateway.handle({
      method: 'GET',
      path: '/sandbox/events',
      query: {},
      headers,
      body: new Uint8Array(),
      remoteAddress,
    })
  const emitPayment = (t: TestGateway, id: string) =>
    t.gateway.ctx.events.emit({
      type: 'payment',
      payment_id: id,
      merchant_key: 'demo-merchant',
      status: 'settled',
      at: 1,
    })
  /** The fan-out now, instead of at its time (it writes to the streams off the request's path). */
  const flush = (t: TestGateway) => eventHistory(t.gateway.ctx).flush()
  const ids = (chunks: string[]) =>
    chunks.flatMap((c) => [...c.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])))
  const events = (chunks: string[]) =>
    chunks
      .join('')
      .split('\n\n')
      .filter((e) => e.startsWith('id: '))

  it('streams payments, transactions and deliveries as numbered server-sent events', async () => {
    const t = createTestGateway([callbacksModule])
    const response = await open(t)
    expect(response.status).toBe(200)
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    const chunks: string[] = []
    const unsubscribe = response.stream?.subscribe((chunk) => {
      chunks.push(chunk)
    })
    const p = payment()
    emitPayment(t, p.id)
    commit(t, p, transaction(p, 'sale'))
    await callbacksOf(t.gateway.ctx).idle()
    flush(t)
    unsubscribe?.()
    commit(t, p, transaction(p, 'refund'))
    flush(t)
    const each = events(chunks)
    expect(each.map((e) => /\nevent: (\w+)\n/.exec(e)?.[1])).toEqual([
      'payment',
      'transaction',
      'delivery',
      'delivery',
      'delivery',
    ])
    expect(each.every((e) => /^id: \d+\nevent: \w+\ndata: \{.*\}$/.test(e))).toBe(true)
    expect(ids(chunks)).toEqual([1, 2, 3, 4, 5])
    const last = JSON.parse((each[4] as string).split('data: ')[1] as string)
    expect(last).toMatchObject({ type: 'delivery', payment_id: p.id, state: 'acknowledged' })
  })

  // Issue 32 item 4: "Publishing an event costs the request O(1)": the request that emits writes to no stream.
  it('writes nothing to a stream while the event is published; the fan-out writes it after', async () => {
    const t = createTestGateway([callbacksModule])
    const chunks: string[] = []
    ;(await open(t)).stream?.subscribe((chunk) => void chunks.push(chunk))
    emitPayment(t, 'p-1')
    emitPayment(t, 'p-2')
    expect(chunks).toEqual([])
    await new Promise<void>((resolve) => setImmediate(resolve))
    expect(chunks).toHaveLength(1)
    expect(ids(chunks)).toEqual([1, 2])
  })

  // Issue 14: "the event stream with backpressure (a slow client is dropped or skipped ahead, never buffered without
  // bound) and a resume cursor"; issue 32: once it reads again it gets what the history still keeps.
  it('writes nothing to a client that stops reading, then what it missed, with one gap for what is gone', async () => {
    const t = createTestGateway([callbacksModule])
    const response = await open(t)
    const chunks: string[] = []
    let reading = true
    response.stream?.subscribe(
      (chunk) => {
        if (reading) chunks.push(chunk)
        else throw new Error('written while the client was not reading')
      },
      { ready: () => reading },
    )
    emitPayment(t, 'p-1')
    flush(t)
    reading = false
    for (let i = 0; i < 5000; i++) emitPayment(t, `p-stalled-${i}`)
    flush(t)
    reading = true
    emitPayment(t, 'p-back')
    flush(t)
    expect(chunks).toHaveLength(2)
    // 5,002 events, the last 2,048 still kept: a gap for 2 to 2954, then 2955 to 5002.
    expect(chunks[1]).toMatch(
      /^id: 2954\nevent: gap\ndata: \{"type":"gap","from":2,"to":2954,"reason":"slow-client"\}\n\n/,
    )
    expect(ids(chunks.slice(1))).toEqual([2954, ...Array.from({ length: HISTORY }, (_, i) => 2955 + i)])
    expect(chunks[1]).toContain('"payment_id":"p-back"')
  })

  // Issue 32 item 3: "A stream that does not drain within a bounded time (configurable) is closed".
  it('lets go of a client that takes nothing of what waits for it for the drain time-out', async () => {
    const config = demoConfig()
    config.limits = { ...config.limits, stream_drain_timeout: 20 }
    const t = createTestGateway([callbacksModule], config)
    const response = await open(t)
    let closed = 0
    let taken = 0
    const written: string[] = []
    response.stream?.subscribe((chunk) => void written.push(chunk), {
      ready: () => false,
      progress: () => ({ waiting: 2048, taken }),
      close: () => closed++,
    })
    for (let i = 0; i < 100; i++) emitPayment(t, `p-${i}`)
    flush(t)
    expect(written).toEqual([])
    const history = eventHistory(t.gateway.ctx)
    // The client takes a last chunk at `now`: it is stalled from then on, whatever a sweep on the
    // gateway's own timer saw before (the test's sweeps are the only ones from here: no await).
    taken = 1
    // A whole millisecond: with a fractional one, (now + 20_000) - now can come out at
    // 19,999.999999999996 (floating point), under the time-out (about one run in forty).
    const now = Math.ceil(performance.now())
    history.sweep(now)
    history.sweep(now + 19_999)
    expect(closed).toBe(0)
    history.sweep(now + 20_000)
    expect(closed).toBe(1)
    expect(history.stats()).toMatchObject({ open: 0, let_go: 1, drain_timeout_seconds: 20 })
  })

  it('without a sink, stops writing when write() says the buffer is full, and tries again at the next sweep', async () => {
    const t = createTestGateway([callbacksModule])
    const response = await open(t)
    const written: string[] = []
    let full = false
    response.stream?.subscribe((chunk) => {
      written.push(chunk)
      return !full
    })
    full = true
    emitPayment(t, 'p-0')
    flush(t)
    for (let i = 1; i <= 1000; i++) {
      emitPayment(t, `p-${i}`)
      if (i % 100 === 0) flush(t)
    }
    // One write that filled the buffer, then none until a sweep looks again.
    expect(written).toHaveLength(1)
    full = false
    eventHistory(t.gateway.ctx).sweep()
    expect(written).toHaveLength(2)
    expect(ids(written)).toEqual(Array.from({ length: 1001 }, (_, i) => i + 1))
    expect(written.at(-1)).toContain('"payment_id":"p-1000"')
  })

  it('resumes after Last-Event-ID with what the client missed, or says the cursor is too old', async () => {
    const t = createTestGateway([callbacksModule])
    for (let i = 1; i <= 10; i++) emitPayment(t, `p-${i}`)
    const resumed: string[] = []
    const response = await open(t, { 'last-event-id': '7' })
    response.stream?.subscribe((chunk) => void resumed.push(chunk))
    emitPayment(t, 'p-11')
    flush(t)
    expect(ids(resumed)).toEqual([8, 9, 10, 11])
    expect(resumed[0]).toContain('"payment_id":"p-8"')

    for (let i = 12; i <= 5000; i++) emitPayment(t, `p-${i}`)
    flush(t)
    const old: string[] = []
    const stale = await open(t, { 'last-event-id': '3' })
    stale.stream?.subscribe((chunk) => void old.push(chunk))
    expect(old).toHaveLength(1)
    expect(old[0]).toMatch(
      /^id: 5000\nevent: gap\ndata: \{"type":"gap","from":4,"to":5000,"reason":"cursor-too-old"\}/,
    )
    const viaQuery = await t.gateway.handle({
      method: 'GET',
      path: '/sandbox/events',
      query: { last_event_id: '4998' },
      headers: {},
      body: new Uint8Array(),
    })
    const tail: string[] = []
    viaQuery.stream?.subscribe((chunk) => void tail.push(chunk))
    expect(ids(tail)).toEqual([4999, 5000])
  })

  // docs/rules.md#connections: streams are capped in total and per client, with a structured refusal.
  it('refuses a stream beyond the per-client cap (429) and the total cap (503), with Retry-After', async () => {
    const config = demoConfig()
    config.limits = { ...config.limits, max_event_streams: 3, max_event_streams_per_client: 2 }
    const t = createTestGateway([callbacksModule], config)
    const a = [await open(t, {}, '10.0.0.1'), await open(t, {}, '10.0.0.1')]
    for (const r of a) expect(r.status).toBe(200)
    const third = await open(t, {}, '10.0.0.1')
    expect(third.status).toBe(429)
    expect(third.headers['retry-after']).toBe('5')
    expect(JSON.parse(third.body)).toEqual({
      http_code: 429,
      error_code: 100000,
      error_message: 'Too many event streams are open from this client.',
    })
    const other = await open(t, {}, '10.0.0.2')
    other.stream?.subscribe(() => undefined)
    const full = await open(t, {}, '10.0.0.3')
    expect(full.status).toBe(503)
    expect(JSON.parse(full.body)).toMatchObject({ error_message: 'Too many event streams are open.' })
    // A stream that ends (its client left) gives its place back; one never subscribed does too.
    const end = a[0]?.stream?.subscribe(() => undefined)
    end?.()
    a[1]?.stream?.cancel?.()
    expect((await open(t, {}, '10.0.0.1')).status).toBe(200)
  })
})
