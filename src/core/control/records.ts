import type { SandboxPaymentsQuery } from '../../generated/types.js'
import type { EngineContext } from '../engine/context.js'
import { jsonResponse } from '../engine/http.js'
import type { RouteDefinition } from '../engine/modules.js'
import { declareControlRoute } from '../engine/pipeline.js'
import type { Payment } from '../engine/model.js'
import { requirePayment } from './support-payer.js'
import { listingResponse, listingWindow } from '../engine/control-listing.js'

/**
 * The payments as the store holds them (cards masked, never a full number), for the CLI and the
 * terminal UI. Every merchant's records are visible here: the control API is the sandbox
 * operator's view, the admin panel's role, never a merchant's.
 */
export function recordRoutes(ctx: EngineContext): RouteDefinition[] {
  return [
    declareControlRoute<SandboxPaymentsQuery>({
      method: 'GET',
      path: '/sandbox/payments',
      summary:
        'Payments, newest first, filtered by merchant, order, payment, status, method, API and time, with full-text search of payment and order ids',
      pipeline: { query: 'sandbox/payments-query' },
      response: 'control/payments-response',
      handler: ({ input: query }) => {
        const page = Number(query.page ?? 1)
        const perPage = Number(query.per_page ?? 20)
        // Filtered, sorted and paged by the store's indexes: no payment is read but the page's.
        return listingResponse(
          ctx,
          'payments',
          'payments',
          {
            where: {
              merchant_key: query.merchant,
              order_id: query.order_id,
              id: query.payment_id,
              status: query.status,
              method: query.method,
              api: query.api,
            },
            ...listingWindow(query, page, perPage),
          },
          ['id', 'order_id'],
          page,
          perPage,
        )
      },
    }),
    declareControlRoute<undefined, Payment>({
      method: 'GET',
      path: '/sandbox/payments/:id',
      summary: 'One payment with its transactions',
      pipeline: { load: (c, params) => requirePayment(c, params.id) },
      response: 'control/payment-response',
      handler: ({ loaded: payment }) => {
        const transactions = ctx.store
          .findBy('transactions', 'payment_id', payment.id)
          .sort((a, b) => a.created_at - b.created_at)
        const session = payment.session_id ? ctx.store.get('sessions', payment.session_id) : undefined
        return jsonResponse(200, { payment, transactions, ...(session ? { session } : {}) })
      },
    }),
  ]
}
