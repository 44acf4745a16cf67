import qs from 'qs'
import type { Api } from '../core/engine/model.js'
import { declaredSigning, type SignedApi } from '../core/signing/declared.js'
import type { OriginalPayment } from '../core/signatures/formulas.js'
import {
  type CardRef,
  cardDigits,
  checkoutSignatures,
  type FormValue,
  md5,
  rev,
  s2sApmSignatures,
  s2sCardSignatures,
  type Secret,
  sameSignature,
  sha1,
  sha256,
  upper,
} from '../core/signatures/index.js'

/** A received callback: the raw form body, its URLSearchParams, or its fields (flat bracket keys or nested). */
export type CallbackFields = string | URLSearchParams | Record<string, unknown>

/** What an S2S CARD callback is signed over besides its own fields: the original payment's payer e-mail and card. */
export interface S2sCardPayment {
  payerEmail: string
  card: CardRef
}

export interface OrderFields {
  number: string
  amount: string
  currency: string
  description: string
}

const QS_OPTIONS = { depth: 6, arrayLimit: 200, parameterLimit: 2000, allowPrototypes: false } as const

/** Fields as a form parser reads them: strings, with bracket notation folded into nested objects. */
function formFields(fields: CallbackFields): Record<string, FormValue> {
  if (typeof fields === 'string' || fields instanceof URLSearchParams)
    return qs.parse(String(fields), QS_OPTIONS) as Record<string, FormValue>
  const flat = new URLSearchParams()
  const nested: Record<string, FormValue> = {}
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue
    if (typeof value === 'object') nested[key] = value as FormValue
    else flat.append(key, String(value))
  }
  return { ...(qs.parse(flat.toString(), QS_OPTIONS) as Record<string, FormValue>), ...nested }
}

const text = (fields: Record<string, FormValue>, key: string): string => {
  const value = fields[key]
  return typeof value === 'string' ? value : ''
}

/**
 * The `hash` a callback must carry (docs/rules.md#signatures): Checkout `payment_id + order.number +
 * order.amount + order.currency + order.description + password` (sha1 of md5); S2S CARD Formula 2
 * md5(upper(rev(payer_email) + password + trans_id + rev(first6 + last4))) of the original payment,
 * Formula 6 md5(upper(password + trans_id + rev(first6 + last4))) for CREDIT2CARD; S2S APM every
 * field but `hash`, keys sorted, values reversed, upper-cased, then the UPPER-CASED password, md5;
 * CREDIT2VIRTUAL and CREDIT2CRYPTO md5(upper(rev(trans_id + order_id + status)) + password).
 * `password` may be `{ password, sha256: true }` for a merchant in SHA256 mode.
 */
export function callbackHash(
  fields: CallbackFields,
  password: Secret,
  api: Api,
  payment?: S2sCardPayment,
): string {
  const form = formFields(fields)
  if (api === 'checkout')
    return checkoutSignatures.notification(
      text(form, 'id'),
      {
        number: text(form, 'order_number'),
        amount: text(form, 'order_amount'),
        currency: text(form, 'order_currency'),
        description: text(form, 'order_description'),
      },
      password,
    )
  if (api === 's2s-apm') {
    const action = text(form, 'action')
    if (action === 'CREDIT2VIRTUAL' || action === 'CREDIT2CRYPTO')
      return s2sApmSignatures.credit2virtualCallback(
        text(form, 'trans_id'),
        text(form, 'order_id'),
        text(form, 'status'),
        password,
      )
    return s2sApmSignatures.callback(form, password)
  }
  const original = payment ?? paymentFromCallback(form)
  if (text(form, 'action') === 'CREDIT2CARD')
    return s2sCardSignatures.credit2cardTransaction(password, text(form, 'trans_id'), original.card)
  return s2sCardSignatures.transaction(original.payerEmail, password, text(form, 'trans_id'), original.card)
}

/** Whether a callback's `hash` is right (constant-time comparison). */
export function verifyCallback(
  fields: CallbackFields,
  password: Secret,
  api: Api,
  payment?: S2sCardPayment,
): boolean {
  const form = formFields(fields)
  return sameSignature(callbackHash(form, password, api, payment), form.hash)
}

/**
 * Whether the `hash` of a redirect to success_url / cancel_url is right: the callback formula over
 * the `payment_id` of the query and the order as the merchant created it (docs/rules.md#signatures).
 */
export function verifyRedirect(
  urlOrQuery: string | URL | URLSearchParams,
  order: OrderFields,
  password: Secret,
): boolean {
  const query =
    urlOrQuery instanceof URLSearchParams
      ? urlOrQuery
      : new URL(String(urlOrQuery), 'http://redirect.invalid').searchParams
  const expected = checkoutSignatures.notification(query.get('payment_id') ?? '', order, password)
  return sameSignature(expected, query.get('hash'))
}

/** Without the original payment given, the callback's own `payer_email` and masked `card` (Protocol Mapping fields). */
function paymentFromCallback(form: Record<string, FormValue>): S2sCardPayment {
  const card = text(form, 'card')
  if (!card || !('payer_email' in form))
    throw new TypeError(
      "S2S CARD callbacks are signed over the original payment's payer e-mail and card: pass them as " +
        "verifyCallback(fields, password, 's2s-card', { payerEmail, card: { cardNumber } | { cardToken } })",
    )
  return { payerEmail: text(form, 'payer_email'), card: { cardNumber: cardDigits(card) } }
}

/**
 * The `hash` a request must carry, by the formula its route (Checkout, by `path`) or action (S2S,
 * by `action`) declares in the engine: the same formula the gateway checks it with. A formula over
 * the original payment (S2S CARD follow-ups, recurring, status by order) needs `original`: that
 * payment's payer e-mail and card (`{ payerEmail, card: { cardNumber } | { cardToken } }`).
 * Undefined for a request that carries no `hash` (Token routes) or an unknown action.
 */
export function signRequest(
  api: SignedApi,
  where: { path?: string; action?: string },
  fields: Record<string, unknown>,
  password: Secret,
  original?: OriginalPayment,
): string | undefined {
  const signing = declaredSigning(api, where)
  if (!signing) return undefined
  if (signing.formula.needsOriginal && !original)
    throw new TypeError(
      `${where.action ?? where.path} is signed over the original payment (${signing.formula.id}): pass its { payerEmail, card }`,
    )
  return signing.formula.sign(fields, password, original)
}

/**
 * Every signature of docs/rules.md#signatures, to sign requests and check what the gateway sends:
 * `checkout.session(order, password)`, `s2sCard.payment(email, password, { cardNumber })`,
 * `s2sApm.transaction(transId, password)`, ... plus callback and redirect verification.
 */
export const signatures = {
  checkout: checkoutSignatures,
  s2sCard: s2sCardSignatures,
  s2sApm: s2sApmSignatures,
  /** A request's `hash` by the formula its route or action declares (`signRequest`). */
  request: signRequest,
  callbackHash,
  verifyCallback,
  verifyRedirect,
  /** Constant-time, case-insensitive comparison of two hex signatures. */
  same: sameSignature,
  primitives: { upper, rev, md5, sha1, sha256, cardDigits },
} as const
