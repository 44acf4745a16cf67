import { fail } from '../engine/errors.js'
import type { Api, Payment, PaymentStatus } from '../engine/model.js'
import { authorizedMinor, refundableMinor } from './ledger.js'

/**
 * The payment state machine, as a table that reads like the interface's "States and transitions"
 * (state, trigger, condition, next state, also). Rows marked `interface` are the interface's own;
 * rows marked `sandbox` fill what it leaves "not shown" (creation, 3DS, redirect, decline, expiry,
 * the destination of VOID, chargeback). Within a trigger the first row whose state and condition
 * match wins, so refusals of a state are listed before its allowed move.
 */

export type Trigger =
  /** The payer submits the payment on the hosted page (or Hosted Payment Fields, or an S2S SALE). */
  | 'PAY'
  | 'THREE_DS_RESULT'
  /** The payer's or the provider's answer after a redirect or an APM simulator page. */
  | 'REDIRECT_RESULT'
  | 'EXPIRE'
  /** A merchant-initiated charge with no payer present: secondary recurring payment, payout. */
  | 'CHARGE'
  | 'CAPTURE'
  /** Checkout refund, S2S CREDITVOID. */
  | 'REFUND'
  | 'VOID'
  | 'RETRY'
  | 'CHARGEBACK'

export type Outcome = 'approved' | 'declined' | '3ds' | 'redirect' | 'waiting'

export interface TransitionContext {
  /** Which API asks: a refusal the interface words per API uses that API's catalogue row. */
  api?: Api
  outcome?: Outcome
  /** Requested amount in minor units of the payment's currency; absent means the full amount. */
  amount?: bigint
  /** Today's financial day, `YYYY-MM-DD` (UTC) on the sandbox clock. */
  today?: string
}

/** A catalogue row id, or one per API where the interface words the same refusal per API. */
export type Refusal = string | Record<Api, string>

export interface TransitionRow {
  id: string
  source: 'interface' | 'sandbox'
  from: PaymentStatus[]
  trigger: Trigger
  condition: string
  when: (payment: Payment, context: TransitionContext) => boolean
  /** The next state, `unchanged`, or the catalogue row that refuses the move. */
  to: PaymentStatus | 'unchanged' | { refuse: Refusal }
  also: string
  /**
   * A refusal of an amount above what the payment has `left` to refund (captured less refunded)
   * or above its `authorized` amount (ledger.ts): what the conformance kit quotes from the payment.
   */
  exceeds?: 'left' | 'authorized'
}

export type TransitionResult =
  | { ok: true; next: PaymentStatus; row: TransitionRow }
  | { ok: false; refuse: string; row?: TransitionRow }

// Conditions, named as the table's Condition column says them.
const always = () => true
const is = (outcome: Outcome) => (_: Payment, c: TransitionContext) => c.outcome === outcome
const held = (p: Payment) => p.auth
const notHeld = (p: Payment) => !p.auth
const heldAnd = (outcome: Outcome) => (p: Payment, c: TransitionContext) => p.auth && c.outcome === outcome
const saleAnd = (outcome: Outcome) => (p: Payment, c: TransitionContext) => !p.auth && c.outcome === outcome
const payout = (p: Payment) => p.operation === 'credit'
const debit = (p: Payment) => p.operation === 'debit'
const secondary = (p: Payment) => Boolean(p.recurring?.parent_payment_id)
const requested = (c: TransitionContext, full: bigint) => c.amount ?? full
const aboveAuthorized = (p: Payment, c: TransitionContext) =>
  requested(c, authorizedMinor(p)) > authorizedMinor(p)
const partOfAuthorized = (p: Payment, c: TransitionContext) =>
  requested(c, authorizedMinor(p)) < authorizedMinor(p)
const somethingLeft = (p: Payment) => refundableMinor(p) > 0n
const aboveLeft = (p: Payment, c: TransitionContext) =>
  somethingLeft(p) && requested(c, refundableMinor(p)) > refundableMinor(p)
const withinLeft = (p: Payment, c: TransitionContext) =>
  somethingLeft(p) && requested(c, refundableMinor(p)) <= refundableMinor(p)
const sameDay = (p: Payment, c: TransitionContext) =>
  p.financial_day !== undefined && p.financial_day === c.today

const VOID_REFUSED: Record<Api, string> = {
  checkout: 'CHECKOUT_VOID_NOT_ALLOWED',
  's2s-card': 'S2S_CARD_VOID_NOT_ALLOWED',
  's2s-apm': 'S2S_APM_VOID_NOT_ALLOWED',
}

