import type {
  SandboxPayerCardRequest,
  SandboxPayerReturnRequest,
  SandboxThreeDsRequest,
} from '../../generated/types.js'
import type { EngineContext } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import { s2sStatus } from '../engine/format.js'
import { jsonResponse } from '../engine/http.js'
import type { Payment, Session } from '../engine/model.js'
import type { RouteDefinition } from '../engine/modules.js'
import { declareControlRoute } from '../engine/pipeline.js'
import { payerSession } from '../sessions/session-access.js'
import { completeRedirect, completeThreeDs, payWithCard } from '../payments/payer.js'

/** Any payment, whatever its merchant: the control API is the operator's view (docs/rules.md#beyond-the-interface). */
export function requirePayment(ctx: EngineContext, id: string | undefined): Payment {
  const payment = id ? ctx.store.get('payments', id) : undefined
  if (!payment) throw fail('SANDBOX_PAYMENT_NOT_FOUND')
  return payment
}

/** The same answer as the APM control route, so the console reads every payer action alike. */
export const payerAnswer = (payment: Payment) => ({
  payment_id: payment.id,
  status: payment.status,
  api_status: payment.api === 'checkout' ? payment.status : s2sStatus(payment.status),
  ...(payment.status === 'decline' && payment.decline_reason
    ? { decline_reason: payment.decline_reason }
    : {}),
})

/**
 * The card payer's steps as control routes (docs/rules.md#control-api: "payer actions"), so the terminal UI
 * and scripts can finish a 3DS or redirect payment without a browser. They call the same engine
 * operations as the ACS and redirect pages (payments/payer.ts).
 */
export function payerRoutes(ctx: EngineContext): RouteDefinition[] {
  return [
    declareControlRoute<SandboxPayerCardRequest, Session>({
      method: 'POST',
      path: '/sandbox/sessions/:token/card',
      summary:
        'The payer pays a Checkout session by card, as on its hosted page (the page token of redirect_url, or a Hosted Payment Fields session token); answers as the Hosted Payment Fields payment does',
      pipeline: {
        schema: 'sandbox/payer-card-request',
        load: (c, params) => payerSession(c, params.token ?? ''),
      },
      response: 'control/payer-card-response',
      handler: ({ input: card, loaded: session }) => {
        const { payment, redirect_url } = payWithCard(ctx, session, { ...card })
        return jsonResponse(200, {
          payment_id: payment.id,
          status: payment.status,
          ...(redirect_url ? { redirect_url } : {}),
          ...(payment.decline_reason ? { reason: payment.decline_reason } : {}),
        })
      },
    }),
    declareControlRoute<SandboxThreeDsRequest, Payment>({
      method: 'POST',
      path: '/sandbox/payments/:id/3ds',
      summary: "The payer's 3DS result for a card payment in status 3ds: pass (the card's outcome) or fail",
      pipeline: { schema: 'sandbox/three-ds-request', load: (c, params) => requirePayment(c, params.id) },
      response: 'control/payer-answer-response',
      handler: ({ input: { result }, loaded: payment }) =>
        jsonResponse(200, payerAnswer(completeThreeDs(ctx, payment.id, result))),
    }),
    declareControlRoute<SandboxPayerReturnRequest, Payment>({
      method: 'POST',
      path: '/sandbox/payments/:id/redirect',
      summary: 'The payer comes back from the redirect page of a card payment in status redirect',
      pipeline: { schema: 'sandbox/payer-return-request', load: (c, params) => requirePayment(c, params.id) },
      response: 'control/payer-answer-response',
      handler: ({ loaded: payment }) => jsonResponse(200, payerAnswer(completeRedirect(ctx, payment.id))),
    }),
  ]
}
