/**
 * Volatile values matched by their role, not their value (docs/replay.md): the recorded gateway
 * answered `payment_id` a1…, the fresh sandbox answers b2… for the same request; from then on a1…
 * in the file stands for b2…, in the requests sent (a refund of a1… is sent as a refund of b2…) and
 * in the answers compared (an answer naming a1… where the sandbox names b2… is the same answer).
 */

export interface Role {
  fresh: string
  /** Where it was first answered: `$.payment_id of step 2`. */
  source: string
}

/** Keys whose values are made by the gateway (ids, tokens, references) or change on every run (dates, hashes). */
const ID_KEYS =
  /^(id|payment_id|trans_id|token|card_token|recurring_token|recurring_init_trans_id|recurring_first_trans_id|init_trans_id|schedule_id|creditvoid_id|transaction_id|session_id|arn|rrn|auth_code|approval_code|md|pareq|pa_req|hash|signature|redirect_url|url|location)$/i
const DATE_KEYS = /(^|_)(date|datetime|time|timestamp)$|_at$|^date$/i

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const RANDOM = /^[A-Za-z0-9_-]{16,}$/
const HEX = /^[0-9a-f]{32,}$/i
const DATE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/
/** A role placeholder a redacted capture holds instead of a token (`[token-2]`, `[removed]`). */
const PLACEHOLDER = /^\[[a-z0-9-]+\]$/

export const isDate = (v: string) => DATE.test(v) || HTTP_DATE.test(v)
const looksMade = (v: string) => UUID.test(v) || HEX.test(v) || RANDOM.test(v) || PLACEHOLDER.test(v)

/** Whether two differing values at `key` are the same role: ids, tokens, references, hashes. */
export function volatileValues(key: string, recorded: string, fresh: string): boolean {
  if (ID_KEYS.test(key)) return true
  return looksMade(recorded) && looksMade(fresh)
}

/** Whether two differing values at `key` are dates (compared by their form only). */
export function dateValues(key: string, recorded: string, fresh: string): boolean {
  const shape = (v: string) => v.replace(/\d/g, '0')
  return (DATE_KEYS.test(key) || isDate(recorded)) && isDate(fresh) && shape(recorded) === shape(fresh)
}

const MIN_LENGTH = 6

export class RoleMap {
  private readonly roles = new Map<string, Role>()
  private readonly taken = new Set<string>()

  get size(): number {
    return this.roles.size
  }

  freshOf(recorded: string): string | undefined {
    return this.roles.get(recorded)?.fresh
  }

  sourceOf(recorded: string): string | undefined {
    return this.roles.get(recorded)?.source
  }

  /**
   * Pairs a recorded value with the sandbox's: `same` when already so paired (or equal), `new` the
   * first time, `conflict` when either is already paired with another value.
   */
  learn(recorded: string, fresh: string, source: string): 'same' | 'new' | 'conflict' {
    if (recorded === fresh) return 'same'
    const known = this.roles.get(recorded)
    if (known) return known.fresh === fresh ? 'same' : 'conflict'
    if (this.taken.has(fresh) || (recorded.length < MIN_LENGTH && !PLACEHOLDER.test(recorded)))
      return 'conflict'
    this.roles.set(recorded, { fresh, source })
    this.taken.add(fresh)
    return 'new'
  }

  /** A URL's path segments and query values, paired by position with another URL's (a token in `/auth/<token>`). */
  learnUrl(recorded: string, fresh: string, source: string): boolean {
    let a: URL
    let b: URL
    try {
      a = new URL(recorded, 'http://relative.invalid')
      b = new URL(fresh, 'http://relative.invalid')
    } catch {
      return false
    }
    const sa = a.pathname.split('/')
    const sb = b.pathname.split('/')
    if (sa.length !== sb.length) return false
    let ok = true
    sa.forEach((seg, i) => {
      const other = sb[i] as string
      if (seg === other) return
      const ra = safeDecode(seg)
      const rb = safeDecode(other)
      if (!(looksMade(ra) || PLACEHOLDER.test(ra)) || this.learn(ra, rb, source) === 'conflict') ok = false
    })
    for (const [name, value] of a.searchParams) {
      const other = b.searchParams.get(name)
      if (other === null) ok = false
      else if (other !== value && !isDate(value) && this.learn(value, other, source) === 'conflict')
        ok = false
    }
    return ok
  }

  /**
   * A text with every recorded value replaced by the sandbox's, as written and URL-encoded
   * (`[token-1]` is `%5Btoken-1%5D` in a path or a form), longest first so no value is cut.
   */
  rewrite(text: string): string {
    if (!this.roles.size || !text) return text
    let out = text
    const keys = [...this.roles.keys()].sort((x, y) => y.length - x.length)
    for (const recorded of keys) {
      const fresh = (this.roles.get(recorded) as Role).fresh
      if (out.includes(recorded)) out = out.split(recorded).join(fresh)
      const encoded = encodeURIComponent(recorded)
      if (encoded !== recorded && out.includes(encoded))
        out = out.split(encoded).join(encodeURIComponent(fresh))
    }
    return out
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
