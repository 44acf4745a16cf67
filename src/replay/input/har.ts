import { ReplayInputError } from '../errors.js'
import type { Exchange } from './types.js'

/**
 * A HAR 1.2 file (the browser's developer tools, Playwright's recordHar, mitmproxy, Charles,
 * Postman): `log.entries[]` with `request` (method, url, headers, postData.text) and `response`
 * (status, headers, content.text, base64 when `content.encoding` says so).
 */

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined

function headersOf(list: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (!Array.isArray(list)) return out
  for (const h of list) {
    const name = obj(h)?.name
    const value = obj(h)?.value
    if (typeof name !== 'string' || typeof value !== 'string' || name.startsWith(':')) continue
    const key = name.toLowerCase()
    out[key] = out[key] !== undefined && key !== 'set-cookie' ? `${out[key]}, ${value}` : value
  }
  return out
}

function bodyOfRequest(request: Json): string {
  const post = obj(request.postData)
  if (!post) return ''
  if (typeof post.text === 'string') return post.text
  // Some tools keep a form only as `params`.
  if (Array.isArray(post.params))
    return new URLSearchParams(
      post.params.flatMap((p) => {
        const name = obj(p)?.name
        const value = obj(p)?.value
        return typeof name === 'string' ? [[name, typeof value === 'string' ? value : '']] : []
      }) as [string, string][],
    ).toString()
  return ''
}

function bodyOfResponse(response: Json): string {
  const content = obj(response.content)
  if (!content || typeof content.text !== 'string') return ''
  return content.encoding === 'base64' ? Buffer.from(content.text, 'base64').toString('utf8') : content.text
}

export function isHar(value: unknown): boolean {
  return obj(obj(value)?.log) !== undefined
}

export function readHar(file: string, value: unknown): Exchange[] {
  const log = obj(obj(value)?.log)
  const entries = log?.entries
  if (!Array.isArray(entries))
    throw new ReplayInputError(
      file,
      undefined,
      'not a HAR 1.2 file: log.entries is missing (HAR or JSON lines expected)',
    )
  if (!entries.length)
    throw new ReplayInputError(
      file,
      undefined,
      'a HAR with no entries (log.entries is empty): nothing to replay',
    )
  return entries.map((entry, i) => {
    const where = `entry ${i + 1}`
    const e = obj(entry)
    const request = obj(e?.request)
    if (!e || !request) throw new ReplayInputError(file, where, 'has no request')
    const method = request.method
    if (typeof method !== 'string' || !/^[A-Z]+$/.test(method))
      throw new ReplayInputError(file, where, 'request.method is missing or not a method')
    let url: URL
    try {
      url = new URL(String(request.url))
    } catch {
      throw new ReplayInputError(
        file,
        where,
        `request.url is not an absolute URL: ${JSON.stringify(request.url)}`,
      )
    }
    const started = typeof e.startedDateTime === 'string' ? Date.parse(e.startedDateTime) : Number.NaN
    const response = obj(e.response)
    const status = typeof response?.status === 'number' ? response.status : 0
    return {
      file,
      where,
      ...(Number.isNaN(started) ? {} : { at: started }),
      method,
      url,
      headers: headersOf(request.headers),
      body: bodyOfRequest(request),
      // Status 0: the browser got no answer (aborted, blocked, failed).
      ...(response && status > 0
        ? { response: { status, headers: headersOf(response.headers), body: bodyOfResponse(response) } }
        : {}),
    }
  })
}
