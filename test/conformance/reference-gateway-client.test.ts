import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { attempt } from '../../fixtures/merchants/reference/gateway-client.js'

/**
 * The reference merchant's one exchange with the gateway (fixtures/merchants/reference/
 * gateway-client.ts, node:http): what the shop books from depends on it telling an answer, a
 * time-out (docs/conformance.md#gateway-faults: a `late` answer is held until the shop's client
 * gives up; the `retries-on-timeout` twin sends again after it) and an unreachable gateway apart.
 */
const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))))
})

async function gateway(
  answer: (res: ServerResponse) => void,
): Promise<{ url: string; closed: Promise<void> }> {
  let closed: () => void = () => {}
  const gone = new Promise<void>((resolve) => {
    closed = resolve
  })
  const server = createServer((req, res) => {
    req.resume()
    res.on('close', () => closed())
    answer(res)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/post`, closed: gone }
}

const sale = {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: 'action=SALE',
}

describe("the reference merchant's gateway client", () => {
  it('reads the status, the JSON answer and the gateway clock (Date)', async () => {
    const { url } = await gateway((res) => {
      res.writeHead(200, { 'content-type': 'application/json', date: 'Mon, 07 Dec 2026 10:00:00 GMT' })
      res.end('{"result":"SUCCESS","status":"SETTLED"}')
    })
    expect(await attempt(url, sale, 5000)).toEqual({
      http: 200,
      body: { result: 'SUCCESS', status: 'SETTLED' },
      date: 'Mon, 07 Dec 2026 10:00:00 GMT',
    })
  })

  it('gives up on an answer held before its headers: timed out, and the connection closed', async () => {
    const { url, closed } = await gateway(() => {
      // holds the answer for ever
    })
    const answer = await attempt(url, sale, 200)
    expect(answer).toEqual({
      http: 0,
      body: { error_message: 'gateway unreachable: no answer within 200 ms' },
      timedOut: true,
    })
    await closed
  })

  it('gives up on an answer cut short after its headers: timed out too', async () => {
    const { url } = await gateway((res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"result":')
    })
    expect(await attempt(url, sale, 200)).toMatchObject({ http: 0, timedOut: true })
  })

  it('says a gateway that is not there is unreachable, not late', async () => {
    const { url } = await gateway(() => {})
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))))
    const answer = await attempt(url, sale, 5000)
    expect(answer.http).toBe(0)
    expect(answer.timedOut).toBeUndefined()
    expect(answer.body.error_message).toMatch(/^gateway unreachable: .*ECONNREFUSED/)
  })
})
