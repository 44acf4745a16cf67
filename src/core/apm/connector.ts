import type { MethodCatalogueEntry } from '../../generated/types.js'
import { canonicalMethodId, findMethod } from '../payments/methods.js'
import type { EngineContext } from '../engine/context.js'
import type { Payment, PaymentStatus, Transaction, TransactionType } from '../engine/model.js'
import { chargeType, commit, markSettled, newTransaction } from '../payments/ledger.js'
import { allowed, transition } from '../payments/state-machine.js'
import { APM_DECLINE_REASONS, type ApmPayment } from './types.js'

/**
 * The simulated APM connector, shared by S2S APM and the Checkout hosted page. The test brand
 * `vcard` answers at once by the payer's identifier or e-mail (docs/rules.md#test-data); every other
 * method, and vcard with any other identifier, sends the payer to the method's simulator page
 * (`{baseUrl}/apm/<payment_id>`), where the payer, a scenario or the control API picks the outcome
 * (docs/rules.md#simulated-connectors (sandbox): approve, decline, leave pending, or let it expire).
 */

export interface ResolvedMethod {
  /** The catalogue identifier (an alias resolved), or the family member as sent (`ptw-PW_0099`). */
  id: string
  entry: MethodCatalogueEntry
}

/** A method by identifier, alias or family pattern (schemas/catalogue/methods.json). */
export function resolveApmMethod(brand: string): ResolvedMethod | undefined {
  const entry = findMethod(brand)
  return entry ? { id: canonicalMethodId(brand), entry } : undefined
}

export const VCARD = 'vcard'
/** docs/rules.md#apm-test-brand: "identifier or e-mail `success@gmail.com` succeeds, `fail@gmail.com` declines". */
export const VCARD_SUCCESS = 'success@gmail.com'
export const VCARD_FAIL = 'fail@gmail.com'

export type ApmFirstStep = { kind: 'approve' } | { kind: 'decline'; reason: string } | { kind: 'redirect' }

/**
 * vcard: the identifier decides, else the payer's e-mail (e-mail addresses compared without case,
 * as mail systems treat them). Anything else waits on the simulator page, so a vcard payment can
 * also be left pending or expired.
 */
export function firstApmStep(payment: ApmPayment): ApmFirstStep {
  if (payment.method !== VCARD) return { kind: 'redirect' }
  for (const value of [payment.apm.identifier, payment.payer?.payer_email]) {
    const said = value?.trim().toLowerCase()
    if (said === VCARD_SUCCESS) return { kind: 'approve' }
    if (said === VCARD_FAIL) return { kind: 'decline', reason: APM_DECLINE_REASONS.declined }
  }
  return { kind: 'redirect' }
}

/** The simulator page of the payment (built by the hosted pages from `payerStep`). */
export const apmPageUrl = (ctx: EngineContext, paymentId: string): string =>
  `${ctx.baseUrl}/apm/${encodeURIComponent(paymentId)}`

/** The transaction that takes or holds the money; a payout (DEBIT2VIRTUAL) is a credit. */
export const apmChargeType = (payment: Payment): TransactionType =>
  payment.operation === 'credit' && !payment.auth ? 'credit' : chargeType(payment)

export type FinalResult = { kind: 'approve' } | { kind: 'decline'; reason: string }

/** Writes an approval or a decline the state table allowed into the payment (not yet stored). */
export function applyFinal(
  ctx: EngineContext,
  payment: Payment,
  next: PaymentStatus,
  result: FinalResult,
): void {
  if (result.kind === 'decline') {
    payment.status = next
    payment.decline_reason = result.reason
    return
  }
  delete payment.decline_reason
  if (next === 'settled') markSettled(ctx, payment)
  else payment.status = next
}

export interface ApmStart {
  payment: ApmPayment
  /** Present when the payer must go to the simulator page (status redirect). */
  redirect_url?: string
}

/**
 * Starts a new APM payment (status `prepare`, not yet stored) through the state table's PAY rows,
 * stores it with its first transaction and announces both.
 */
export function startApmPayment(ctx: EngineContext, payment: ApmPayment): ApmStart {
  const step = firstApmStep(payment)
  let transaction: Transaction
  if (step.kind === 'redirect') {
    payment.status = allowed(transition(payment, 'PAY', { outcome: 'redirect' })).next
    transaction = newTransaction(ctx, payment, { type: 'redirect', status: 'waiting' })
  } else {
    const outcome = step.kind === 'approve' ? 'approved' : 'declined'
    const { next } = allowed(transition(payment, 'PAY', { outcome }))
    applyFinal(ctx, payment, next, step)
    transaction = newTransaction(ctx, payment, {
      type: apmChargeType(payment),
      status: step.kind === 'approve' ? 'success' : 'fail',
      ...(step.kind === 'decline' ? { decline_reason: step.reason } : {}),
    })
  }
  commit(ctx, payment, undefined, transaction)
  return step.kind === 'redirect' ? { payment, redirect_url: apmPageUrl(ctx, payment.id) } : { payment }
}