type Row = Omit<TransitionRow, 'from'> & { from: PaymentStatus | PaymentStatus[] }
const row = (r: Row): TransitionRow => ({ ...r, from: Array.isArray(r.from) ? r.from : [r.from] })
const refuse = (refusal: Refusal) => ({ refuse: refusal })

// biome-ignore format: one row per line, like the interface's table
export const TRANSITIONS: readonly TransitionRow[] = [
  // Creation and the payer's steps: not shown by the interface.
  row({ id: 'pay-3ds', source: 'sandbox', from: 'prepare', trigger: 'PAY', condition: '3DS is needed (test card months 05, 06)', when: is('3ds'), to: '3ds', also: 'The payer is sent to the 3DS page; callback order_status 3ds.' }),
  row({ id: 'pay-redirect', source: 'sandbox', from: 'prepare', trigger: 'PAY', condition: 'The method or card redirects the payer (month 12)', when: is('redirect'), to: 'redirect', also: 'The payer is sent to the simulator page.' }),
  row({ id: 'pay-auth', source: 'sandbox', from: 'prepare', trigger: 'PAY', condition: 'Approved, funds held (auth=true or a DMS MID)', when: heldAnd('approved'), to: 'pending', also: 'PENDING until captured or released.' }),
  row({ id: 'pay-sale', source: 'sandbox', from: 'prepare', trigger: 'PAY', condition: 'Approved, immediate sale', when: saleAnd('approved'), to: 'settled', also: 'The financial day is set.' }),
  row({ id: 'pay-waiting', source: 'sandbox', from: 'prepare', trigger: 'PAY', condition: 'The provider has not answered yet', when: saleAnd('waiting'), to: 'pending', also: 'Not a held authorization: no capture.' }),
  row({ id: 'pay-decline', source: 'sandbox', from: 'prepare', trigger: 'PAY', condition: 'Declined (month 02)', when: is('declined'), to: 'decline', also: 'The decline reason is kept.' }),
  row({ id: '3ds-auth', source: 'sandbox', from: '3ds', trigger: 'THREE_DS_RESULT', condition: '3DS passed, funds held', when: heldAnd('approved'), to: 'pending', also: '' }),
  row({ id: '3ds-sale', source: 'sandbox', from: '3ds', trigger: 'THREE_DS_RESULT', condition: '3DS passed (month 05)', when: saleAnd('approved'), to: 'settled', also: '' }),
  row({ id: '3ds-decline', source: 'sandbox', from: '3ds', trigger: 'THREE_DS_RESULT', condition: '3DS failed (month 06)', when: is('declined'), to: 'decline', also: '' }),
  row({ id: 'redirect-auth', source: 'sandbox', from: 'redirect', trigger: 'REDIRECT_RESULT', condition: 'Approved after the redirect, funds held', when: heldAnd('approved'), to: 'pending', also: '' }),
  row({ id: 'redirect-sale', source: 'sandbox', from: 'redirect', trigger: 'REDIRECT_RESULT', condition: 'Approved after the redirect (month 12)', when: saleAnd('approved'), to: 'settled', also: '' }),
  row({ id: 'redirect-waiting', source: 'sandbox', from: 'redirect', trigger: 'REDIRECT_RESULT', condition: 'The payer left the simulator page pending', when: saleAnd('waiting'), to: 'pending', also: '' }),
  row({ id: 'redirect-decline', source: 'sandbox', from: 'redirect', trigger: 'REDIRECT_RESULT', condition: 'Declined after the redirect (year 2039)', when: is('declined'), to: 'decline', also: '' }),
  row({ id: 'waiting-approve', source: 'sandbox', from: 'pending', trigger: 'REDIRECT_RESULT', condition: 'Not held; the provider approves later', when: saleAnd('approved'), to: 'settled', also: '' }),
  row({ id: 'waiting-decline', source: 'sandbox', from: 'pending', trigger: 'REDIRECT_RESULT', condition: 'Not held; the provider declines later', when: (p, c) => notHeld(p) && c.outcome === 'declined', to: 'decline', also: '' }),
  row({ id: 'expire', source: 'sandbox', from: ['prepare', '3ds', 'redirect'], trigger: 'EXPIRE', condition: 'The session or the payer step timed out', when: always, to: 'decline', also: 'Reason: the session expired.' }),
  row({ id: 'expire-waiting', source: 'sandbox', from: 'pending', trigger: 'EXPIRE', condition: 'Not held; the provider never answered', when: notHeld, to: 'decline', also: '' }),
  row({ id: 'charge-auth', source: 'sandbox', from: 'prepare', trigger: 'CHARGE', condition: 'Approved, funds held (S2S RECURRING_SALE with auth=Y)', when: heldAnd('approved'), to: 'pending', also: 'PENDING until captured or released, like any authorization.' }),
  row({ id: 'charge-sale', source: 'sandbox', from: 'prepare', trigger: 'CHARGE', condition: 'Approved (stored card valid)', when: is('approved'), to: 'settled', also: 'Secondary recurring payment or payout; no 3DS, no redirect.' }),
  row({ id: 'charge-decline', source: 'sandbox', from: 'prepare', trigger: 'CHARGE', condition: 'Declined (stored card expired or a declining test card)', when: is('declined'), to: 'decline', also: '' }),

  // Capture.
  row({ id: 'capture-zero', source: 'sandbox', from: 'pending', trigger: 'CAPTURE', condition: 'A zero-amount authorization (card check)', when: (p) => held(p) && authorizedMinor(p) === 0n, to: refuse('CAPTURE_NOT_ALLOWED'), also: 'Nothing to capture; release it with a refund.' }),
  row({ id: 'capture-above-authorized', source: 'sandbox', from: 'pending', trigger: 'CAPTURE', condition: 'Held authorization; amount above the authorized amount', when: (p, c) => held(p) && aboveAuthorized(p, c), to: refuse('CAPTURE_AMOUNT_EXCEEDED'), also: 'One capture of up to the authorized amount.', exceeds: 'authorized' }),
  row({ id: 'capture-declined', source: 'sandbox', from: 'pending', trigger: 'CAPTURE', condition: 'Held authorization; the acquirer declines the capture (month 03)', when: heldAnd('declined'), to: 'unchanged', also: 'trans_status FAIL; the authorization stays held.' }),
  row({ id: 'capture', source: 'interface', from: 'pending', trigger: 'CAPTURE', condition: 'The payment was authorized (`auth=Y` or DMS)', when: heldAnd('approved'), to: 'settled', also: 'S2S APM: the CAPTURE signature uses the formula in Authentication.' }),

  // Refund, CREDITVOID.
  row({ id: 'refund-payout', source: 'sandbox', from: ['settled', 'pending'], trigger: 'REFUND', condition: 'A payout (credit)', when: payout, to: refuse('PAYOUT_REFUND_NOT_ALLOWED'), also: 'The money went to the payee.' }),
  row({ id: 'debit-reversal-above-left', source: 'sandbox', from: ['settled', 'reversal'], trigger: 'REFUND', condition: 'Debit payment; amount above what is left', when: (p, c) => debit(p) && aboveLeft(p, c), to: refuse('REFUND_AMOUNT_EXCEEDED'), also: '', exceeds: 'left' }),
  row({ id: 'debit-reversal', source: 'interface', from: ['settled', 'reversal'], trigger: 'REFUND', condition: 'Any', when: (p, c) => debit(p) && withinLeft(p, c), to: 'reversal', also: 'A debit always yields a reversal.' }),
  row({ id: 'held-reversal-above', source: 'sandbox', from: 'pending', trigger: 'REFUND', condition: 'Held authorization; amount above the authorized amount', when: (p, c) => held(p) && aboveAuthorized(p, c), to: refuse('REFUND_AMOUNT_EXCEEDED'), also: '', exceeds: 'authorized' }),
  row({ id: 'held-reversal-partial', source: 'interface', from: 'pending', trigger: 'REFUND', condition: 'Held authorization; less than the full amount', when: (p, c) => held(p) && partOfAuthorized(p, c), to: refuse('REVERSAL_PARTIAL_NOT_ALLOWED'), also: 'Full amount only.' }),
  row({ id: 'held-reversal', source: 'interface', from: 'pending', trigger: 'REFUND', condition: 'Held authorization', when: held, to: 'reversal', also: 'Full amount only. Callback `status` is the payment status after the transaction.' }),
  row({ id: 'refund-above-left', source: 'sandbox', from: ['settled', 'refund'], trigger: 'REFUND', condition: 'Amount above what was captured minus refunded', when: aboveLeft, to: refuse('REFUND_AMOUNT_EXCEEDED'), also: '', exceeds: 'left' }),
  row({ id: 'refund', source: 'interface', from: 'settled', trigger: 'REFUND', condition: 'Full or partial amount', when: withinLeft, to: 'refund', also: 'Each refund or reversal gets its own `creditvoid_id`.' }),
  row({ id: 'refund-again', source: 'sandbox', from: 'refund', trigger: 'REFUND', condition: 'Partly refunded; amount up to what is left', when: withinLeft, to: 'refund', also: 'A partial refund already made the status REFUND.' }),

  // Void.
  row({ id: 'void-pending', source: 'interface', from: 'pending', trigger: 'VOID', condition: 'Not allowed', when: always, to: refuse(VOID_REFUSED), also: 'Error `Void is not allowed.`' }),
  row({ id: 'void-payout', source: 'sandbox', from: 'settled', trigger: 'VOID', condition: 'A payout (credit)', when: payout, to: refuse('PAYOUT_VOID_NOT_ALLOWED'), also: '' }),
  row({ id: 'void', source: 'interface', from: 'settled', trigger: 'VOID', condition: 'Same financial day only', when: sameDay, to: 'void', also: 'Destination state not shown: the sandbox uses `void`.' }),
  row({ id: 'void-late', source: 'sandbox', from: 'settled', trigger: 'VOID', condition: 'After the financial day', when: always, to: refuse('VOID_NOT_ALLOWED_AFTER_FINANCIAL_DAY'), also: 'Refund instead.' }),

  // Retry and chargeback.
  row({ id: 'retry-approved', source: 'sandbox', from: 'decline', trigger: 'RETRY', condition: 'A declined secondary recurring payment; approved this time', when: (p, c) => secondary(p) && c.outcome === 'approved', to: 'settled', also: '' }),
  row({ id: 'retry-declined', source: 'sandbox', from: 'decline', trigger: 'RETRY', condition: 'A declined secondary recurring payment; declined again', when: (p, c) => secondary(p) && c.outcome === 'declined', to: 'unchanged', also: 'A failed transaction is recorded.' }),
  row({ id: 'chargeback', source: 'sandbox', from: ['settled', 'refund'], trigger: 'CHARGEBACK', condition: "The payer's bank disputes the payment", when: (p) => !payout(p), to: 'chargeback', also: 'Callback type chargeback.' }),
]

