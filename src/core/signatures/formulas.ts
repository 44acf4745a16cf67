import { checkoutSignatures } from './checkout.js'
import type { Secret } from './primitives.js'
import { s2sApmSignatures } from './s2s-apm.js'
import { type CardRef, s2sCardSignatures } from './s2s-card.js'

/**
 * The request signatures (docs/rules.md#signatures) as named formulas over a request's fields as
 * sent. Routes and actions name theirs in their declaration (pipeline.ts `formula`): the gateway
 * checks with it, the conformance kit and the library sign with it, the OpenAPI document lists it.
 */

/** What a formula over the original payment reads of it (S2S CARD Formulas 1 of a secondary, 2, 6, 7). */
export interface OriginalPayment {
  payerEmail: string
  card: CardRef
  /** The original is a CREDIT2CARD payout: its lookups are signed with Formula 6. */
  credit2card?: boolean
}

export interface SigningFormula {
  /** The formula's name, e.g. `s2s-apm.transaction`. */
  id: string
  /** What is hashed, in the signature table's notation. */
  text: string
  /** Reads the original payment: the gateway passes the loaded one, the kit what it remembers. */
  needsOriginal?: boolean
  sign(fields: Record<string, unknown>, secret: Secret, original?: OriginalPayment): string
}

/** A form value as a formula reads it: absent and null are empty. */
export const field = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v)

const optional = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : field(v))

/** Checkout signs with the password itself (no SHA256 mode on the JSON API); an inspecting digest is kept. */
const passwordOf = (secret: Secret): Secret =>
  typeof secret === 'string'
    ? secret
    : secret.digest
      ? { password: secret.password, digest: secret.digest }
      : secret.password

const orderOf = (fields: Record<string, unknown>) => {
  const o = (fields.order ?? {}) as Record<string, unknown>
  return {
    number: field(o.number),
    amount: field(o.amount),
    currency: field(o.currency),
    description: field(o.description),
  }
}

const NO_ORIGINAL: OriginalPayment = { payerEmail: '', card: { cardNumber: '' } }

export const CHECKOUT_FORMULAS = {
  session: {
    id: 'checkout.session',
    text: 'sha1(md5(upper(order.number + order.amount + order.currency + order.description + password)))',
    sign: (f, secret) => checkoutSignatures.session(orderOf(f), passwordOf(secret)),
  },
  amountOperation: {
    id: 'checkout.amount-operation',
    text: 'sha1(md5(upper(payment_id + amount + password)))',
    sign: (f, secret) =>
      checkoutSignatures.amountOperation(field(f.payment_id), optional(f.amount), passwordOf(secret)),
  },
  paymentOperation: {
    id: 'checkout.payment-operation',
    text: 'sha1(md5(upper(payment_id + password)))',
    sign: (f, secret) => checkoutSignatures.paymentOperation(field(f.payment_id), passwordOf(secret)),
  },
  status: {
    id: 'checkout.status',
    text: 'sha1(md5(upper(payment_id + password))), or sha1(md5(upper(order_id + password))) by order',
    sign: (f, secret) =>
      f.payment_id !== undefined
        ? checkoutSignatures.paymentOperation(field(f.payment_id), passwordOf(secret))
        : checkoutSignatures.statusByOrder(field(f.order_id), passwordOf(secret)),
  },
  recurring: {
    id: 'checkout.recurring',
    text: 'sha1(md5(upper(recurring_init_trans_id + recurring_token + order.number + order.amount + order.description + password)))',
    sign: (f, secret) =>
      checkoutSignatures.recurring(
        field(f.recurring_init_trans_id),
        field(f.recurring_token),
        orderOf(f),
        passwordOf(secret),
      ),
  },
  credit: {
    id: 'checkout.credit',
    text: 'sha1(md5(upper(order_id + order_amount + order_currency + order_description + password)))',
    sign: (f, secret) =>
      checkoutSignatures.credit(
        {
          order_id: field(f.order_id),
          order_amount: field(f.order_amount),
          order_currency: field(f.order_currency),
          order_description: field(f.order_description),
        },
        passwordOf(secret),
      ),
  },
} satisfies Record<string, SigningFormula>

/** The card a request names: its token, else its number. */
const requestCard = (f: Record<string, unknown>): CardRef =>
  typeof f.card_token === 'string' && f.card_token !== ''
    ? { cardToken: f.card_token }
    : { cardNumber: field(f.card_number) }

