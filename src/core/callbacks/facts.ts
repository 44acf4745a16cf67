import type { EngineContext, SandboxMerchant, SandboxMid } from '../engine/context.js'
import type { Payment, Session } from '../engine/model.js'

/** Everything a callback or a redirect of one payment is made from. */
export interface PaymentFacts {
  payment: Payment
  merchant: SandboxMerchant
  mid?: SandboxMid
  session?: Session
  /** The Checkout session request as validated (`{}` for S2S payments). */
  request: Record<string, unknown>
  /** The payment itself: the fields set by the S2S APIs and the acquirer (action, ARN, RRN, ...). */
  extras: Payment
  /** Where the sandbox is reached (payer-step URLs in S2S 3DS callbacks). */
  baseUrl: string
}

export function gatherFacts(ctx: EngineContext, payment: Payment, merchant: SandboxMerchant): PaymentFacts {
  const session = payment.session_id ? ctx.store.get('sessions', payment.session_id) : undefined
  const mid = merchant.mids.find((m) => m.id === payment.mid_id)
  return {
    payment,
    merchant,
    ...(mid ? { mid } : {}),
    ...(session ? { session } : {}),
    request: session?.request ?? {},
    extras: payment,
    baseUrl: ctx.baseUrl,
  }
}

export const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined

export const obj = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined

/** Paid with a saved card: a token in the request, as opposed to a token the payment created (`req_token`). */
export const paidWithToken = (facts: PaymentFacts): boolean =>
  facts.extras.token_used === true || str(facts.request.card_token) !== undefined

export const isDebit = (payment: Payment): boolean => payment.operation === 'debit'

export const isSecondary = (payment: Payment): boolean => Boolean(payment.recurring?.parent_payment_id)

/** The payer IP: given (`customer.ip`) or recorded by the gateway. */
export function customerIp(facts: PaymentFacts): string | undefined {
  return (
    str(facts.payment.customer_ip) ??
    str(facts.session?.customer_ip) ??
    str(obj(facts.request.customer)?.ip) ??
    str(facts.request.payer_ip)
  )
}

/**
 * Where the callback goes: an S2S request's own `callback_url`, else the merchant's
 * notification_url; undefined when there is neither (docs/rules.md#callback-destination: "none and no `callback_url`
 * means no callbacks for that payment, ever").
 */
export const callbackUrl = (facts: PaymentFacts): string | undefined =>
  (facts.payment.api !== 'checkout' ? str(facts.extras.callback_url) : undefined) ??
  str(facts.merchant.notification_url)
