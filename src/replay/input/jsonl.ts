import qs from 'qs'
import { ReplayInputError } from '../errors.js'
import type { Exchange, RecordedAnswer } from './types.js'

/**
 * A merchant's HTTP client log, one JSON object per line (docs/replay.md, "The JSON-lines log"):
 *
 *   {"time": "2026-11-02T10:00:00.120Z", "method": "POST", "url": "https://gw.example/api/v1/session",
 *    "headers": {"content-type": "application/json"}, "body": {...} | "text",
 *    "response": {"status": 200, "headers": {...}, "body": {...} | "text"}}
 *
 * `time` is an ISO 8601 date or epoch milliseconds; a body given as an object is sent as JSON, or
 * as a form when the content type says so. Blank lines are skipped.
 */

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined

function headersOf(value: unknown, file: string, where: string, what: string): Record<string, string> {
  if (value === undefined) return {}
  const given = obj(value)
  if (!given) throw new ReplayInputError(file, where, `${what} must be an object of header names and values`)
  const out: Record<string, string> = {}
  for (const [name, v] of Object.entries(given))
    if (typeof v === 'string' || typeof v === 'number') out[name.toLowerCase()] = String(v)
  return out
}

const isForm = (headers: Record<string, string>) =>
  /application\/x-www-form-urlencoded/i.test(headers['content-type'] ?? '')

function textOf(body: unknown, headers: Record<string, string>): string {
  if (body === undefined || body === null) return ''
  if (typeof body === 'string') return body
  return isForm(headers) ? qs.stringify(body, { encodeValuesOnly: true }) : JSON.stringify(body)
}

function timeOf(value: unknown, file: string, where: string): number | undefined {
  if (value === undefined) return undefined
  const at = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN
  if (!Number.isFinite(at))
    throw new ReplayInputError(
      file,
      where,
      `time ${JSON.stringify(value)} is not an ISO 8601 date or epoch milliseconds`,
    )
  return at
}

export function readJsonLines(file: string, text: string): Exchange[] {
  const lines = text.split('\n')
  const out: Exchange[] = []
  const complete = text.endsWith('\n')
  lines.forEach((raw, i) => {
    const line = raw.trim()
    if (!line) return
    const where = `line ${i + 1}`
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      const last = i === lines.length - 1 || (i === lines.length - 2 && lines[i + 1] === '')
      throw new ReplayInputError(
        file,
        where,
        last && !complete
          ? `not complete JSON: the log ends in the middle of this line (truncated?): ${(error as Error).message}`
          : `not JSON (one JSON object per line expected): ${(error as Error).message}`,
      )
    }
    const entry = obj(value)
    if (!entry) throw new ReplayInputError(file, where, 'not a JSON object (one request per line expected)')
    if (typeof entry.method !== 'string' || !/^[A-Za-z]+$/.test(entry.method))
      throw new ReplayInputError(
        file,
        where,
        'method is missing (one request per line: method, url, headers, body, response)',
      )
    let url: URL
    try {
      url = new URL(String(entry.url))
    } catch {
      throw new ReplayInputError(file, where, `url is not an absolute URL: ${JSON.stringify(entry.url)}`)
    }
    const headers = headersOf(entry.headers, file, where, 'headers')
    const at = timeOf(entry.time, file, where)
    const response = entry.response === undefined ? undefined : obj(entry.response)
    if (entry.response !== undefined && !response)
      throw new ReplayInputError(file, where, 'response must be an object')
    let answer: RecordedAnswer | undefined
    if (response) {
      const status = response.status
      if (typeof status !== 'number' || !Number.isInteger(status) || status < 0 || status > 599)
        throw new ReplayInputError(file, where, 'response.status must be an HTTP status (a number)')
      const answerHeaders = headersOf(response.headers, file, where, 'response.headers')
      if (status > 0) answer = { status, headers: answerHeaders, body: textOf(response.body, answerHeaders) }
    }
    out.push({
      file,
      where,
      ...(at !== undefined ? { at } : {}),
      method: entry.method.toUpperCase(),
      url,
      headers,
      body: textOf(entry.body, headers),
      ...(answer ? { response: answer } : {}),
    })
  })
  if (!out.length)
    throw new ReplayInputError(file, undefined, 'no request in it (one JSON object per line expected)')
  return out
}
