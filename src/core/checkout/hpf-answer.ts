import { redirectFor } from '../callbacks/redirect.js'
import type { EngineContext } from '../engine/context.js'
import type { Payment } from '../engine/model.js'

/** docs/rules.md#hosted-payment-fields: "`result: success|decline|redirect|waiting|undefined`". */
export type HostedFieldsResult = 'success' | 'decline' | 'redirect' | 'waiting' | 'undefined'

export interface HostedFieldsAnswer {
  result: HostedFieldsResult
  payment_id: string
  /** (sandbox) The Checkout status too, so a client may read either. */
  status: Payment['status']
  redirect_url?: string
  redirect_params?: { name: string; value: string }[]
  redirect_method?: 'GET' | 'POST'
  return_url_query_params?: Record<string, string>
  decline_message?: string
  /** (sandbox) The earlier name of decline_message. */
  reason?: string
}

const RESULT: Partial<Record<Payment['status'], HostedFieldsResult>> = {
  settled: 'success',
  pending: 'success',
  decline: 'decline',
  '3ds': 'redirect',
  redirect: 'redirect',
  prepare: 'waiting',
}

/**
 * The answer to a Hosted Payment Fields payment request (docs/rules.md#sessions; HPF 1.0.0 from
 * the platform's white-label SDKs): `result`, `payment_id`, and for a payer step the page to send
 * the payer to (`redirect_url`, GET, no parameters in the sandbox), the parameters the merchant's
 * `return_url` will receive (`return_url_query_params`: payment_id, trans_id, order_id, hash), the
 * decline message. The outcome also comes by callback, as for every Checkout payment.
 */
export function hostedFieldsAnswer(
  ctx: EngineContext,
  payment: Payment,
  redirectUrl: string | undefined,
): HostedFieldsAnswer {
  const result = RESULT[payment.status] ?? 'undefined'
  const back = redirectFor(ctx, payment, payment.status === 'decline' ? 'error' : 'success')
  return {
    result,
    payment_id: payment.id,
    status: payment.status,
    ...(result === 'redirect' && redirectUrl
      ? { redirect_url: redirectUrl, redirect_params: [], redirect_method: 'GET' as const }
      : {}),
    ...(back ? { return_url_query_params: back.params } : {}),
    ...(payment.decline_reason
      ? { decline_message: payment.decline_reason, reason: payment.decline_reason }
      : {}),
  }
}
