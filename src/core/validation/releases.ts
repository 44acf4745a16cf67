import type { FieldError } from './validate.js'

/**
 * docs/rules.md#releases: "a merchant's `release` is `6.7.0` (default) or `6.6.5`. With `6.6.5` the
 * sandbox applies the rules the interface's 6.7.0 row changed ... the additions of 6.7.0 are
 * refused there." The interface's Versioning row lists the additions; those a request carries as
 * fields are refused here, each at its path, with the form's own message for a field it does not
 * know. The rules 6.7.0 changed (not-found codes, `delays`, S2S payer address, payment mode) are
 * applied where each answer is made, through `releaseOf`.
 */
export type Release = '6.7.0' | '6.6.5'

export const RELEASES: readonly Release[] = ['6.7.0', '6.6.5']

export const releaseOf = (merchant: { release?: string } | undefined): Release =>
  merchant?.release === '6.6.5' ? '6.6.5' : '6.7.0'

/** Versioning, 6.7.0 "Additions", as request fields (dot paths), per request schema. */
export const ADDED_IN_6_7_0: Readonly<Record<string, readonly string[]>> = {
  // MOTO; trial periods (schedule_start_date, payment_schedule_amount); `auth` in Checkout
  'checkout/session-request': ['auth', 'moto_type', 'schedule_start_date', 'payment_schedule_amount'],
  // the same, plus `customer.ip` (session-token only)
  'checkout/session-token-request': [
    'auth',
    'moto_type',
    'schedule_start_date',
    'payment_schedule_amount',
    'customer.ip',
  ],
  // `size` parameter
  'checkout/status-request': ['size'],
  // `custom_data` on secondary requests
  'checkout/recurring-request': ['custom_data'],
  // `parameters` on capture/void/refund
  'checkout/capture-request': ['parameters'],
  'checkout/void-request': ['parameters'],
  'checkout/refund-request': ['parameters'],
}

/** Routes 6.7.0 added: answered as unknown for a 6.6.5 merchant (session update, Hosted Payment Fields debit). */
export const ROUTES_ADDED_IN_6_7_0: readonly string[] = [
  'PUT /api/v1/session/update',
  'POST /api/v1/processing/debit/card',
]

const MESSAGE = 'This field was not expected.'

function has(body: Record<string, unknown>, path: string): boolean {
  let node: unknown = body
  for (const part of path.split('.')) {
    if (!node || typeof node !== 'object' || !(part in (node as Record<string, unknown>))) return false
    node = (node as Record<string, unknown>)[part]
  }
  return node !== undefined
}

/** The 6.7.0 additions a request carries, as field errors, for a merchant pinned to 6.6.5. */
export function releaseProblems(
  release: Release,
  schema: string,
  body: Record<string, unknown>,
): FieldError[] {
  if (release !== '6.6.5') return []
  const added = ADDED_IN_6_7_0[schema.replace(/\.schema\.json$/, '')] ?? []
  return added
    .filter((path) => has(body, path))
    .map((path) => ({
      path,
      message: MESSAGE,
      section: 'Versioning',
      keyword: 'release',
      rule: 'releases' as const,
    }))
}
