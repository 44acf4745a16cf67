import { approveApm, declineApm, expireApm, leavePending } from '../core/apm/outcomes.js'
import type { EngineContext } from '../core/engine/context.js'
import type { Payment } from '../core/engine/model.js'
import { payerSession } from '../core/checkout/session-access.js'
import { completeRedirect, completeThreeDs, payWithCard } from '../core/payments/payer.js'
import type { CheckoutHpfCardPaymentResponse, CheckoutPaymentStatus } from '../generated/types.js'
import { orSandboxError } from './errors.js'

/** A test card (docs/rules.md#test-cards: the expiry month picks the outcome, any CVV). */
export interface TestCard {
  number: string
  /** `MM/YYYY` or `MM/YY`, e.g. `01/2030`: 01 succeeds, 02 declines, 05 asks for 3DS, 12 redirects. */
  expiry: string
  /** Required unless the session is a MOTO one (2.5). */
  cvv?: string
  holder?: string
  /** The payer's e-mail, as the Hosted Payment Fields body carries it. */
  email?: string
}

/** Where a payment stands after a payer action. */
export interface PayerStepResult {
  payment_id: string
  status: CheckoutPaymentStatus
  /** Why it was declined. */
  reason?: string
}

export interface Payer {
  /**
   * Pays a Checkout session with a card, as the payer does on the hosted page: takes the session's
   * `redirect_url` (`{base_url}/auth/<token>`) or its token. Without a card, a session created with
   * `card_token` pays with the saved card. Status `3ds` or `redirect` means a step is still due
   * (`passThreeDs`, `failThreeDs`, `completeRedirect`).
   */
  payCheckout(sessionUrlOrToken: string, card?: TestCard): Promise<CheckoutHpfCardPaymentResponse>
  /** The payer passes the 3DS challenge: the card's own outcome applies (05 approves, 06 declines). */
  passThreeDs(paymentId: string): Promise<PayerStepResult>
  /** The payer fails the 3DS challenge: the payment is declined. */
  failThreeDs(paymentId: string): Promise<PayerStepResult>
  /** The payer comes back from the redirect: the card's own outcome applies (12 approves, 12/2039 declines). */
  completeRedirect(paymentId: string): Promise<PayerStepResult>
  /**
   * The payer approves an alternative-method payment on its simulator page (docs/rules.md#test-data
   * (sandbox): approve, decline, leave pending, or let it expire): settled, or pending when held.
   */
  approveApm(paymentId: string): Promise<PayerStepResult>
  /** The payer declines it (the reason defaults to `Declined`). */
  declineApm(paymentId: string, reason?: string): Promise<PayerStepResult>
  /** The payer leaves it pending: the method's confirmation is still to come. */
  leaveApmPending(paymentId: string): Promise<PayerStepResult>
  /** The payer lets it expire: declined as `Payment expired`. */
  expireApm(paymentId: string): Promise<PayerStepResult>
}

/**
 * The payer's side of a payment, through the engine's own payer operations (design rule: "the
 * payer's actions are engine operations too"). Each resolves once the store has the change and
 * the callbacks it caused have been delivered (or failed an attempt), so a test can assert on
 * what its merchant handler received right after.
 */
export function createPayer(ctx: EngineContext, settle: () => Promise<void>): Payer {
  const step = async (act: () => Payment): Promise<PayerStepResult> => {
    const payment = orSandboxError('checkout', act)
    await settle()
    return {
      payment_id: payment.id,
      status: payment.status,
      ...(payment.decline_reason ? { reason: payment.decline_reason } : {}),
    }
  }
  return {
    async payCheckout(sessionUrlOrToken, card) {
      const token = sessionToken(sessionUrlOrToken)
      const { payment, redirect_url } = orSandboxError('checkout', () =>
        payWithCard(ctx, payerSession(ctx, token), card ? cardBody(card) : {}),
      )
      await settle()
      return {
        payment_id: payment.id,
        status: payment.status,
        ...(redirect_url ? { redirect_url } : {}),
        ...(payment.decline_reason ? { reason: payment.decline_reason } : {}),
      }
    },
    passThreeDs: (paymentId) => step(() => completeThreeDs(ctx, paymentId, 'pass')),
    failThreeDs: (paymentId) => step(() => completeThreeDs(ctx, paymentId, 'fail')),
    completeRedirect: (paymentId) => step(() => completeRedirect(ctx, paymentId)),
    approveApm: (paymentId) => step(() => approveApm(ctx, paymentId)),
    declineApm: (paymentId, reason) => step(() => declineApm(ctx, paymentId, reason)),
    leaveApmPending: (paymentId) => step(() => leavePending(ctx, paymentId)),
    expireApm: (paymentId) => step(() => expireApm(ctx, paymentId)),
  }
}

/** `{base_url}/auth/<token>` (docs/rules.md#sessions), with or without a query, or the bare token. */
export function sessionToken(urlOrToken: string): string {
  if (typeof urlOrToken !== 'string' || !urlOrToken.trim())
    throw new TypeError(
      `payer.payCheckout: give the session's redirect_url or token (got ${JSON.stringify(urlOrToken) ?? 'undefined'})`,
    )
  const match = /\/auth\/([^/?#]+)/.exec(urlOrToken)
  return match ? (match[1] as string) : urlOrToken.trim()
}

/** The Hosted Payment Fields body (docs/rules.md#beyond-the-interface) for a test card; the engine checks every field. */
function cardBody(card: TestCard): Record<string, string> {
  const [month = '', year = ''] = card.expiry.split('/').map((part) => part.trim())
  const body: Record<string, string> = {
    card_number: card.number,
    card_exp_month: month,
    card_exp_year: year.length === 2 ? `20${year}` : year,
  }
  if (card.cvv !== undefined) body.card_cvv2 = card.cvv
  if (card.holder !== undefined) body.card_holder = card.holder
  if (card.email !== undefined) body.payer_email = card.email
  return body
}