/** What answers a trigger that no row allows in the payment's state. */
export const DEFAULT_REFUSAL: Record<Trigger, string> = {
  PAY: 'PAYMENT_TRANSITION_NOT_ALLOWED',
  THREE_DS_RESULT: 'PAYMENT_TRANSITION_NOT_ALLOWED',
  REDIRECT_RESULT: 'PAYMENT_TRANSITION_NOT_ALLOWED',
  EXPIRE: 'PAYMENT_TRANSITION_NOT_ALLOWED',
  CHARGE: 'PAYMENT_TRANSITION_NOT_ALLOWED',
  CAPTURE: 'CAPTURE_NOT_ALLOWED',
  REFUND: 'REFUND_NOT_ALLOWED',
  VOID: 'VOID_NOT_ALLOWED_AFTER_FINANCIAL_DAY',
  RETRY: 'RETRY_NOT_ALLOWED',
  CHARGEBACK: 'PAYMENT_TRANSITION_NOT_ALLOWED',
}

/** The row that decides `trigger` for the payment, if any. */
export function findRow(payment: Payment, trigger: Trigger, context: TransitionContext = {}) {
  return TRANSITIONS.find(
    (r) => r.trigger === trigger && r.from.includes(payment.status) && r.when(payment, context),
  )
}

/** The next state, or the catalogue row id that refuses the move. Pure: the caller stores. */
export function transition(
  payment: Payment,
  trigger: Trigger,
  context: TransitionContext = {},
): TransitionResult {
  const found = findRow(payment, trigger, context)
  if (!found) return { ok: false, refuse: DEFAULT_REFUSAL[trigger] }
  const { to } = found
  if (typeof to === 'object') {
    const refusal = typeof to.refuse === 'string' ? to.refuse : to.refuse[context.api ?? 'checkout']
    return { ok: false, refuse: refusal, row: found }
  }
  return { ok: true, next: to === 'unchanged' ? payment.status : to, row: found }
}

/**
 * The allowed move, or the refusing catalogue row thrown as the answer, naming the row of this
 * table that refused it (docs/rules.md#rule-book: the rule is the catalogue row's).
 */
export function allowed(result: TransitionResult): Extract<TransitionResult, { ok: true }> {
  if (!result.ok) throw fail(result.refuse, result.row ? { transition: result.row.id } : {})
  return result
}