export const S2S_CARD_FORMULAS = {
  payment: {
    id: 's2s-card.formula-1',
    text: 'md5(upper(rev(payer_email) + password + rev(first6 + last4 | card_token))); Formula 8 md5(upper(rev(payer_email) + password)) with digital_wallet + payment_token',
    sign: (f, secret) =>
      f.digital_wallet !== undefined && f.payment_token !== undefined
        ? s2sCardSignatures.wallet(optional(f.payer_email), secret)
        : s2sCardSignatures.payment(optional(f.payer_email), secret, requestCard(f)),
  },
  card2card: {
    id: 's2s-card.card2card',
    text: "md5(upper(rev(payer_email) + password + rev(first6 + last4 of the payer's card)))",
    sign: (f, secret) =>
      s2sCardSignatures.card2card(
        optional(f.payer_email),
        secret,
        field(f.payer_card_number ?? f.card_number),
      ),
  },
  credit2card: {
    id: 's2s-card.formula-5',
    text: 'md5(upper(password + rev(first6 + last4 | card_token)))',
    sign: (f, secret) => s2sCardSignatures.credit2card(secret, requestCard(f)),
  },
  originalPayment: {
    id: 's2s-card.formula-1-original',
    text: 'md5(upper(rev(payer_email) + password + rev(first6 + last4 | card_token))) of the initial payment',
    needsOriginal: true,
    sign: (_f, secret, original = NO_ORIGINAL) =>
      s2sCardSignatures.payment(original.payerEmail, secret, original.card),
  },
  transaction: {
    id: 's2s-card.formula-2',
    text: 'md5(upper(rev(payer_email) + password + trans_id + rev(first6 + last4 | card_token))) of the payment; Formula 6 md5(upper(password + trans_id + rev(first6 + last4))) for a CREDIT2CARD',
    needsOriginal: true,
    sign: (f, secret, original = NO_ORIGINAL) =>
      original.credit2card
        ? s2sCardSignatures.credit2cardTransaction(secret, field(f.trans_id), original.card)
        : s2sCardSignatures.transaction(original.payerEmail, secret, field(f.trans_id), original.card),
  },
  byOrder: {
    id: 's2s-card.formula-7',
    text: 'md5(upper(rev(payer_email) + password + order_id + rev(first6 + last4 | card_token))) of a payment of the order',
    needsOriginal: true,
    sign: (f, secret, original = NO_ORIGINAL) =>
      s2sCardSignatures.byOrder(original.payerEmail, secret, field(f.order_id), original.card),
  },
  createSchedule: {
    id: 's2s-card.formula-3',
    text: 'md5(upper(rev(password)))',
    sign: (_f, secret) => s2sCardSignatures.createSchedule(secret),
  },
  schedule: {
    id: 's2s-card.formula-4',
    text: 'md5(upper(rev(schedule_id + password)))',
    sign: (f, secret) => s2sCardSignatures.schedule(field(f.schedule_id), secret),
  },
} satisfies Record<string, SigningFormula>

export const S2S_APM_FORMULAS = {
  payment: {
    id: 's2s-apm.payment',
    text: 'md5(upper(rev(identifier + order_id + order_amount + order_currency + password)))',
    sign: (f, secret) =>
      s2sApmSignatures.payment(
        field(f.identifier),
        field(f.order_id),
        field(f.order_amount),
        field(f.order_currency),
        secret,
      ),
  },
  payout: {
    id: 's2s-apm.payout',
    text: 'md5(upper(rev(order_id + order_amount + order_currency)) + password)',
    sign: (f, secret) =>
      s2sApmSignatures.credit2virtual(
        field(f.order_id),
        field(f.order_amount),
        field(f.order_currency),
        secret,
      ),
  },
  transaction: {
    id: 's2s-apm.transaction',
    text: 'md5(upper(rev(trans_id)) + password)',
    sign: (f, secret) => s2sApmSignatures.transaction(field(f.trans_id), secret),
  },
  creditvoid: {
    id: 's2s-apm.creditvoid',
    text: 'md5(upper(rev(trans_id + password)))',
    sign: (f, secret) => s2sApmSignatures.creditvoid(field(f.trans_id), secret),
  },
} satisfies Record<string, SigningFormula>
