import type { SandboxPaymentsQuery } from '../../generated/types.js'
import type { EngineContext } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import { jsonResponse } from '../engine/http.js'
import type { Payment } from '../engine/model.js'
import type { RouteDefinition } from '../engine/modules.js'
import { validated } from '../engine/request-validation.js'

const newestFirst = (a: { created_at: number }, b: { created_at: number }) => b.created_at - a.created_at

/**
 * The payments as the store holds them (cards masked, never a full number), for the CLI and the
 * terminal UI. Every merchant's records are visible here: the control API is the sandbox
 * operator's view, the admin panel's role, never a merchant's.
 */
export function recordRoutes(ctx: EngineContext): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/sandbox/payments',
      summary: 'Payments, newest first, filtered by merchant, order or status',
      query: 'sandbox/payments-query.schema.json',
      api: 'sandbox',
      handler: ({ request }) => {
        const query = validated<SandboxPaymentsQuery>('sandbox/payments-query', { ...request.query })
        const page = Number(query.page ?? 1)
        const perPage = Number(query.per_page ?? 20)
        const found = select(ctx, query).sort(newestFirst)
        return jsonResponse(200, {
          payments: found.slice((page - 1) * perPage, page * perPage),
          page,
          per_page: perPage,
          total: found.length,
        })
      },
    },
    {
      method: 'GET',
      path: '/sandbox/payments/:id',
      summary: 'One payment with its transactions',
      api: 'sandbox',
      handler: ({ params }) => {
        const payment = ctx.store.get('payments', params.id ?? '')
        if (!payment) throw fail('SANDBOX_PAYMENT_NOT_FOUND')
        const transactions = ctx.store
          .findBy('transactions', 'payment_id', payment.id)
          .sort((a, b) => a.created_at - b.created_at)
        const session = payment.session_id ? ctx.store.get('sessions', payment.session_id) : undefined
        return jsonResponse(200, { payment, transactions, ...(session ? { session } : {}) })
      },
    },
  ]
}

function select(ctx: EngineContext, query: SandboxPaymentsQuery): Payment[] {
  // Start from an index where there is one, so a large store is not scanned for one order.
  let found = query.order_id
    ? ctx.store.findBy('payments', 'order_id', query.order_id)
    : query.merchant
      ? ctx.store.findBy('payments', 'merchant_key', query.merchant)
      : ctx.store.list('payments')
  if (query.merchant) found = found.filter((p) => p.merchant_key === query.merchant)
  if (query.status) found = found.filter((p) => p.status === query.status)
  return found
}
