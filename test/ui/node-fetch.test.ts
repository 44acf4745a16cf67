import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createControlClient, UnreachableError } from '../../src/ui/client.js'
import { createNodeFetch } from '../../src/ui/node-fetch.js'

/**
 * The console's HTTP client over --url (src/ui/node-fetch.ts: node:http instead of the global
 * fetch, for start-up, issue 14 "Start-up under a second"): what the control client needs of
 * fetch, against a real server on a free port.
 */
const servers: Server[] = []
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    s.close()
  }
})

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler).listen(0, '127.0.0.1')
  servers.push(server)
  await once(server, 'listening')
  return `http://localhost:${(server.address() as AddressInfo).port}`
}

describe('the console client on node:http (src/ui/node-fetch.ts)', () => {
  it('sends method, headers and body, and reads status and JSON as fetch does', async () => {
    const seen: { method?: string; token?: string; type?: string; body: string }[] = []
    const base = await serve(async (req, res) => {
      let body = ''
      for await (const chunk of req) body += chunk
      seen.push({
        method: req.method,
        token: req.headers['x-sandbox-control-token'] as string,
        type: req.headers['content-type'],
        body,
      })
      if (req.url === '/sandbox/clock/advance') {
        res.writeHead(400, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({ error_message: 'Bad seconds', errors: [{ error_message: 'seconds: too big' }] }),
        )
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ mode: 'virtual', now_ms: 42, now: 'x' }))
    })
    const client = createControlClient({ baseUrl: base, fetch: createNodeFetch(base), controlToken: 't0k' })
    expect(await client.clock()).toMatchObject({ now_ms: 42 })
    await expect(client.advanceClock(1e12)).rejects.toThrow('Bad seconds seconds: too big')
    expect(seen).toEqual([
      { method: 'GET', token: 't0k', body: '' },
      { method: 'POST', token: 't0k', type: 'application/json', body: '{"seconds":1000000000000}' },
    ])
  })

  it('reads the event stream chunk by chunk, and stops when aborted', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(': hello\n\nevent: payment\ndata: {"type":"payment","payment_id":"p1"}\n\n')
      setTimeout(() => res.write('data: {"type":"payment","payment_id":"p2"}\n\n'), 20)
    })
    const client = createControlClient({ baseUrl: base, fetch: createNodeFetch(base) })
    const controller = new AbortController()
    let opened = false
    const got: string[] = []
    const reading = (async () => {
      for await (const event of client.events(controller.signal, () => {
        opened = true
      })) {
        got.push((event as { payment_id: string }).payment_id)
        if (got.length === 2) controller.abort()
      }
    })()
    await expect(reading).rejects.toThrow()
    expect(opened).toBe(true)
    expect(got).toEqual(['p1', 'p2'])
  })

  it('reports a sandbox that is not there, or does not answer in time, as unreachable', async () => {
    const base = await serve(() => {
      // Never answers.
    })
    const slow = createControlClient({ baseUrl: base, fetch: createNodeFetch(base), timeoutMs: 50 })
    await expect(slow.health()).rejects.toThrow(new UnreachableError(`${base} is not answering (timed out)`))
    const closed = 'http://127.0.0.1:1'
    const gone = createControlClient({ baseUrl: closed, fetch: createNodeFetch(closed) })
    await expect(gone.health()).rejects.toThrow(`${closed} is not answering (ECONNREFUSED)`)
  })
})
