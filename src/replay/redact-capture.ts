import { redactText, redactValue, sensitiveKind } from '../core/request-log/redact.js'

/**
 * A captured file made safe to keep (fixtures/replay, a support ticket's attachment), in its own
 * format: card numbers masked (first 6, last 4), CVVs and passwords left out, cookies dropped, and
 * every token replaced by a role placeholder (`[token-1]`), the same one wherever that token
 * appears (a session's answer, the page's URL, the form that page posts to), so a replay still
 * tells that the payer paid the session the merchant created (docs/replay.md, "Privacy").
 */

const PAGE_TOKEN = /\/(?:auth|hpf|sdk\/hosted-fields|sandbox\/sessions)\/([A-Za-z0-9_-]{8,})/g
const TOKEN_MEMBER = /"((?:[A-Za-z_]*_)?token)"\s*:\s*"([^"\\]{8,})"/g
const TOKEN_FIELD = /(?:^|[?&])((?:[a-z_]*_)?token)=([^&#\s"']{8,})/gi
const HEADER_TOKENS = new Set(['token'])

/** Every token a text holds: page tokens in paths, token members of JSON, token fields of forms. */
function tokensIn(text: string, into: Set<string>): void {
  for (const m of text.matchAll(PAGE_TOKEN)) into.add(m[1] as string)
  for (const m of text.matchAll(TOKEN_MEMBER)) into.add(m[2] as string)
  for (const m of text.matchAll(TOKEN_FIELD)) {
    const value = decodeURIComponent(m[2] as string)
    if (!/^(y|n|yes|no|true|false)$/i.test(value)) into.add(value)
  }
}

export interface CaptureRedactor {
  /** Any text of the capture: tokens replaced, card numbers masked. */
  text(value: string): string
  /** A request or answer body, by its content type: forms and JSON field by field. */
  body(value: string, contentType: string | undefined): string
  /** Headers: tokens and cookies, secrets left out. */
  headers<T extends { name: string; value: string }>(list: T[]): T[]
}

/** A redactor that knows every token of the capture's texts, so each gets one placeholder throughout. */
export function captureRedactor(texts: string[], headerValues: [string, string][]): CaptureRedactor {
  const tokens = new Set<string>()
  for (const t of texts) tokensIn(t, tokens)
  for (const [name, value] of headerValues)
    if (HEADER_TOKENS.has(name.toLowerCase()) && value.length >= 8) tokens.add(value)
  const names = new Map([...tokens].map((t, i) => [t, `[token-${i + 1}]`]))
  const ordered = [...names.keys()].sort((a, b) => b.length - a.length)
  const replaceTokens = (value: string) => {
    let out = value
    for (const token of ordered) {
      const name = names.get(token) as string
      if (out.includes(token)) out = out.split(token).join(name)
      const encoded = encodeURIComponent(token)
      if (encoded !== token && out.includes(encoded)) out = out.split(encoded).join(encodeURIComponent(name))
    }
    return out
  }
  const text = (value: string) => redactText(replaceTokens(value))
  return {
    text,
    body(value, contentType) {
      const replaced = replaceTokens(value)
      if (/json/i.test(contentType ?? '') || /^\s*[{[]/.test(replaced)) {
        try {
          return JSON.stringify(redactValue(JSON.parse(replaced)))
        } catch {
          return redactText(replaced)
        }
      }
      if (/x-www-form-urlencoded/i.test(contentType ?? '')) {
        const form = new URLSearchParams(replaced)
        const out = new URLSearchParams()
        for (const [key, v] of form) {
          const kind = sensitiveKind(key)
          if (kind === 'cvv' || kind === 'secret') continue
          out.append(key, String(redactValue(v, key)))
        }
        return out.toString().replace(/%2A/gi, '*')
      }
      return redactText(replaced)
    },
    headers(list) {
      return list.flatMap((h) => {
        const name = h.name.toLowerCase()
        const kind = sensitiveKind(name)
        if (kind === 'cvv' || kind === 'secret' || name === 'cookie' || name === 'set-cookie') return []
        return [{ ...h, value: text(h.value) }]
      })
    },
  }
}

type Json = Record<string, unknown>
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {})
const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : [])
const headerOf = (headers: Json[], name: string) =>
  headers.find((h) => String(h.name).toLowerCase() === name)?.value as string | undefined

/** A HAR 1.2 document, redacted (redact-capture.ts): the same entries, safe to keep. */
export function redactHar(har: unknown): unknown {
  const doc = structuredClone(obj(har))
  const entries = list(obj(doc.log).entries)
  const texts: string[] = []
  const headerValues: [string, string][] = []
  for (const e of entries) {
    const req = obj(e.request)
    const res = obj(e.response)
    texts.push(
      String(req.url ?? ''),
      String(obj(req.postData).text ?? ''),
      String(obj(res.content).text ?? ''),
    )
    for (const h of [...list(req.headers), ...list(res.headers)]) {
      headerValues.push([String(h.name), String(h.value)])
      texts.push(String(h.value))
    }
  }
  const r = captureRedactor(texts, headerValues)
  for (const e of entries) {
    const req = obj(e.request)
    const res = obj(e.response)
    req.url = r.text(String(req.url ?? ''))
    req.headers = r.headers(list(req.headers) as { name: string; value: string }[])
    req.cookies = []
    res.cookies = []
    req.queryString = list(req.queryString)
      .filter((q) => !['cvv', 'secret'].includes(sensitiveKind(String(q.name)) ?? ''))
      .map((q) => ({ ...q, value: r.text(String(q.value ?? '')) }))
    const post = obj(req.postData)
    if (typeof post.text === 'string') {
      post.text = r.body(
        post.text,
        String(post.mimeType ?? headerOf(list(req.headers), 'content-type') ?? ''),
      )
      delete post.params
    }
    res.headers = r.headers(list(res.headers) as { name: string; value: string }[])
    if (typeof res.redirectURL === 'string') res.redirectURL = r.text(res.redirectURL)
    const content = obj(res.content)
    if (typeof content.text === 'string') {
      const raw =
        content.encoding === 'base64' ? Buffer.from(content.text, 'base64').toString('utf8') : content.text
      const safe = r.body(raw, String(content.mimeType ?? ''))
      content.text = safe
      delete content.encoding
      content.size = safe.length
    }
  }
  return doc
}

/** A JSON-lines log, redacted line by line with one set of placeholders. */
export function redactJsonLines(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim())
  const values = lines.map((l) => JSON.parse(l) as Json)
  const r = captureRedactor(
    values.flatMap((v) => [JSON.stringify(v)]),
    values.flatMap((v) => Object.entries(obj(v.headers)).map(([k, x]) => [k, String(x)] as [string, string])),
  )
  const side = (headers: Json, body: unknown) => {
    const type = String(Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '')
    const kept = r.headers(Object.entries(headers).map(([name, value]) => ({ name, value: String(value) })))
    return {
      headers: Object.fromEntries(kept.map((h) => [h.name, h.value])),
      body:
        typeof body === 'string'
          ? r.body(body, type)
          : JSON.parse(r.body(JSON.stringify(body ?? null), 'application/json')),
    }
  }
  return `${values
    .map((v) => {
      const request = side(obj(v.headers), v.body)
      const response = v.response ? obj(v.response) : undefined
      const answer = response ? side(obj(response.headers), response.body) : undefined
      return JSON.stringify({
        ...v,
        url: r.text(String(v.url ?? '')),
        headers: request.headers,
        body: request.body,
        ...(response && answer
          ? { response: { ...response, headers: answer.headers, body: answer.body } }
          : {}),
      })
    })
    .join('\n')}\n`
}
