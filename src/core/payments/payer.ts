import { canonicalMethodId } from './methods.js'
import { sessionRequest } from '../sessions/session-access.js'
import { requireMove } from '../sessions/session-lifecycle.js'
import { routeSession } from './routing.js'
import type { EngineContext } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import type { Payment, PaymentStatus, Session } from '../engine/model.js'
import { isMotoType } from './card.js'
import { readCardEntry } from './card-entry.js'
import { authorizeCard, type CardOutcome, DECLINE_REASONS, outcomeAfterPayerStep } from './connector.js'
import { applyOutcome } from './outcome.js'
import { commit, newTransaction, transactionsOf } from './ledger.js'
import { newSessionPayment } from './session-payment.js'
import { allowed, transition } from './state-machine.js'
import { finishThreeDs, startThreeDs } from './three-ds.js'

/**
 * The payer's actions as engine operations (a design rule): the Hosted Payment Fields endpoints, the
 * hosted pages, the scenario runner and in-process tests all call these. Each runs synchronously,
 * so its checks and writes cannot interleave with another request's.
 */

export interface CardPaymentResult {
  payment: Payment
  /** Where the payer goes next: the ACS page (status 3ds) or the redirect simulator (status redirect). */
  redirect_url?: string
}

export interface PayWithCardOptions {
  /** The operation of the endpoint used (`/processing/<operation>/card`): it must match the session's. */
  operation?: 'purchase' | 'debit'
}

/** Pays a session with a card entered by the payer (docs/rules.md#beyond-the-interface body) or its saved `card_token`. */
export function payWithCard(
  ctx: EngineContext,
  session: Session,
  body: Record<string, unknown>,
  options: PayWithCardOptions = {},
): CardPaymentResult {
  requireMove(ctx, session, 'pay', 'payer')
  // A credit session pays out to a saved card: it has no card payment to make here.
  if (session.operation === 'credit' || (options.operation && options.operation !== session.operation)) {
    throw fail('ENDPOINT_OPERATION_MISMATCH')
  }
  if (session.methods.length && !session.methods.some((m) => canonicalMethodId(m) === 'card')) {
    throw fail('CHECKOUT_SESSION_CARD_NOT_OFFERED')
  }
  const entered = readCardEntry(ctx, session, body)
  const merchant = ctx.merchant(session.merchant_key)
  if (!merchant) throw fail('TOKEN_INVALID')
  const mid = routeSession(merchant, sessionRequest(session), ['card'])

  const payment = newSessionPayment(ctx, session, mid, entered)
  ctx.store.put('sessions', { ...session, payment_id: payment.id })
  return startCardPayment(ctx, payment, { skipThreeDs: isMotoType(payment.moto_type) })
}

/**
 * Sends a new card payment (status `prepare`, not yet stored) to the acquirer through the PAY
 * rows and stores it: approved, declined, or waiting for the payer's 3DS or redirect step.
 * `skipThreeDs`: the MPI service is not started (MOTO, 2.5; the merchant's own `mpi_data`, 2.4),
 * so test months 05 and 06 go straight to their outcome. Shared by Checkout and S2S CARD.
 */
export function startCardPayment(
  ctx: EngineContext,
  payment: Payment,
  options: { skipThreeDs: boolean },
): CardPaymentResult {
  if (!payment.card) throw fail('PAYMENT_TRANSITION_NOT_ALLOWED')
  const step = authorizeCard(payment.card, { held: payment.auth, moto: options.skipThreeDs })
  if (step.kind === '3ds' || step.kind === 'redirect') {
    payment.status = allowed(transition(payment, 'PAY', { outcome: step.kind })).next
    if (step.kind === '3ds') payment.three_ds = startThreeDs()
    commit(ctx, payment, undefined, [newTransaction(ctx, payment, { type: step.kind, status: 'waiting' })])
    return { payment, redirect_url: payerStepUrl(ctx, payment) }
  }
  if (step.kind === 'approve' && step.frictionless) {
    payment.three_ds = finishThreeDs(
      ctx,
      { ...startThreeDs(), authenticationFlow: 'frictionless' },
      payment.card,
      'pass',
    )
  }
  commit(ctx, payment, undefined, [applyOutcome(ctx, payment, step, 'PAY')])
  return { payment }
}

/** The payer's 3DS challenge result: `pass` applies the card's own outcome, `fail` declines. */
export function completeThreeDs(ctx: EngineContext, paymentId: string, result: 'pass' | 'fail'): Payment {
  const payment = waitingPayment(ctx, paymentId, '3ds')
  payment.three_ds = finishThreeDs(ctx, payment.three_ds, payment.card, result)
  const outcome: CardOutcome =
    result === 'pass' && payment.card
      ? outcomeAfterPayerStep(payment.card)
      : { kind: 'decline', reason: DECLINE_REASONS.threeDs }
  return finishPayerStep(ctx, payment, '3ds', result === 'pass', outcome)
}

/** The payer came back from the redirect: the card's own outcome applies (12 succeeds, 12/2039 declines). */
export function completeRedirect(ctx: EngineContext, paymentId: string): Payment {
  const payment = waitingPayment(ctx, paymentId, 'redirect')
  const outcome: CardOutcome = payment.card
    ? outcomeAfterPayerStep(payment.card)
    : { kind: 'decline', reason: DECLINE_REASONS.issuer }
  return finishPayerStep(ctx, payment, 'redirect', true, outcome)
}

/** The page a payment in status 3ds or redirect sends its payer to; undefined in any other status. */
export function payerStepUrl(ctx: EngineContext, payment: Payment): string | undefined {
  if (payment.status === '3ds') return `${ctx.baseUrl}/acs/${payment.id}`
  if (payment.status === 'redirect') return `${ctx.baseUrl}/redirect-sim/${payment.id}`
  return undefined
}

function waitingPayment(ctx: EngineContext, paymentId: string, status: PaymentStatus): Payment {
  const payment = ctx.store.get('payments', paymentId)
  if (!payment) throw fail('CHECKOUT_PAYMENT_NOT_FOUND')
  if (payment.status !== status) throw fail('PAYER_ACTION_NOT_ALLOWED')
  return payment
}

function finishPayerStep(
  ctx: EngineContext,
  payment: Payment,
  step: '3ds' | 'redirect',
  passed: boolean,
  outcome: CardOutcome,
): Payment {
  const previous = payment.status
  const waiting = transactionsOf(ctx, payment.id, step).filter((tx) => tx.status === 'waiting')
  const closed = waiting.map((tx) => ({ ...tx, status: passed ? ('success' as const) : ('fail' as const) }))
  commit(ctx, payment, previous, [
    ...closed,
    applyOutcome(ctx, payment, outcome, step === '3ds' ? 'THREE_DS_RESULT' : 'REDIRECT_RESULT'),
  ])
  return payment
}
