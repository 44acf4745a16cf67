import { declareControlRoute } from '../engine/pipeline.js'
import type { EngineContext } from '../engine/context.js'
import { formatDateTime } from '../engine/format.js'
import { jsonResponse } from '../engine/http.js'
import type { Chain, Delivery, Payment, SavedCard, Schedule, Session, Transaction } from '../engine/model.js'
import type { RouteDefinition } from '../engine/modules.js'
import { requirePayment } from './support-payer.js'

export const EXPORT_FORMAT = 'paysandbox.payment-export'

/** The export document (schemas/sandbox/payment-export.schema.json), in the store's own record types. */
export interface PaymentExport {
  format: typeof EXPORT_FORMAT
  version: 1
  exported_at: string
  payment: Payment
  transactions: Transaction[]
  callbacks: Delivery[]
  session?: Session
  card?: SavedCard
  schedule?: Schedule
  chain?: Chain
}

const byTime = (a: { created_at: number }, b: { created_at: number }) => a.created_at - b.created_at

/**
 * One payment's full history for a support ticket (schemas/sandbox/payment-export.schema.json):
 * the store's own records, which never hold a full card number or a password. The merchant's
 * configuration is not part of it: the importing sandbox must have the merchant configured.
 */
export function exportPayment(ctx: EngineContext, payment: Payment): PaymentExport {
  const transactions = ctx.store.findBy('transactions', 'payment_id', payment.id).sort(byTime)
  const callbacks = ctx.store.findBy('deliveries', 'payment_id', payment.id).sort((a, b) => a.seq - b.seq)
  const session = payment.session_id ? ctx.store.get('sessions', payment.session_id) : undefined
  const card = payment.card_token ? ctx.store.get('cards', payment.card_token) : undefined
  const chain = ctx.store.get('chains', payment.id)
  const scheduleId = chain?.schedule_id ?? payment.schedule_id
  const schedule = scheduleId ? ctx.store.get('schedules', scheduleId) : undefined
  const doc: PaymentExport = {
    format: EXPORT_FORMAT,
    version: 1,
    exported_at: formatDateTime(ctx.clock.now()),
    payment,
    transactions,
    callbacks,
    ...(session ? { session } : {}),
    ...(card && card.merchant_key === payment.merchant_key ? { card } : {}),
    ...(schedule && schedule.merchant_key === payment.merchant_key ? { schedule } : {}),
    ...(chain ? { chain } : {}),
  }
  return structuredClone(doc)
}

export function exportRoutes(ctx: EngineContext): RouteDefinition[] {
  return [
    declareControlRoute<undefined, Payment>({
      method: 'GET',
      path: '/sandbox/payments/:id/export',
      summary:
        "One payment's full history as JSON for a support ticket: payment, transactions, callbacks with attempts, session, schedule (masked card, no passwords)",
      pipeline: { load: (c, params) => requirePayment(c, params.id) },
      response: 'control/payment-export-response',
      handler: ({ loaded: payment }) => {
        return jsonResponse(200, exportPayment(ctx, payment), {
          'content-disposition': `attachment; filename="payment-${payment.id}.json"`,
        })
      },
    }),
  ]
}
