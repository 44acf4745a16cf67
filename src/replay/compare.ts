import { redactText } from '../core/request-log/redact.js'
import type { RecordedAnswer } from './input/types.js'
import { dateValues, type RoleMap, volatileValues } from './roles.js'

/**
 * The recorded answer against the sandbox's, field by field (docs/replay.md, "Differences"):
 * the HTTP status, the media type, where a redirect leads, and the body (JSON by its fields, a page
 * by its title). Volatile values (ids, tokens, hashes, dates) are matched by their role (roles.ts):
 * the sandbox's own id where the file has the one the recorded gateway made is no difference; an
 * answer that names another payment than the one that role stands for is.
 */
export interface Difference {
  /** `status`, `header content-type`, `$.result`, `$.errors[0].error_message`, `page title`. */
  at: string
  /** What the file holds (redacted); undefined when it has nothing there. */
  recorded?: string
  /** What the fresh sandbox answered (redacted). */
  sandbox?: string
  /** Why a volatile value differs (another payment than its role stands for). */
  note?: string
}

export interface Compared {
  status: number
  headers: Record<string, string>
  body: string
}

/** A JSON value as JSON (`"DECLINED"`, `10`, `null`), redacted and cut at 200 characters. */
const show = (v: unknown): string | undefined =>
  v === undefined ? undefined : redactText(JSON.stringify(v)).slice(0, 200)
/** A header, a page title or a non-JSON body as it is, redacted and cut. */
const raw = (v: string | undefined): string | undefined =>
  v === undefined ? undefined : redactText(v).slice(0, 200)

const mediaType = (h: Record<string, string>) =>
  (h['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? ''

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (!/^\s*[[{]/.test(text)) return { ok: false }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

const titleOf = (html: string) => /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]?.trim()

/** Every difference between a recorded answer and the sandbox's, learning the roles its volatile values play. */
export function compareAnswers(
  recorded: RecordedAnswer,
  fresh: Compared,
  roles: RoleMap,
  source: string,
): Difference[] {
  const out: Difference[] = []
  if (recorded.status !== fresh.status)
    out.push({ at: 'status', recorded: String(recorded.status), sandbox: String(fresh.status) })
  const type = mediaType(recorded.headers)
  if (type && mediaType(fresh.headers) && type !== mediaType(fresh.headers))
    out.push({ at: 'header content-type', recorded: type, sandbox: mediaType(fresh.headers) })
  const from = recorded.headers.location
  const to = fresh.headers.location
  if (from !== undefined || to !== undefined) {
    if (from === undefined || to === undefined)
      out.push({ at: 'header location', recorded: raw(from), sandbox: raw(to) })
    else if (
      roles.rewrite(from) !== to &&
      !(roles.learnUrl(from, to, `location of ${source}`) && roles.rewrite(from) === to)
    )
      out.push({ at: 'header location', recorded: raw(from), sandbox: raw(to) })
  }
  const a = parseJson(recorded.body)
  const b = parseJson(fresh.body)
  if (a.ok && b.ok) compareJson(a.value, b.value, '$', '', { roles, source, out })
  else if (a.ok !== b.ok && recorded.body.trim() && fresh.body.trim())
    out.push({
      at: 'body',
      recorded: raw(recorded.body),
      sandbox: raw(fresh.body),
      note: 'one is JSON, the other not',
    })
  else if (!a.ok && type.includes('html')) {
    learnPage(recorded.body, fresh.body, roles, source)
    const ta = titleOf(recorded.body)
    const tb = titleOf(fresh.body)
    if (ta !== undefined && tb !== undefined && ta !== tb)
      out.push({ at: 'page title', recorded: raw(ta), sandbox: raw(tb) })
  } else if (!a.ok && !type.includes('html') && roles.rewrite(recorded.body.trim()) !== fresh.body.trim())
    out.push({ at: 'body', recorded: raw(recorded.body), sandbox: raw(fresh.body) })
  return out
}

/** What a comparison carries along the answer's tree: the roles it learns, where it is, what it found. */
interface Walk {
  roles: RoleMap
  source: string
  out: Difference[]
}

function compareJson(r: unknown, f: unknown, path: string, key: string, walk: Walk): void {
  const { out } = walk
  if (typeof r === 'string' && typeof f === 'string') {
    compareString(r, f, path, key, walk)
    return
  }
  if (Array.isArray(r) && Array.isArray(f)) {
    if (r.length !== f.length)
      out.push({ at: `${path}.length`, recorded: String(r.length), sandbox: String(f.length) })
    for (let i = 0; i < Math.min(r.length, f.length); i++) compareJson(r[i], f[i], `${path}[${i}]`, key, walk)
    return
  }
  if (isObject(r) && isObject(f)) {
    for (const k of new Set([...Object.keys(r), ...Object.keys(f)])) {
      const sub = /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`
      if (!(k in f)) out.push({ at: sub, recorded: show(r[k]), note: 'missing from the sandbox answer' })
      else if (!(k in r)) out.push({ at: sub, sandbox: show(f[k]), note: 'not in the recorded answer' })
      else compareJson(r[k], f[k], sub, k, walk)
    }
    return
  }
  if (JSON.stringify(r) !== JSON.stringify(f)) out.push({ at: path, recorded: show(r), sandbox: show(f) })
}

function compareString(r: string, f: string, path: string, key: string, walk: Walk): void {
  const { roles, source, out } = walk
  if (r === f || roles.rewrite(r) === f) return
  if (dateValues(key, r, f)) return
  const where = `${path} of ${source}`
  if (/^https?:\/\//.test(r) && /^https?:\/\//.test(f)) {
    if (roles.learnUrl(r, f, where) && roles.rewrite(r) === f) return
    out.push({ at: path, recorded: show(r), sandbox: show(f) })
    return
  }
  if (!volatileValues(key, r, f)) {
    out.push({ at: path, recorded: show(r), sandbox: show(f) })
    return
  }
  if (key === 'hash' || key === 'signature') return
  if (roles.learn(r, f, where) !== 'conflict') return
  const stands = roles.freshOf(r)
  out.push({
    at: path,
    recorded: show(r),
    sandbox: show(f),
    note: stands
      ? `the recorded value stands for ${show(stands)} (${roles.sourceOf(r)}), not this one`
      : 'the sandbox answers a value another recorded one already stands for',
  })
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v)

/** A page's forms and hidden fields: where the payer goes next and what it carries (a PaReq, an MD). */
function learnPage(recorded: string, fresh: string, roles: RoleMap, source: string): void {
  const actions = (html: string) =>
    [...html.matchAll(/<form[^>]*action="([^"]*)"/gi)].map((m) => unescapeHtml(m[1] ?? ''))
  const hidden = (html: string) =>
    new Map(
      [...html.matchAll(/<input[^>]*type="hidden"[^>]*>/gi)].flatMap((m) => {
        const name = /name="([^"]*)"/.exec(m[0])?.[1]
        const value = /value="([^"]*)"/.exec(m[0])?.[1]
        return name !== undefined && value !== undefined
          ? [[name, unescapeHtml(value)] as [string, string]]
          : []
      }),
    )
  const ra = actions(recorded)
  const fa = actions(fresh)
  ra.forEach((action, i) => {
    const other = fa[i]
    if (other !== undefined && action !== other) roles.learnUrl(action, other, `a form of ${source}`)
  })
  const rh = hidden(recorded)
  const fh = hidden(fresh)
  for (const [name, value] of rh) {
    const other = fh.get(name)
    if (other !== undefined && other !== value && volatileValues(name, value, other))
      roles.learn(value, other, `${name} in ${source}`)
  }
}

const unescapeHtml = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
