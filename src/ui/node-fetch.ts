import { type LookupAddress, promises as dns } from 'node:dns'
import http, { type Agent, type IncomingMessage, type RequestOptions } from 'node:http'
import { isIP } from 'node:net'
import type { FetchLike } from './client.js'

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

/**
 * The sandbox's host name resolved once, starting when the client is made (so the lookup runs
 * while the first frame is drawn), and again only after a request to it failed.
 */
function lookupCache(warm: string | undefined) {
  const cache = new Map<string, Promise<LookupAddress[]>>()
  const resolve = (host: string) => {
    let found = cache.get(host)
    if (!found) {
      found = dns.lookup(host, { all: true })
      cache.set(host, found)
      found.catch(() => cache.delete(host))
    }
    return found
  }
  if (warm && !isIP(warm)) void resolve(warm).catch(() => {})
  return {
    forget: (host: string) => cache.delete(host),
    lookup(host: string, options: { all?: boolean }, callback: LookupCallback) {
      resolve(host).then(
        (all) => {
          const first = all[0]
          if (options.all) callback(null, all)
          else if (first) callback(null, first.address, first.family)
          else callback(Object.assign(new Error(`${host}: no address`), { code: 'ENOTFOUND' }), '')
        },
        (error: NodeJS.ErrnoException) => callback(error, ''),
      )
    },
  }
}

/**
 * The little of `fetch` the control client uses (method, headers, a string body, a signal; the
 * status, the text, the body as a stream of chunks), on node:http. Why not the global fetch: its
 * first call loads and compiles undici, a fifth of the console's start-up on a busy machine
 * (issue 14: "Start-up under a second"). Connections are kept alive, as fetch keeps them.
 */
export function createNodeFetch(baseUrl?: string): FetchLike {
  const agents = new Map<string, Agent>()
  const hosts = lookupCache(baseUrl ? new URL(baseUrl).hostname : undefined)
  return async (input, init = {}) => {
    const url = new URL(input)
    const secure = url.protocol === 'https:'
    const client = secure ? await import('node:https') : http
    let agent = agents.get(url.protocol)
    if (!agent) {
      agent = new client.Agent({ keepAlive: true })
      agents.set(url.protocol, agent)
    }
    const signal = init.signal ?? undefined
    signal?.throwIfAborted()
    const body = typeof init.body === 'string' ? init.body : undefined
    const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) }
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body))
    const options: RequestOptions = {
      method: init.method ?? 'GET',
      headers,
      agent,
      lookup: hosts.lookup as RequestOptions['lookup'],
    }
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = client.request(url, options, resolve)
      request.once('error', (error) => {
        hosts.forget(url.hostname)
        reject(error)
      })
      const abort = () => {
        request.destroy(signal?.reason as Error)
        reject(signal?.reason)
      }
      signal?.addEventListener('abort', abort, { once: true })
      request.once('close', () => signal?.removeEventListener('abort', abort))
      request.end(body)
    })
    const status = response.statusCode ?? 0
    const answer = {
      status,
      ok: status >= 200 && status < 300,
      /** The body's chunks as they arrive (the event stream reads it so). */
      body: response as AsyncIterable<Uint8Array>,
      async text() {
        const chunks: Buffer[] = []
        for await (const chunk of response) chunks.push(chunk as Buffer)
        return Buffer.concat(chunks).toString('utf8')
      },
    }
    return answer as unknown as Response
  }
}
