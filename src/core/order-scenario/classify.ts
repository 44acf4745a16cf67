import type { RequestRecord } from '../request-log/types.js'

/**
 * What a logged request was, for an order's story: the merchant starting a payment, its back
 * office acting on it (the kit's `merchant_action` hook), a lookup, another merchant request, a
 * payer's step, or something the kit has no step for.
 */
export type Role =
  | { kind: 'start'; api: 'checkout' | 's2s-card' | 's2s-apm'; hostedFields?: boolean; operation?: string }
  | { kind: 'action'; action: 'capture' | 'refund' | 'void' | 'recurring' }
  | { kind: 'lookup' }
  /** A request of the merchant that no hook asks for (a Hosted Payment Fields payment, a session update). */
  | { kind: 'request' }
  | { kind: 'payer'; payer: 'card' | '3ds' | 'redirect' | 'apm' }
  | { kind: 'unplayable'; why: string }
  | { kind: 'ignored' }

const S2S_STARTS = new Set([
  'SALE',
  'AUTH',
  'DEBIT',
  'CREDIT2CARD',
  'CARD2CARD',
  'DEBIT2VIRTUAL',
  'CREDIT2VIRTUAL',
  'CREDIT2CRYPTO',
])
const S2S_ACTIONS: Record<string, 'capture' | 'refund' | 'void' | 'recurring'> = {
  CAPTURE: 'capture',
  CREDITVOID: 'refund',
  VOID: 'void',
  RECURRING_SALE: 'recurring',
  RECURRING_DEBIT: 'recurring',
}
const LOOKUPS = new Set(['GET_TRANS_STATUS', 'GET_TRANS_STATUS_BY_ORDER', 'GET_TRANS_DETAILS'])
const CHECKOUT_ACTIONS: Record<string, 'capture' | 'refund' | 'void' | 'recurring'> = {
  '/api/v1/payment/capture': 'capture',
  '/api/v1/payment/refund': 'refund',
  '/api/v1/payment/void': 'void',
  '/api/v1/payment/recurring': 'recurring',
}

const bodyOf = (r: RequestRecord) => (r.request.body ?? {}) as Record<string, unknown>

export function roleOf(r: RequestRecord): Role {
  const body = bodyOf(r)
  const route = r.route ?? ''
  if (r.api === 'checkout') {
    if (route === '/api/v1/session') return { kind: 'start', api: 'checkout' }
    if (route === '/api/v1/session/token') return { kind: 'start', api: 'checkout', hostedFields: true }
    if (route === '/api/v1/payment/card/credit')
      return { kind: 'start', api: 'checkout', operation: 'credit' }
    if (route === '/api/v1/payment/status') return { kind: 'lookup' }
    // The payer's card frame sends the fields into the session (collectIframesData): the payer's
    // browser, not the merchant's backend. The kit plays it within merchant.start `hosted_fields`,
    // whose outcome the card's expiry gives (steps.ts), so it is no step of its own.
    if (route === '/sdk/hosted-fields/:token/collect') return { kind: 'ignored' }
    const action = CHECKOUT_ACTIONS[route]
    return action ? { kind: 'action', action } : { kind: 'request' }
  }
  if (r.api === 's2s-card' || r.api === 's2s-apm') {
    const action = typeof body.action === 'string' ? body.action : ''
    const api = r.api === 's2s-apm' || typeof body.brand === 'string' ? 's2s-apm' : 's2s-card'
    if (S2S_STARTS.has(action)) return { kind: 'start', api, operation: action }
    if (LOOKUPS.has(action)) return { kind: 'lookup' }
    const follow = S2S_ACTIONS[action]
    return follow ? { kind: 'action', action: follow } : { kind: 'request' }
  }
  if (r.method !== 'POST') return { kind: 'ignored' }
  if (route === '/auth/:token/pay' || route === '/sandbox/sessions/:token/card')
    return r.payment_ids.length ? { kind: 'payer', payer: 'card' } : { kind: 'ignored' }
  if (route === '/acs/:paymentId' || route === '/sandbox/payments/:id/3ds')
    return body.result === 'pass' || body.result === 'fail'
      ? { kind: 'payer', payer: '3ds' }
      : { kind: 'ignored' }
  if (route === '/redirect-sim/:paymentId' || route === '/sandbox/payments/:id/redirect')
    return { kind: 'payer', payer: 'redirect' }
  if (route === '/apm/:paymentId/outcome' || route === '/sandbox/payments/:id/apm')
    return typeof body.outcome === 'string' ? { kind: 'payer', payer: 'apm' } : { kind: 'ignored' }
  if (route === '/auth/:token/cancel')
    return {
      kind: 'unplayable',
      why: 'the payer cancelled on the hosted page (the kit has no payer step for it)',
    }
  if (route === '/auth/:token/method/:id')
    return {
      kind: 'unplayable',
      why: 'the payer chose an alternative method on the hosted page (the kit has no payer step for it)',
    }
  if (route === '/sandbox/callbacks/:id/replay')
    return { kind: 'unplayable', why: 'a callback was sent again from the console' }
  return { kind: 'ignored' }
}

/** The gateway accepted it: HTTP 2xx and no error envelope (Checkout `error_code`, S2S `result: ERROR`). */
export function accepted(r: RequestRecord): boolean {
  if (r.response.status < 200 || r.response.status > 299) return false
  const text = r.response.body ?? ''
  if (!text.startsWith('{')) return true
  try {
    const json = JSON.parse(text) as Record<string, unknown>
    return !('error_code' in json) && json.result !== 'ERROR'
  } catch {
    return true
  }
}
