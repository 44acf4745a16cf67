import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { toGatewayRequest } from '../../src/adapters/express/node-request.js'
import { type Sandbox, signatures } from '../../src/index.js'
import { KEY, PASSWORD, sessionRequest } from '../library/helpers.js'
import { post, sale, sandboxes, statusByOrder } from './helpers.js'

/**
 * Gateway faults as real as the network (docs/conformance.md, Gateway faults): committed, then a
 * proxy's 5xx page (`lost` with a status); answered late (`late`: done, the answer held in real
 * time until the client gives up); a time-out that really keeps the client waiting
 * (`hold_seconds`); and rules by kind of request (`lookup`: every status endpoint).
 */

const make = sandboxes()
const json = (s: Sandbox, path: string, body: unknown) =>
  s.fetch(`${s.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
const statuses = (s: Sandbox) => s.gateway.ctx.store.list('payments').map((p) => p.status)

describe('committed, then 5xx (lost with a status)', () => {
  it.each([
    [502, 'Bad Gateway'],
    [503, 'Service Temporarily Unavailable'],
    [504, 'Gateway Time-out'],
  ])('the SALE is done, then a proxy answers %i with its own HTML page (%s)', async (status, reason) => {
    const s = await make()
    await s.faults.add({ mode: 'lost', status, match: { action: 'SALE' } })
    const answer = await post(s, sale(`C5-${status}`))
    expect(answer.status).toBe(status)
    expect(answer.headers.get('sandbox-fault')).toBe('lost')
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/)
    const page = await answer.text()
    expect(page).toContain(`<title>${status} ${reason}</title>`)
    expect(page).toContain('<center>nginx</center>')
    await s.idle()
    expect(statuses(s)).toEqual(['settled'])
    expect(s.callbacks().length).toBeGreaterThan(0)
  })
})

describe('answered late', () => {
  it('the SALE is done and its answer held until the client gives up; nothing is written after', async () => {
    const s = await make()
    const rule = await s.faults.add({ mode: 'late', match: { action: 'SALE' } })
    expect(rule).toMatchObject({ mode: 'late', hold_seconds: 60 })
    // The client's own time-out, far below the 60 s the rule would hold the answer.
    const answer = post(s, sale('LATE-1'), AbortSignal.timeout(300))
    await expect(answer).rejects.toThrow(/aborted|timeout/i)
    await s.idle()
    expect(statuses(s)).toEqual(['settled'])
    const lookup = await post(s, statusByOrder('LATE-1'))
    expect(await lookup.json()).toMatchObject({ status: 'SETTLED' })
  })

  it('the engine ends the hold when the adapter says its client left, whatever the sandbox clock', async () => {
    const s = await make()
    await s.faults.add({ mode: 'late', hold_seconds: 600, match: { action: 'SALE' } })
    const client = new AbortController()
    const handled = s.gateway.handle({
      method: 'POST',
      path: '/post',
      query: {},
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new TextEncoder().encode(sale('LATE-2').toString()),
      signal: client.signal,
    })
    const before = s.clock.now()
    await s.idle()
    client.abort()
    const response = await handled
    expect(response.fault).toBe('drop')
    expect(response.headers['sandbox-fault']).toBe('late')
    expect(statuses(s)).toEqual(['settled'])
    // A held answer is real time: the virtual clock did not move.
    expect(s.clock.now()).toBe(before)
  })

  it('a request whose client left before it was handled is not done (no fault needed)', async () => {
    const s = await make()
    const client = new AbortController()
    client.abort()
    const response = await s.gateway.handle({
      method: 'POST',
      path: '/post',
      query: {},
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new TextEncoder().encode(sale('GONE-1').toString()),
      signal: client.signal,
    })
    expect(response.fault).toBe('drop')
    expect(statuses(s)).toEqual([])
    expect(await (await post(s, statusByOrder('GONE-1'))).json()).toMatchObject({ error_code: 101000 })
  })

  it('a client that waits longer than hold_seconds gets the real answer, marked late', async () => {
    const s = await make()
    await s.faults.add({ mode: 'late', hold_seconds: 1, match: { path: '/api/v1/session' } })
    const answer = await json(s, '/api/v1/session', sessionRequest('LATE-3'))
    expect(answer.status).toBe(200)
    expect(answer.headers.get('sandbox-fault')).toBe('late')
    expect(await answer.json()).toMatchObject({ redirect_url: expect.any(String) })
  })

  it('over real HTTP, the node adapter tells the engine when the client closed its connection', async () => {
    let resolveGone: (reason: string) => void = () => {}
    const gone = new Promise<string>((resolve) => {
      resolveGone = resolve
    })
    let arrived: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      arrived = resolve
    })
    const server = createServer((req, res) => {
      const incoming = toGatewayRequest(req, res)
      incoming.signal?.addEventListener('abort', () => resolveGone('aborted'))
      arrived()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const client = new AbortController()
      const sent = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/post`, {
        method: 'POST',
        body: 'action=SALE',
        signal: client.signal,
      }).catch((error: Error) => error.name)
      // The server holds the request; the client gives up; the adapter's signal says so.
      await held
      client.abort()
      expect(await sent).toBe('AbortError')
      expect(await gone).toBe('aborted')
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('over real HTTP (listen), a late answer ends when the merchant client times out, the work done', async () => {
    const s = await make()
    const { url } = await s.listen({ port: 0 })
    await s.faults.add({ mode: 'late', hold_seconds: 600, match: { action: 'SALE' } })
    const sent = fetch(`${url}/post`, {
      method: 'POST',
      body: sale('LATE-4'),
      signal: AbortSignal.timeout(300),
    })
    await expect(sent).rejects.toThrow(/aborted|timeout/i)
    await s.idle()
    expect(statuses(s)).toEqual(['settled'])
    // The next request is answered at once: the held one freed its slot.
    const lookup = await fetch(`${url}/post`, { method: 'POST', body: statusByOrder('LATE-4') })
    expect(await lookup.json()).toMatchObject({ status: 'SETTLED' })
  })
})

