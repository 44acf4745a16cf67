import type { RuleId } from '../engine/rules.js'
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
  /** The formula's name, e.g. `s2s-apm.transaction`: the `formula=` of a refused hash's `Sandbox-Rule`. */
  id: string
  /** What is hashed, in the signature table's notation. */
  text: string
  /** Its table in the rule book (docs/rules.md#checkout-signatures, #s2s-card-formulas, #s2s-apm-signatures). */
  rule: RuleId
  /** Reads the original payment: the gateway passes the loaded one, the kit what it remembers. */
  needsOriginal?: boolean
  sign(fields: Record<string, unknown>, secret: Secret, original?: OriginalPayment): string
  /**
   * The names of what `sign` hashed for these fields, in order (`payer_email`, `password`,
   * `card_number`; `original.card_token` for the original payment's): a field not sent drops out,
   * as it drops out of the formula. Names only, never values.
   */
  inputs(fields: Record<string, unknown>, original?: OriginalPayment): string[]
}

/** A form value as a formula reads it: absent and null are empty. */
export const field = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v)

const optional = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : field(v))

/** `names`, without the optional fields the request did not send (they drop out of the formula). */
const used = (f: Record<string, unknown>, names: string[], optionalNames: string[] = []) =>
  names.filter((name) => !optionalNames.includes(name) || field(valueAt(f, name)) !== '')

const valueAt = (f: Record<string, unknown>, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (here, key) => (here && typeof here === 'object' ? (here as Record<string, unknown>)[key] : undefined),
      f,
    )

/** The card a formula signs over: its token, else its number (first 6 + last 4). */
const cardInput = (f: Record<string, unknown>) =>
  typeof f.card_token === 'string' && f.card_token !== '' ? 'card_token' : 'card_number'

const originalCard = (original: OriginalPayment | undefined) =>
  original && 'cardToken' in original.card ? 'original.card_token' : 'original.card_number'

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
    rule: 'checkout-signatures',
    inputs: () => ['order.number', 'order.amount', 'order.currency', 'order.description', 'password'],
    sign: (f, secret) => checkoutSignatures.session(orderOf(f), passwordOf(secret)),
  },
  amountOperation: {
    id: 'checkout.amount-operation',
    text: 'sha1(md5(upper(payment_id + amount + password))), amount only when sent, exactly as sent',
    rule: 'checkout-signatures',
    inputs: (f) => used(f, ['payment_id', 'amount', 'password'], ['amount']),
    sign: (f, secret) =>
      checkoutSignatures.amountOperation(field(f.payment_id), optional(f.amount), passwordOf(secret)),
  },
  paymentOperation: {
    id: 'checkout.payment-operation',
    text: 'sha1(md5(upper(payment_id + password)))',
    rule: 'checkout-signatures',
    inputs: () => ['payment_id', 'password'],
    sign: (f, secret) => checkoutSignatures.paymentOperation(field(f.payment_id), passwordOf(secret)),
  },
  status: {
    id: 'checkout.status',
    text: 'sha1(md5(upper(payment_id + password))) for a lookup by payment_id, sha1(md5(upper(order_id + password))) by order_id',
    rule: 'checkout-signatures',
    inputs: (f) => (f.payment_id !== undefined ? ['payment_id', 'password'] : ['order_id', 'password']),
    sign: (f, secret) =>
      f.payment_id !== undefined
        ? checkoutSignatures.paymentOperation(field(f.payment_id), passwordOf(secret))
        : checkoutSignatures.statusByOrder(field(f.order_id), passwordOf(secret)),
  },
  recurring: {
    id: 'checkout.recurring',
    text: 'sha1(md5(upper(recurring_init_trans_id + recurring_token + order.number + order.amount + order.description + password)))',
    rule: 'checkout-signatures',
    inputs: () => [
      'recurring_init_trans_id',
      'recurring_token',
      'order.number',
      'order.amount',
      'order.description',
      'password',
    ],
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
    rule: 'checkout-signatures',
    inputs: () => ['order_id', 'order_amount', 'order_currency', 'order_description', 'password'],
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
    rule: 's2s-card-formulas',
    inputs: (f) =>
      f.digital_wallet !== undefined && f.payment_token !== undefined
        ? used(f, ['payer_email', 'password'], ['payer_email'])
        : used(f, ['payer_email', 'password', cardInput(f)], ['payer_email']),
    sign: (f, secret) =>
      f.digital_wallet !== undefined && f.payment_token !== undefined
        ? s2sCardSignatures.wallet(optional(f.payer_email), secret)
        : s2sCardSignatures.payment(optional(f.payer_email), secret, requestCard(f)),
  },
  card2card: {
    id: 's2s-card.card2card',
    text: "md5(upper(rev(payer_email) + password + rev(first6 + last4 of the payer's card)))",
    rule: 's2s-card-formulas',
    inputs: (f) =>
      used(
        f,
        ['payer_email', 'password', f.payer_card_number !== undefined ? 'payer_card_number' : 'card_number'],
        ['payer_email'],
      ),
    sign: (f, secret) =>
      s2sCardSignatures.card2card(
        optional(f.payer_email),
        secret,
        field(f.payer_card_number ?? f.card_number),
      ),
  },
  credit2card: {
    id: 's2s-card.formula-5',
    text: "md5(upper(password + rev(first6 + last4 | card_token))), over the recipient's card",
    rule: 's2s-card-formulas',
    inputs: (f) => ['password', cardInput(f)],
    sign: (f, secret) => s2sCardSignatures.credit2card(secret, requestCard(f)),
  },
  originalPayment: {
    id: 's2s-card.formula-1-original',
    text: 'md5(upper(rev(payer_email) + password + rev(first6 + last4 | card_token))) of the initial payment',
    rule: 's2s-card-formulas',
    needsOriginal: true,
    inputs: (_f, original) => [
      ...(original?.payerEmail ? ['original.payer_email'] : []),
      'password',
      originalCard(original),
    ],
    sign: (_f, secret, original = NO_ORIGINAL) =>
      s2sCardSignatures.payment(original.payerEmail, secret, original.card),
  },
  transaction: {
    id: 's2s-card.formula-2',
    text: 'md5(upper(rev(payer_email) + password + trans_id + rev(first6 + last4 | card_token))) of the payment; Formula 6 md5(upper(password + trans_id + rev(first6 + last4))) for a CREDIT2CARD',
    rule: 's2s-card-formulas',
    needsOriginal: true,
    inputs: (_f, original) => [
      ...(original?.payerEmail && !original.credit2card ? ['original.payer_email'] : []),
      'password',
      'trans_id',
      originalCard(original),
    ],
    sign: (f, secret, original = NO_ORIGINAL) =>
      original.credit2card
        ? s2sCardSignatures.credit2cardTransaction(secret, field(f.trans_id), original.card)
        : s2sCardSignatures.transaction(original.payerEmail, secret, field(f.trans_id), original.card),
  },
  byOrder: {
    id: 's2s-card.formula-7',
    text: 'md5(upper(rev(payer_email) + password + order_id + rev(first6 + last4 | card_token))) of a payment of the order',
    rule: 's2s-card-formulas',
    needsOriginal: true,
    inputs: (_f, original) => [
      ...(original?.payerEmail ? ['original.payer_email'] : []),
      'password',
      'order_id',
      originalCard(original),
    ],
    sign: (f, secret, original = NO_ORIGINAL) =>
      s2sCardSignatures.byOrder(original.payerEmail, secret, field(f.order_id), original.card),
  },
  createSchedule: {
    id: 's2s-card.formula-3',
    text: 'md5(upper(rev(password)))',
    rule: 's2s-card-formulas',
    inputs: () => ['password'],
    sign: (_f, secret) => s2sCardSignatures.createSchedule(secret),
  },
  schedule: {
    id: 's2s-card.formula-4',
    text: 'md5(upper(rev(schedule_id + password)))',
    rule: 's2s-card-formulas',
    inputs: () => ['schedule_id', 'password'],
    sign: (f, secret) => s2sCardSignatures.schedule(field(f.schedule_id), secret),
  },
} satisfies Record<string, SigningFormula>

