import type { MethodCatalogueEntry, MethodCatalogueGroupId } from '../../generated/types.js'
import type { EngineContext } from '../engine/context.js'
import type { PaymentStatus } from '../engine/model.js'
import { apmPageUrl, resolveApmMethod } from './connector.js'
import { loadApmPayment, outcomeAllowed } from './outcomes.js'
import { APM_OUTCOMES, type ApmOutcome, type ApmPayment } from './types.js'
import { type PayerView, viewFor } from './views.js'

/** A field the simulator page asks the payer for (the catalogue's `collects_on_page`). */
export interface PageField {
  /** As the catalogue names it: a parameter, a session field path, or a short description. */
  name: string
  label: string
  required: boolean
}

/**
 * Everything the simulator page at `/apm/<payment_id>` shows and offers, as plain data: the
 * order, the method's behaviour-group view, the fields it still needs, and the outcomes the
 * state table allows now (none once the payment has left the page).
 */
export interface PayerStep {
  payment_id: string
  method: string
  method_title: string
  group: MethodCatalogueGroupId
  status: PaymentStatus
  order_id: string
  description: string
  amount: string
  currency: string
  /** The page's language (S2S `payer_language`); the page falls back to English. */
  language?: string
  /** Where the payer goes after choosing. */
  return_url?: string
  outcomes: ApmOutcome[]
  collect: PageField[]
  view: PayerView
}

/** The page of the payment `paymentId` (unknown: SANDBOX_PAYMENT_NOT_FOUND; a card payment: PAYER_ACTION_NOT_ALLOWED). */
export function payerStepOf(ctx: EngineContext, paymentId: string): PayerStep {
  return payerStep(ctx, loadApmPayment(ctx, paymentId))
}

export function payerStep(ctx: EngineContext, payment: ApmPayment): PayerStep {
  const resolved = resolveApmMethod(payment.method) ?? resolveApmMethod(payment.apm.brand)
  const entry: MethodCatalogueEntry = resolved?.entry ?? {
    id: payment.method,
    title: payment.method,
    payer_kind: 'online_payment',
    group: payment.apm.group,
    operations: ['purchase'],
    parameters_schema: null,
    collects_on_page: [],
    notes: '',
    section: '2.2',
  }
  const country = entry.country?.[0] ?? payment.payer?.payer_country
  return {
    payment_id: payment.id,
    method: payment.method,
    method_title: entry.title,
    group: payment.apm.group,
    status: payment.status,
    order_id: payment.order_id,
    description: payment.order.description,
    amount: payment.order.amount,
    currency: payment.order.currency,
    ...(payment.apm.language ? { language: payment.apm.language } : {}),
    ...(payment.apm.return_url ? { return_url: payment.apm.return_url } : {}),
    outcomes: APM_OUTCOMES.filter((o) => outcomeAllowed(payment, o)),
    collect: fieldsToCollect(payment, entry),
    view: viewFor({
      payment,
      entry,
      pageUrl: apmPageUrl(ctx, payment.id),
      ...(country ? { country } : {}),
    }),
  }
}

/** "Collected on the page when absent" (2.2.2): what the merchant already sent is not asked again. */
function fieldsToCollect(payment: ApmPayment, entry: MethodCatalogueEntry): PageField[] {
  const notes = entry.notes.toLowerCase()
  return entry.collects_on_page
    .filter((name) => !alreadySent(payment, name))
    .map((name) => {
      const label = labelOf(name)
      // The interface marks a few of them optional in its own words ("optional receiver phone").
      return { name, label, required: !notes.includes(`optional ${label.toLowerCase()}`) }
    })
}

function alreadySent(payment: ApmPayment, name: string): boolean {
  if (name.includes(' ')) return false
  const payer = payment.payer ?? {}
  if (name.startsWith('billing_address.')) return Boolean(payer[`payer_${name.slice(16)}`])
  let node: unknown = payment.apm.parameters
  for (const key of name.split('.')) {
    if (!node || typeof node !== 'object') return false
    node = (node as Record<string, unknown>)[key]
  }
  return node !== undefined && node !== ''
}

/** `billing_address.phone` → Phone, `bank_cuil` → Bank cuil, `memberId` → Member id. */
function labelOf(name: string): string {
  const last = name.split('.').at(-1) ?? name
  const words = last
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}