describe('a time-out that keeps the client waiting (hold_seconds)', () => {
  it('nothing is done; the client gives up on its own; the virtual clock moves by seconds', async () => {
    const s = await make()
    await s.faults.add({ mode: 'timeout', seconds: 45, hold_seconds: 600, match: { action: 'SALE' } })
    const before = s.clock.now()
    await expect(post(s, sale('TH-1'), AbortSignal.timeout(300))).rejects.toThrow(/aborted|timeout/i)
    await s.idle()
    expect(statuses(s)).toEqual([])
    const lookup = await post(s, statusByOrder('TH-1'))
    expect(await lookup.json()).toMatchObject({ result: 'ERROR', error_code: 101000 })
    expect(s.clock.now() - before).toBe(45_000)
  })
})

describe('rules by kind of request', () => {
  it('lookup: every status endpoint fails for the next N calls, payments are left alone', async () => {
    const s = await make()
    const rule = await s.faults.add({ mode: 'error', status: 503, count: 2, match: { kind: 'lookup' } })
    expect(rule.match).toEqual({ kind: 'lookup' })
    expect((await post(s, sale('K-1'))).status).toBe(200)
    const s2s = await post(s, statusByOrder('K-1'))
    expect([s2s.status, s2s.headers.get('sandbox-fault')]).toEqual([503, 'error'])
    const checkout = await json(s, '/api/v1/payment/status', {
      merchant_key: KEY,
      order_id: 'K-1',
      hash: signatures.checkout.statusByOrder('K-1', PASSWORD),
    })
    expect([checkout.status, checkout.headers.get('sandbox-fault')]).toEqual([503, 'error'])
    expect(s.faults.list()).toEqual([])
    expect(await (await post(s, statusByOrder('K-1'))).json()).toMatchObject({ status: 'SETTLED' })
  })

  it('refund: a Checkout refund and an S2S CREDITVOID are the same kind', async () => {
    const s = await make()
    await s.faults.add({ mode: 'error', count: 1, match: { kind: 'refund' } })
    // A session is not a refund: it is answered.
    expect((await json(s, '/api/v1/session', sessionRequest('K-2'))).status).toBe(200)
    const creditvoid = new URLSearchParams({
      action: 'CREDITVOID',
      client_key: KEY,
      trans_id: 'none',
      hash: 'x',
    })
    const refused = await post(s, creditvoid)
    expect([refused.status, refused.headers.get('sandbox-fault')]).toEqual([503, 'error'])
  })

  it('an unknown kind or mode is refused with a structured error and sets nothing', async () => {
    const s = await make()
    for (const body of [
      { mode: 'late', match: { kind: 'sessions' } },
      { mode: 'slow' },
      { mode: 'late', hold_seconds: 0 },
    ]) {
      const answer = await json(s, '/sandbox/faults', body)
      expect(answer.status).toBe(400)
      expect(await answer.json()).toMatchObject({ error_message: 'Request data is invalid.' })
    }
    expect(s.faults.list()).toEqual([])
  })
})
