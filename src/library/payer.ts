import { type PayerAction, sendPayerAction } from '../core/control/payer-door.js'
import type { Gateway } from '../core/engine/gateway.js'
import type { CheckoutHpfCardPaymentResponse, CheckoutPaymentStatus } from '../generated/types.js'
import { type GatewayErrorBody, SandboxError } from './errors.js'

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
 * The payer's side of a payment, through the gateway's one door (design rule: "the payer's actions
 * are engine operations too"): each action is a request to `gateway.handle` (an in-process route,
 * control/payer-door.ts), so it runs in its own unit of work and commits whole or not at all. Each
 * resolves once the store has the change and the callbacks it caused have been delivered (or
 * failed an attempt), so a test can assert on what its merchant handler received right after.
 */
export function createPayer(gateway: Pick<Gateway, 'handle'>, settle: () => Promise<void>): Payer {
  const send = async (action: PayerAction) => {
    const answer = await sendPayerAction(gateway, action)
    if (answer.status !== 200)
      throw new SandboxError(answer.status, answer.body as unknown as GatewayErrorBody)
    await settle()
    return answer.body
  }
  const step = async (action: PayerAction): Promise<PayerStepResult> => {
    const { payment_id, status, reason } = (await send(action)) as unknown as PayerStepResult
    return { payment_id, status, ...(reason ? { reason } : {}) }
  }
  return {
    async payCheckout(sessionUrlOrToken, card) {
      const token = sessionToken(sessionUrlOrToken)
      return (await send({
        kind: 'card',
        token,
        body: card ? cardBody(card) : {},
      })) as unknown as CheckoutHpfCardPaymentResponse
    },
    passThreeDs: (paymentId) => step({ kind: '3ds', paymentId, result: 'pass' }),
    failThreeDs: (paymentId) => step({ kind: '3ds', paymentId, result: 'fail' }),
    completeRedirect: (paymentId) => step({ kind: 'redirect', paymentId }),
    approveApm: (paymentId) => step({ kind: 'apm', paymentId, outcome: 'approve' }),
    declineApm: (paymentId, reason) =>
      step({ kind: 'apm', paymentId, outcome: 'decline', ...(reason !== undefined ? { reason } : {}) }),
    leaveApmPending: (paymentId) => step({ kind: 'apm', paymentId, outcome: 'pending' }),
    expireApm: (paymentId) => step({ kind: 'apm', paymentId, outcome: 'expire' }),
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
