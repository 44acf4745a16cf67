import { describe, expect, it } from 'vitest'
import type { Sandbox } from '../../src/index.js'
import { sessionRequest } from '../library/helpers.js'
import { post, sale, sandboxes, statusByOrder } from './helpers.js'

/**
 * Gateway faults (docs/conformance.md, Gateway faults; docs/rules.md#beyond-the-interface): the
 * next N matching requests time out, answer 5xx, lose their connection, or are done while their
 * answer is lost; the status lookup tells what happened.
 */

const make = sandboxes()
const session = (s: Sandbox, number: string) =>
  s.fetch(`${s.baseUrl}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(sessionRequest(number)),
  })
const control = (s: Sandbox, method: string, path: string, body?: unknown) =>
  s.fetch(`${s.baseUrl}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  })

describe('POST /sandbox/faults', () => {
  it('error: the next N matching requests answer 5xx with the fault header, do nothing, then the gateway answers again', async () => {
    const s = await make()
    const created = await control(s, 'POST', '/sandbox/faults', {
      mode: 'error',
      status: 502,
      count: 2,
      match: { path: '/api/v1/session' },
    })
    expect(created.status).toBe(201)
    expect(await created.json()).toMatchObject({ fault: { mode: 'error', remaining: 2, status: 502 } })
    for (const n of ['f-1', 'f-2']) {
      const refused = await session(s, n)
      expect(refused.status).toBe(502)
      expect(refused.headers.get('sandbox-fault')).toBe('error')
      expect(refused.headers.get('content-type')).toMatch(/text\/html/)
    }
    expect(s.gateway.ctx.store.list('sessions')).toHaveLength(0)
    expect((await session(s, 'f-3')).status).toBe(200)
    expect(await (await control(s, 'GET', '/sandbox/faults')).json()).toEqual({ faults: [] })
  })

  it('lost: the SALE is done (payment and callback) but its answer is dropped; the status lookup by order tells', async () => {
    const s = await make()
    await s.faults.add({ mode: 'lost', match: { action: 'SALE' } })
    await expect(post(s, sale('LOST-1'))).rejects.toThrow(/connection was dropped \(sandbox fault: lost\)/)
    await s.idle()
    expect(s.gateway.ctx.store.list('payments').map((p) => p.status)).toEqual(['settled'])
    const status = await post(s, statusByOrder('LOST-1'))
    expect(await status.json()).toMatchObject({ action: 'GET_TRANS_STATUS_BY_ORDER', status: 'SETTLED' })
  })

  it('lost with a status: done, then a 5xx page instead of the answer', async () => {
    const s = await make()
    await s.faults.add({ mode: 'lost', status: 503, match: { path: '/api/v1/session' } })
    const answer = await session(s, 'L-5')
    expect(answer.status).toBe(503)
    expect(answer.headers.get('sandbox-fault')).toBe('lost')
    expect(s.gateway.ctx.store.list('sessions')).toHaveLength(1)
  })

  it('timeout: nothing is done; the connection is dropped after T seconds of the virtual clock, with no real wait', async () => {
    const s = await make()
    const before = s.clock.now()
    await s.faults.add({ mode: 'timeout', seconds: 45, match: { action: 'SALE' } })
    // No real wait: 45 s of real time would outlast this test's own bound (30 s, given below), so
    // the drop shows on the virtual clock only; no stopwatch that a loaded machine could fail.
    await expect(post(s, sale('TO-1'))).rejects.toThrow(/sandbox fault: timeout/)
    expect(s.clock.now() - before).toBe(45_000)
    expect(s.gateway.ctx.store.list('payments')).toHaveLength(0)
    const status = await post(s, statusByOrder('TO-1'))
    expect(await status.json()).toMatchObject({ result: 'ERROR', error_code: 101000 })
  }, 30_000)

  it('drop: nothing is done and the connection goes at once; a rule by action leaves other actions alone', async () => {
    const s = await make()
    await s.faults.add({ mode: 'drop', match: { action: 'SALE' } })
    const lookup = await post(s, statusByOrder('NONE'))
    expect(lookup.headers.get('sandbox-fault')).toBeNull()
    expect(await lookup.json()).toMatchObject({ result: 'ERROR', error_code: 101000 })
    await expect(post(s, sale('D-1'))).rejects.toThrow(/sandbox fault: drop/)
    expect(s.gateway.ctx.store.list('payments')).toHaveLength(0)
    expect(await (await post(s, sale('D-1'))).json()).toMatchObject({ result: 'SUCCESS' })
  })

  it('over real HTTP (express) a dropped connection closes the socket without an answer', async () => {
    const s = await make()
    const listening = await s.listen({ port: 0 })
    await s.faults.add({ mode: 'drop', match: { path: '/api/v1/session' } })
    const url = `${listening.url}/api/v1/session`
    const send = () =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sessionRequest('HTTP-1')),
      })
    await expect(send()).rejects.toThrow(/fetch failed/)
    expect((await send()).status).toBe(200)
  })

  it('control routes never fail, a rule can be removed, and a bad rule is refused with a structured error', async () => {
    const s = await make()
    await s.faults.add({ mode: 'error', count: 5 })
    expect((await control(s, 'GET', '/sandbox/health')).status).toBe(200)
    const [rule] = s.faults.list()
    expect(rule).toMatchObject({ mode: 'error', remaining: 5 })
    const removed = await control(s, 'DELETE', `/sandbox/faults/${rule?.id}`)
    expect(await removed.json()).toEqual({ removed: 1 })
    const again = await control(s, 'DELETE', `/sandbox/faults/${rule?.id}`)
    expect(again.status).toBe(404)
    expect(await again.json()).toMatchObject({ error_code: 100000, error_message: 'Fault not found.' })
    const bad = await control(s, 'POST', '/sandbox/faults', { mode: 'explode', count: 0 })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(await bad.json())).toMatch(/mode/)
    expect(s.faults.list()).toEqual([])
    expect((await session(s, 'ok-1')).status).toBe(200)
  })
})
