import { GatewayError, errorEntry } from './errors.js'

/**
 * docs/rules.md#warnings: a request the platform's documents describe differently, but that the
 * platform may still accept, is served and answered with one `Sandbox-Warning` header per point.
 * Under `serve --strict` (config `strict: true`, docs/rules.md#strict) the same point is refused
 * as a field error instead.
 */

/**
 * The anchors of docs/rules.md a warning may name: the rules whose platform forms are served with
 * a warning. The rule-citations test checks that each exists in the rule book.
 */
export const WARNING_RULES = ['amounts', 'booleans', 'null-objects', 'hosted-payment-fields'] as const
export type WarningRule = (typeof WARNING_RULES)[number]

export interface SandboxWarning {
  /** The field as the platform writes its path (`order.amount`, `order_amount`, `card_token`). */
  field: string
  /** What was sent, in a few words ("2 decimals expected for USD, got 25"). */
  sent: string
  /** What the platform documents. */
  documented: string
  /**
   * The rule, by its anchor in the project's rule book, then where the platform documents it:
   * "docs/rules.md#amounts (Checkout 6.6.2 order.amount)".
   */
  source: `docs/rules.md#${WarningRule}${'' | ` (${string})`}`
}

interface Scope {
  strict: boolean
  warnings: SandboxWarning[]
}

let current: Scope | undefined

/**
 * Records a warning on the request being handled. The gateway runs each request's validation and
 * operation synchronously inside one scope, so a module-level scope is exact: no other request
 * can run in between. Outside a request (a scheduled charge) a warning has nobody to go to and is
 * dropped.
 */
export function warn(warning: SandboxWarning): void {
  if (!current) return
  if (current.strict) {
    const envelope = errorEntry('REQUEST_DATA_INVALID')
    throw new GatewayError(
      envelope,
      [
        {
          error_code: envelope.error_code,
          error_message: `${warning.field}: ${warning.sent}; the platform documents ${warning.documented} (${warning.source}).`,
        },
      ],
      undefined,
      { rule: warningRule(warning), fields: [warning.field] },
    )
  }
  if (!current.warnings.some((w) => w.field === warning.field && w.documented === warning.documented))
    current.warnings.push(warning)
}

/** The rule a warning names (`docs/rules.md#amounts (…)` → `amounts`): under --strict, the refusal's rule. */
export function warningRule(w: SandboxWarning): WarningRule {
  // `source` is typed `docs/rules.md#${WarningRule}…`: its anchor is always one of them.
  return w.source.slice('docs/rules.md#'.length).split(' ')[0] as WarningRule
}

/** Runs `fn` with a fresh warning scope; returns its result and the warnings it raised. */
export function withWarnings<T>(strict: boolean, fn: () => T): { value: T; warnings: SandboxWarning[] } {
  const outer = current
  const scope: Scope = { strict, warnings: [] }
  current = scope
  try {
    return { value: fn(), warnings: scope.warnings }
  } finally {
    current = outer
  }
}

/** One header value per warning: `field: sent; documented: …; source: …` (ASCII, no line breaks). */
export function warningHeader(w: SandboxWarning): string {
  return `${w.field}: ${w.sent}; documented: ${w.documented}; source: ${w.source}`.replace(
    /[^\x20-\x7e]/g,
    '?',
  )
}

/**
 * The parts of a `Sandbox-Warning` header (`warningHeader`), for a reader of the answer (the
 * conformance kit); undefined for a header of another form.
 */
export function parseWarningHeader(
  value: string,
): (Omit<SandboxWarning, 'source'> & { source: string }) | undefined {
  const [head = '', ...rest] = value.split('; documented: ')
  const colon = head.indexOf(': ')
  const tail = rest.join('; documented: ')
  const at = tail.lastIndexOf('; source: ')
  if (colon < 0 || at < 0) return undefined
  return {
    field: head.slice(0, colon),
    sent: head.slice(colon + 2),
    documented: tail.slice(0, at),
    source: tail.slice(at + '; source: '.length),
  }
}
