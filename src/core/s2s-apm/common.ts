import { type ResolvedMethod, resolveApmMethod } from '../apm/connector.js'
import { type ApmPayment, isApmPayment } from '../apm/types.js'
import type { EngineContext, SandboxMerchant, SandboxMid } from '../engine/context.js'
import { fail, invalid } from '../engine/errors.js'
import { isZeroAmount } from '../engine/format.js'
import type { Pipeline } from '../engine/pipeline.js'
import { selectMid } from '../payments/routing.js'
import { S2S_APM_FORMULAS } from './formulas.js'
import { validate } from '../validation/index.js'

/** Steps the S2S APM actions share: the merchant's own payment, the brand, amounts, routing. */

/**
 * The merchant's own S2S APM payment named by `trans_id`. Another merchant's payment, or one of
 * another API, answers exactly as a missing one (`notFound`, the per-entity row of the action).
 */
export function loadMerchantPayment(
  ctx: EngineContext,
  merchant: SandboxMerchant,
  transId: string,
  notFound: string,
): ApmPayment {
  const payment = ctx.store.get('payments', transId)
  if (
    !payment ||
    payment.merchant_key !== merchant.key ||
    payment.api !== 's2s-apm' ||
    !isApmPayment(payment)
  )
    throw fail(notFound)
  return payment
}

export type PaymentAction = 'SALE' | 'DEBIT2VIRTUAL' | 'DEBIT2VIRTUAL_CALC'

/**
 * The method `brand` names, through the catalogue (identifier, alias, family pattern). Cards go
 * through S2S CARD; a payout-only method cannot take a SALE (the catalogue's operations rule).
 */
export function brandMethod(brand: string, action: PaymentAction): ResolvedMethod {
  const method = resolveApmMethod(brand)
  if (!method) throw fail('S2S_APM_BRAND_UNKNOWN')
  const { entry } = method
  if (entry.group === 'card') throw fail('S2S_APM_BRAND_NOT_AVAILABLE')
  if (action === 'SALE' && !entry.operations.includes('purchase')) throw fail('S2S_APM_BRAND_NOT_AVAILABLE')
  return method
}

/**
 * `parameters[name]` against the method's parameter schema (2.2.2), required fields included,
 * as a server-to-server request has no page of its own to collect them on. Reported at
 * `parameters[name]`.
 */
export function checkMethodParameters(method: ResolvedMethod, parameters: unknown): void {
  const schema = method.entry.parameters_schema
  if (!schema) return
  const result = validate(schema, parameters ?? {}, { pathStyle: 'bracket' })
  if (result.valid) return
  throw invalid(result.errors.map((e) => ({ ...e, path: underParameters(e.path) })))
}

function underParameters(path: string): string {
  if (!path) return 'parameters'
  const cut = path.indexOf('[')
  return cut < 0 ? `parameters[${path}]` : `parameters[${path.slice(0, cut)}]${path.slice(cut)}`
}

/**
 * The MID of a SALE, by payment mode (6.7.0: `auth=Y` uses DMS and SMS/DMS MIDs, a sale SMS and
 * SMS/DMS ones), currency and method. A zero amount is accepted only on an authorization and
 * only by a MID with zero-amount support (2.1.1).
 */
export function saleMid(
  merchant: SandboxMerchant,
  auth: boolean,
  amount: string,
  currency: string,
  method: string,
) {
  const zeroAmount = isZeroAmount(amount)
  if (zeroAmount && !auth) throw fail('S2S_APM_SALE_ZERO_AMOUNT')
  const routed = selectMid(merchant, { auth, moto: false, zeroAmount, currency, methods: [method] })
  if (routed.ok) return routed.mid
  throw fail(routed.reason === 'zero-amount-unsupported' ? 'S2S_APM_SALE_ZERO_AMOUNT' : 'ROUTING_NO_MID')
}

/** The MID of a payout: payment mode does not apply to payouts, currency and method do. */
export function payoutMid(
  merchant: SandboxMerchant,
  amount: string,
  currency: string,
  method: string,
): SandboxMid {
  if (isZeroAmount(amount)) throw fail('S2S_APM_OPERATION_ZERO_AMOUNT')
  const mid = merchant.mids.find(
    (m) =>
      (!m.currencies || (m.currencies as string[]).includes(currency.toUpperCase())) &&
      (!m.methods || m.methods.includes(method)),
  )
  if (!mid) throw fail('ROUTING_NO_MID')
  return mid
}

const PAYER_FIELDS = [
  'payer_first_name',
  'payer_last_name',
  'payer_birth_date',
  'payer_address',
  'payer_address2',
  'payer_house_number',
  'payer_country',
  'payer_state',
  'payer_city',
  'payer_district',
  'payer_zip',
  'payer_email',
  'payer_phone',
  'payer_phone_country_code',
  'payer_ip',
] as const

/** The payer attributes of the Events section, as sent; `payer_language` is request-only (2.1.3). */
export function payerOf(request: Partial<Record<(typeof PAYER_FIELDS)[number], unknown>>) {
  const out: Record<string, string> = {}
  for (const key of PAYER_FIELDS) {
    const value = request[key]
    if (typeof value === 'string' && value) out[key] = value
  }
  return out
}

/**
 * The pipeline of an action on one payment by `trans_id` (CAPTURE, VOID, CREDITVOID,
 * GET_TRANS_STATUS): signed md5(upper(rev(trans_id)) + password), or for CREDITVOID
 * md5(upper(rev(trans_id + password))) (docs/rules.md#signatures), then the merchant's own payment or the
 * action's not-found row.
 */
export function transactionPipeline<I extends { client_key: string; trans_id: string }>(
  schema: string,
  notFound: string,
  signed: 'trans_id' | 'creditvoid' = 'trans_id',
): Pipeline<I, ApmPayment> {
  return {
    schema,
    pathStyle: 'bracket',
    credential: 'client_key',
    formula: signed === 'creditvoid' ? S2S_APM_FORMULAS.creditvoid : S2S_APM_FORMULAS.transaction,
    load: (ctx, request, merchant) => loadMerchantPayment(ctx, merchant, request.trans_id, notFound),
  }
}
