import { type DeclaredSigning, declaredSigning, type SignedApi } from '../core/signing/declared.js'
import type { OriginalPayment } from '../core/signatures/formulas.js'

/**
 * The merchant's side of the signature table (docs/rules.md#signatures): the `hash` a request must
 * carry, by the formula its route or action declares. The kit uses it to sign its own requests
 * (gateway mode) and to check the merchant's (merchant mode). S2S CARD follow-ups are signed over
 * the original payment's e-mail and card, which the kit remembers from the payments it has seen
 * (`PaymentMemory`).
 */

/** What the kit remembers of a payment to sign its follow-ups: the original payment a formula reads. */
export type PaymentFacts = OriginalPayment

/** What the kit remembers of S2S payments, by trans_id and by order_id, to sign their follow-ups. */
export class PaymentMemory {
  private byTrans = new Map<string, PaymentFacts>()
  private byOrder = new Map<string, PaymentFacts>()
  private recurring = new Map<string, PaymentFacts>()

  /** A payment request (SALE, AUTH, DEBIT, ...) and the gateway's answer to it. */
  learn(body: Record<string, unknown>, answer: unknown): void {
    const facts = factsOfPaymentRequest(body)
    if (!facts) return
    const a = (answer ?? {}) as Record<string, unknown>
    if (typeof a.trans_id === 'string') this.byTrans.set(a.trans_id, facts)
    if (typeof body.order_id === 'string') this.byOrder.set(body.order_id, facts)
    if (typeof a.recurring_token === 'string') this.recurring.set(a.recurring_token, facts)
  }

  /** A secondary payment is signed over the initial one: its answer's trans_id inherits those facts. */
  learnRecurring(body: Record<string, unknown>, answer: unknown): void {
    const facts = this.forRecurring(body)
    const a = (answer ?? {}) as Record<string, unknown>
    if (!facts) return
    if (typeof a.trans_id === 'string') this.byTrans.set(a.trans_id, facts)
    if (typeof body.order_id === 'string') this.byOrder.set(body.order_id, facts)
  }

  /** Every payer the kit has seen: a payment the gateway made on its own (a schedule's) is signed over one of them. */
  all = (): PaymentFacts[] => [...new Set([...this.byTrans.values(), ...this.byOrder.values()])]

  forTrans = (transId: unknown) => (typeof transId === 'string' ? this.byTrans.get(transId) : undefined)
  forOrder = (orderId: unknown) => (typeof orderId === 'string' ? this.byOrder.get(orderId) : undefined)
  forRecurring(body: Record<string, unknown>): PaymentFacts | undefined {
    const first = body.recurring_first_trans_id ?? body.recurring_init_trans_id
    return (
      this.forTrans(first) ??
      (typeof body.recurring_token === 'string' ? this.recurring.get(body.recurring_token) : undefined)
    )
  }
}

const str = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v)

function factsOfPaymentRequest(body: Record<string, unknown>): PaymentFacts | undefined {
  const email = str(body.payer_email)
  // A CREDIT2CARD payout's lookups are signed with Formula 6 (no payer e-mail).
  const credit2card = body.action === 'CREDIT2CARD' ? { credit2card: true } : {}
  if (typeof body.card_token === 'string' && body.card_token)
    return { payerEmail: email, card: { cardToken: body.card_token }, ...credit2card }
  if (typeof body.card_number === 'string' && body.card_number)
    return { payerEmail: email, card: { cardNumber: body.card_number }, ...credit2card }
  // CARD2CARD with the platform's names (S2S CARD 5.6.2): the payer's card signs it.
  if (typeof body.payer_card_number === 'string' && body.payer_card_number)
    return { payerEmail: email, card: { cardNumber: body.payer_card_number } }
  return undefined
}

/** Why a request cannot be signed: the kit has not seen the payment it refers to. */
export class UnsignableError extends Error {}

/** The payer and card of a payment the kit has not seen: a request about it is signed over nothing. */
export const NO_FACTS: PaymentFacts = { payerEmail: '', card: { cardNumber: '' } }

/**
 * The original payment a declared formula reads, found as its declaration says (by `trans_id`, by
 * `order_id`, or the initial payment of a recurring request): undefined for a formula over the
 * request alone, null for a recurring request whose initial payment the kit has not seen. An
 * unknown trans_id or order (an error-row scenario) is signed over empty payer data: the gateway
 * must answer "not found" before it could check a signature it has nothing to compute from.
 */
export function originalFor(
  signing: DeclaredSigning,
  body: Record<string, unknown>,
  memory: PaymentMemory | undefined,
): PaymentFacts | undefined | null {
  if (!signing.formula.needsOriginal) return undefined
  if (signing.originalBy === 'recurring') return memory?.forRecurring(body) ?? null
  return (
    (signing.originalBy === 'order_id' ? memory?.forOrder(body.order_id) : memory?.forTrans(body.trans_id)) ??
    NO_FACTS
  )
}

/**
 * The `hash` a request must carry, by the formula its route or action declares (src/core/signing),
 * or undefined when it carries none (Token routes): the kit keeps no table of its own, so a newly
 * declared action is signed without touching the kit.
 */
export function hashOf(
  api: SignedApi,
  where: { path?: string; action?: string },
  body: Record<string, unknown>,
  password: string,
  memory?: PaymentMemory,
): string | undefined {
  const signing = declaredSigning(api, where)
  if (!signing) return undefined
  const facts = originalFor(signing, body, memory)
  if (facts === null)
    throw new UnsignableError(
      `cannot sign ${where.action ?? where.path}: the kit has not seen the initial payment ${str(body.recurring_first_trans_id ?? body.recurring_init_trans_id)}`,
    )
  return signing.formula.sign(body, password, facts)
}

export const checkoutHash = (path: string, body: Record<string, unknown>, password: string) =>
  hashOf('checkout', { path }, body, password)

export const s2sCardHash = (
  action: string,
  body: Record<string, unknown>,
  password: string,
  memory: PaymentMemory,
) => hashOf('s2s-card', { action }, body, password, memory)

export const s2sApmHash = (action: string, body: Record<string, unknown>, password: string) =>
  hashOf('s2s-apm', { action }, body, password)