export const S2S_APM_FORMULAS = {
  payment: {
    id: 's2s-apm.payment',
    text: 'md5(upper(rev(identifier + order_id + order_amount + order_currency + password)))',
    rule: 's2s-apm-signatures',
    inputs: (f) =>
      used(f, ['identifier', 'order_id', 'order_amount', 'order_currency', 'password'], ['identifier']),
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
    rule: 's2s-apm-signatures',
    inputs: () => ['order_id', 'order_amount', 'order_currency', 'password'],
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
    rule: 's2s-apm-signatures',
    inputs: () => ['trans_id', 'password'],
    sign: (f, secret) => s2sApmSignatures.transaction(field(f.trans_id), secret),
  },
  creditvoid: {
    id: 's2s-apm.creditvoid',
    text: 'md5(upper(rev(trans_id + password)))',
    rule: 's2s-apm-signatures',
    inputs: () => ['trans_id', 'password'],
    sign: (f, secret) => s2sApmSignatures.creditvoid(field(f.trans_id), secret),
  },
} satisfies Record<string, SigningFormula>

/** A signature the gateway puts on what it sends (callbacks, redirects), by its name and text. */
export interface CallbackFormula {
  id: string
  text: string
  rule: RuleId
  /** The callback's fields it is computed over, in order (the password last, or where it goes). */
  inputs: readonly string[]
}

/**
 * The callbacks' signatures (docs/rules.md#signatures), written once beside the request formulas:
 * the callback builders sign with the functions these texts describe, and the conformance kit
 * names them to a merchant whose check fails.
 */
export const CALLBACK_FORMULAS = {
  checkout: {
    id: 'checkout.callback',
    text: 'sha1(md5(upper(id + order_number + order_amount + order_currency + order_description + password))), over the flat form fields',
    rule: 'checkout-signatures',
    inputs: ['id', 'order_number', 'order_amount', 'order_currency', 'order_description', 'password'],
  },
  's2s-card': {
    id: 's2s-card.formula-2',
    text: 'md5(upper(rev(payer_email) + password + trans_id + rev(first6 + last4 | card_token))) of the payment',
    rule: 's2s-card-formulas',
    inputs: ['original.payer_email', 'password', 'trans_id', 'original.card_number'],
  },
  's2s-card-payout': {
    id: 's2s-card.formula-6',
    text: 'md5(upper(password + trans_id + rev(first6 + last4 | card_token))), a CREDIT2CARD',
    rule: 's2s-card-formulas',
    inputs: ['password', 'trans_id', 'original.card_number'],
  },
  's2s-apm': {
    id: 's2s-apm.callback',
    text: 'md5(upper(every field but hash, keys sorted at each level, each value reversed, joined) + upper(password))',
    rule: 's2s-apm-signatures',
    inputs: ['every field but hash', 'password'],
  },
  's2s-apm-payout': {
    id: 's2s-apm.payout-callback',
    text: 'md5(upper(rev(trans_id + order_id + status)) + password), a CREDIT2VIRTUAL or CREDIT2CRYPTO',
    rule: 's2s-apm-signatures',
    inputs: ['trans_id', 'order_id', 'status', 'password'],
  },
} as const satisfies Record<string, CallbackFormula>
