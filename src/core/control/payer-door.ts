import type { SandboxApmOutcomeRequest, SandboxThreeDsRequest } from '../../generated/types.js'
import type { ApmOutcome } from '../apm/types.js'
import { applyApmOutcome } from '../apm/outcomes.js'
import { payerSession } from '../sessions/session-access.js'
import type { EngineContext } from '../engine/context.js'
import { type GatewayResponse, IN_PROCESS, type IncomingRequest, jsonResponse } from '../engine/http.js'
import type { Payment } from '../engine/model.js'
import type { RouteDefinition } from '../engine/modules.js'
import { none } from '../engine/pipeline.js'
import { validated } from '../engine/request-validation.js'
import { completeRedirect, completeThreeDs, payWithCard } from '../payments/payer.js'

/**
 * The payer's actions as in-process routes (EngineModule `inProcessRoutes`): the library's
 * `sandbox.payer` and the kit's in-process payer send these through `gateway.handle`, so a payer
 * action runs in the one request lifecycle like every other change (one unit of work, committed
 * whole or not at all, 503 when the store cannot persist, events after the commit). Refusals use
 * the Checkout envelope, as the Hosted Payment Fields endpoint answers its payer. No adapter can
 * reach them: they are not HTTP endpoints.
 */

/** Where a payment stands after a payer action: `{payment_id, status, redirect_url?, reason?}`. */
export const payerView = (payment: Payment, redirectUrl?: string) => ({
  payment_id: payment.id,
  status: payment.status,
  ...(redirectUrl ? { redirect_url: redirectUrl } : {}),
  ...(payment.decline_reason ? { reason: payment.decline_reason } : {}),
})

const WHY =
  'in-process payer action: the caller holds the gateway; the engine operation checks the card and the payment'

export function payerDoorRoutes(ctx: EngineContext): RouteDefinition[] {
  const route = (path: string, handler: RouteDefinition['handler']): RouteDefinition => ({
    method: 'POST',
    path,
    api: 'checkout',
    declared: none(WHY),
    handler,
  })
  return [
    // `?operation=purchase|debit`: the endpoint the payer uses, which must match the session's.
    route('/in-process/payer/sessions/:token/card', ({ params, body, request }) => {
      const operation = request.query.operation
      const { payment, redirect_url } = payWithCard(
        ctx,
        payerSession(ctx, params.token ?? ''),
        body,
        operation === 'purchase' || operation === 'debit' ? { operation } : {},
      )
      return jsonResponse(200, payerView(payment, redirect_url))
    }),
    route('/in-process/payer/payments/:id/3ds', ({ params, body }) => {
      const { result } = validated<SandboxThreeDsRequest>('sandbox/three-ds-request', body)
      return jsonResponse(200, payerView(completeThreeDs(ctx, params.id ?? '', result)))
    }),
    route('/in-process/payer/payments/:id/redirect', ({ params }) =>
      jsonResponse(200, payerView(completeRedirect(ctx, params.id ?? ''))),
    ),
    route('/in-process/payer/payments/:id/apm', ({ params, body }) => {
      const { outcome, reason } = validated<SandboxApmOutcomeRequest>('sandbox/apm-outcome-request', body)
      return jsonResponse(200, payerView(applyApmOutcome(ctx, params.id ?? '', outcome, reason)))
    }),
  ]
}

/** One payer action, as the library's and the kit's payer ask for it. */
export type PayerAction =
  | { kind: 'card'; token: string; body: Record<string, unknown>; operation?: 'purchase' | 'debit' }
  | { kind: '3ds'; paymentId: string; result: 'pass' | 'fail' }
  | { kind: 'redirect'; paymentId: string }
  | { kind: 'apm'; paymentId: string; outcome: ApmOutcome; reason?: string }

/** What `gateway.handle` answered a payer action: the status and its JSON body. */
export interface PayerActionAnswer {
  status: number
  body: Record<string, unknown>
}

/** The in-process request of a payer action: its route's path, query and JSON body. */
export function payerActionRequest(action: PayerAction): {
  path: string
  query: Record<string, string>
  body: Record<string, unknown>
} {
  const id = (paymentId: string) => encodeURIComponent(paymentId)
  switch (action.kind) {
    case 'card':
      return {
        path: `/in-process/payer/sessions/${encodeURIComponent(action.token)}/card`,
        query: action.operation ? { operation: action.operation } : {},
        body: action.body,
      }
    case '3ds':
      return {
        path: `/in-process/payer/payments/${id(action.paymentId)}/3ds`,
        query: {},
        body: { result: action.result },
      }
    case 'redirect':
      return { path: `/in-process/payer/payments/${id(action.paymentId)}/redirect`, query: {}, body: {} }
    case 'apm':
      return {
        path: `/in-process/payer/payments/${id(action.paymentId)}/apm`,
        query: {},
        body: { outcome: action.outcome, ...(action.reason !== undefined ? { reason: action.reason } : {}) },
      }
  }
}

/**
 * Sends a payer action through the gateway's one door (`handle`, marked `IN_PROCESS`): the
 * in-process route above runs it in its own unit of work.
 */
export async function sendPayerAction(
  gateway: { handle(request: IncomingRequest): Promise<GatewayResponse> },
  action: PayerAction,
): Promise<PayerActionAnswer> {
  const { path, query, body } = payerActionRequest(action)
  const response = await gateway.handle({
    method: 'POST',
    path,
    query,
    headers: { 'content-type': 'application/json' },
    body: new TextEncoder().encode(JSON.stringify(body)),
    door: IN_PROCESS,
  })
  let parsed: Record<string, unknown>
  try {
    parsed = JSON.parse(response.body) as Record<string, unknown>
  } catch {
    parsed = { text: response.body.slice(0, 300) }
  }
  return { status: response.status, body: parsed }
}
