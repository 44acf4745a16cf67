import type { SandboxApmOutcomeRequest } from '../../generated/types.js'
import { s2sStatus } from '../engine/format.js'
import { jsonResponse } from '../engine/http.js'
import type { EngineModule } from '../engine/modules.js'
import { declareControlRoute } from '../engine/pipeline.js'
import { applyApmOutcome } from './outcomes.js'
import { payerStepOf } from './payer-step.js'

/**
 * Control API for the simulated APM connector (docs/rules.md#test-data (sandbox): "the payer (or a
 * scenario) chooses the outcome ... approve, decline, leave pending, or let it expire"; §6:
 * "payer actions"). Under `/sandbox/...` only; any payment id is reachable here, as the control
 * API is the operator's view, never a merchant's.
 *
 * - `GET  /sandbox/payments/:id/apm`: what the simulator page shows (`PayerStep`).
 * - `POST /sandbox/payments/:id/apm` `{"outcome": "approve"|"decline"|"pending"|"expire", "reason"?}`:
 *   answers `{payment_id, status, api_status, decline_reason?}` after the move.
 */
export const apmControlModule: EngineModule = {
  name: 'apm-control',
  routes: (ctx) => [
    declareControlRoute({
      method: 'GET',
      path: '/sandbox/payments/:id/apm',
      summary:
        "What an APM payment's simulator page shows: the method's view, fields to collect, allowed outcomes",
      pipeline: {},
      response: 'control/payer-step-response',
      handler: ({ params }) => jsonResponse(200, payerStepOf(ctx, params.id ?? '')),
    }),
    declareControlRoute<SandboxApmOutcomeRequest>({
      method: 'POST',
      path: '/sandbox/payments/:id/apm',
      summary:
        'Choose the outcome of an APM payment on its simulator page: approve, decline, pending or expire',
      pipeline: { schema: 'sandbox/apm-outcome-request' },
      response: 'control/payer-answer-response',
      handler: ({ params, input: request }) => {
        // The one engine operation of every approval (page, control API, kit, console): a card-flow
        // wallet payment that initializes a chain gets its recurring token here as on the page.
        const payment = applyApmOutcome(ctx, params.id ?? '', request.outcome, request.reason)
        return jsonResponse(200, {
          payment_id: payment.id,
          status: payment.status,
          // The status as the payment's own API spells it (S2S: upper case, DECLINED).
          api_status: payment.api === 'checkout' ? payment.status : s2sStatus(payment.status),
          ...(payment.status === 'decline' && payment.decline_reason
            ? { decline_reason: payment.decline_reason }
            : {}),
        })
      },
    }),
  ],
}
