import qs from 'qs'

/** Limits on what a parsed body may hold, so no request can make the engine do unbounded work. */
const QS_OPTIONS = { depth: 6, arrayLimit: 200, parameterLimit: 2000, allowPrototypes: false } as const

export type ParsedBody =
  | { ok: true; kind: 'json' | 'form' | 'empty'; value: Record<string, unknown> }
  | {
      ok: false
      reason: 'malformed-json' | 'not-an-object' | 'malformed-form' | 'unsupported-media-type' | 'too-deep'
      detail: string
    }

/**
 * How deep a JSON body may nest (docs/architecture.md). No field of the interface nests more than a
 * few levels; a deeper body is refused before validation, signature or storage ever recurse into it.
 * Forms are already bounded by qs (`depth` above).
 */
export const MAX_DEPTH = 32

/** Iterative, so the check itself cannot overflow the stack on a body nested 100,000 levels. */
function deeperThan(root: object, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 1]]
  while (stack.length) {
    const [value, depth] = stack.pop() as [unknown, number]
    if (value === null || typeof value !== 'object') continue
    if (depth > limit) return true
    for (const child of Object.values(value))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1])
  }
  return false
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

const decoder = new TextDecoder('utf-8', { fatal: false })

/**
 * JSON, urlencoded or multipart bodies, with bracket notation (`parameters[shipping][city]`)
 * expanded by qs in all three, as the interface accepts it on Checkout too (2.1 `parameters`).
 */
export async function parseBody(contentType: string | undefined, body: Uint8Array): Promise<ParsedBody> {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  if (body.length === 0) return { ok: true, kind: 'empty', value: {} }
  if (type === 'application/json' || type.endsWith('+json') || type === '') {
    let parsed: unknown
    try {
      parsed = JSON.parse(decoder.decode(body))
    } catch (error) {
      return { ok: false, reason: 'malformed-json', detail: (error as Error).message }
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return { ok: false, reason: 'not-an-object', detail: 'The body must be a JSON object.' }
    }
    if (deeperThan(parsed, MAX_DEPTH))
      return { ok: false, reason: 'too-deep', detail: `Nesting deeper than ${MAX_DEPTH} levels.` }
    return { ok: true, kind: 'json', value: expandBrackets(parsed as Record<string, unknown>) }
  }
  if (type === 'application/x-www-form-urlencoded') {
    return {
      ok: true,
      kind: 'form',
      value: qs.parse(decoder.decode(body), QS_OPTIONS) as Record<string, unknown>,
    }
  }
  if (type === 'multipart/form-data') {
    try {
      const form = await new Response(body, { headers: { 'content-type': contentType ?? '' } }).formData()
      const flat = new URLSearchParams()
      for (const [key, value] of form.entries()) if (typeof value === 'string') flat.append(key, value)
      return {
        ok: true,
        kind: 'form',
        value: qs.parse(flat.toString(), QS_OPTIONS) as Record<string, unknown>,
      }
    } catch (error) {
      return { ok: false, reason: 'malformed-form', detail: (error as Error).message }
    }
  }
  return { ok: false, reason: 'unsupported-media-type', detail: `Content-Type ${type} is not accepted here.` }
}

/** `{"parameters[card][descriptor]": "x"}` in a JSON body becomes `{parameters: {card: {descriptor: "x"}}}`. */
function expandBrackets(value: Record<string, unknown>): Record<string, unknown> {
  const bracketed = Object.keys(value).filter((k) => k.includes('['))
  if (!bracketed.length) return value
  const rest: Record<string, unknown> = {}
  // URLSearchParams, unlike encodeURIComponent, never throws (a lone surrogate becomes U+FFFD).
  const pairs = new URLSearchParams()
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('[') && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) {
      pairs.append(k, String(v))
    } else rest[k] = v
  }
  const expanded = qs.parse(pairs.toString(), QS_OPTIONS) as Record<string, unknown>
  return mergeDeep(rest, expanded)
}

function mergeDeep(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out = { ...a }
  for (const [k, v] of Object.entries(b)) {
    if (UNSAFE_KEYS.has(k)) continue
    const existing = out[k]
    out[k] =
      existing && typeof existing === 'object' && v && typeof v === 'object' && !Array.isArray(v)
        ? mergeDeep(existing as Record<string, unknown>, v as Record<string, unknown>)
        : v
  }
  return out
}
