/**
 * The rule a refused request broke, in words a merchant developer can act on: the signature
 * formula of the endpoint or action, the format of a field, the content type of an API; and, for
 * the rules release 6.7.0 changed, what changed (docs/rules.md#warnings-and-releases).
 *
 * Only texts live here: the formulas themselves are computed by signing.ts.
 */

const CHECKOUT_FORMULAS: Record<string, string> = {
  '/api/v1/session':
    'hash = sha1(md5(upper(order.number + order.amount + order.currency + order.description + password))), SHA1 over the hex MD5 string',
  '/api/v1/session/token':
    'hash = sha1(md5(upper(order.number + order.amount + order.currency + order.description + password))), SHA1 over the hex MD5 string',
  '/api/v1/payment/capture':
    'hash = sha1(md5(upper(payment_id + amount + password))), amount only when sent, exactly as sent',
  '/api/v1/payment/refund':
    'hash = sha1(md5(upper(payment_id + amount + password))), amount only when sent, exactly as sent',
  '/api/v1/payment/void': 'hash = sha1(md5(upper(payment_id + password)))',
  '/api/v1/payment/retry': 'hash = sha1(md5(upper(payment_id + password)))',
  '/api/v1/payment/status':
    'hash = sha1(md5(upper(payment_id + password))) for a lookup by payment_id, sha1(md5(upper(order_id + password))) by order_id',
  '/api/v1/payment/recurring':
    'hash = sha1(md5(upper(recurring_init_trans_id + recurring_token + order.number + order.amount + order.description + password)))',
  '/api/v1/payment/card/credit':
    'hash = sha1(md5(upper(order_id + order_amount + order_currency + order_description + password)))',
}

const CARD = 'rev(first 6 + last 4 digits of the card, or the card_token)'
const S2S_CARD_FORMULAS: Record<string, string> = {
  SALE: `Formula 1: hash = md5(upper(rev(payer_email) + password + ${CARD}))`,
  AUTH: `Formula 1: hash = md5(upper(rev(payer_email) + password + ${CARD}))`,
  DEBIT: `Formula 1: hash = md5(upper(rev(payer_email) + password + ${CARD}))`,
  RECURRING_SALE: `Formula 1 over the initial payment: hash = md5(upper(rev(payer_email) + password + ${CARD}))`,
  RECURRING_DEBIT: `Formula 1 over the initial payment: hash = md5(upper(rev(payer_email) + password + ${CARD}))`,
  CAPTURE: `Formula 2 over the original payment: hash = md5(upper(rev(payer_email) + password + trans_id + ${CARD}))`,
  VOID: `Formula 2 over the original payment: hash = md5(upper(rev(payer_email) + password + trans_id + ${CARD}))`,
  CREDITVOID: `Formula 2 over the original payment: hash = md5(upper(rev(payer_email) + password + trans_id + ${CARD}))`,
  GET_TRANS_STATUS: `Formula 2 over the original payment: hash = md5(upper(rev(payer_email) + password + trans_id + ${CARD}))`,
  GET_TRANS_DETAILS: `Formula 2 over the original payment: hash = md5(upper(rev(payer_email) + password + trans_id + ${CARD}))`,
  GET_TRANS_STATUS_BY_ORDER: `Formula 7: hash = md5(upper(rev(payer_email) + password + order_id + ${CARD}))`,
  CREDIT2CARD: `Formula 5 over the recipient's card: hash = md5(upper(password + ${CARD}))`,
  CARD2CARD: `Formula 1 over the payer's card: hash = md5(upper(rev(payer_email) + password + ${CARD}))`,
}

const S2S_APM_FORMULAS: Record<string, string> = {
  SALE: 'hash = md5(upper(rev(identifier + order_id + order_amount + order_currency + password)))',
  CREDITVOID: 'hash = md5(upper(rev(trans_id + password)))',
  CAPTURE: 'hash = md5(upper(rev(trans_id)) + password)',
  VOID: 'hash = md5(upper(rev(trans_id)) + password)',
  GET_TRANS_STATUS: 'hash = md5(upper(rev(trans_id)) + password)',
  CREDIT2VIRTUAL: 'hash = md5(upper(rev(order_id + order_amount + order_currency)) + password)',
}

/** The signature formula of a request (Authentication; docs/rules.md#signatures). */
export function formulaFor(api: string, path: string, action: string | undefined): string | undefined {
  if (api === 'checkout') return CHECKOUT_FORMULAS[path]
  if (api === 's2s-apm') return action ? S2S_APM_FORMULAS[action] : undefined
  return action ? S2S_CARD_FORMULAS[action] : undefined
}

/** Rules release 6.7.0 changed (the interface's release table), by what a refusal names. */
const CHANGED_IN_670: { match: RegExp; change: string }[] = [
  {
    match: /\bdelays\b|Parameter is deprecated/i,
    change:
      'schedules: `delays` was accepted up to 6.6.5; since 6.7.0 it is refused ("Parameter is deprecated."): send delayed_first_payment instead',
  },
  {
    match: /\b101000\b/,
    change:
      'not-found codes: up to 6.6.5 every unknown entity answered 100000; since 6.7.0 a transaction or order (GET_TRANS_STATUS, GET_TRANS_STATUS_BY_ORDER, CAPTURE) answers 101000',
  },
  {
    match: /payer_(address|city|zip|country)/,
    change:
      'S2S CARD payer address: payer_address, payer_country, payer_city and payer_zip were required up to 6.6.5 and are optional since 6.7.0 (the Protocol Mapping may still require them)',
  },
  {
    match: /\bsize\b/,
    change:
      'status lookups: `size` (how many payments of an order) is an addition of 6.7.0; 6.6.5 has no such parameter',
  },
]

export function releaseNote(text: string): string | undefined {
  const found = CHANGED_IN_670.find((c) => c.match.test(text))
  return found ? `this rule changed between releases 6.6.5 and 6.7.0: ${found.change}` : undefined
}

export const AMOUNT_RULE =
  'amounts are decimal strings with exactly the currency\'s decimals and a dot: "10.00" EUR, "1000" ISK, "1.000" KWD; UGX, JPY, KRW and CLP as "1000.00" (2.1.1; docs/rules.md#amounts)'

export const SESSION_EXPIRY_RULE =
  'session_expiry is a whole number of minutes, 1 to 720, default 60 (docs/rules.md#sessions)'

export const CONTENT_TYPE_RULE =
  'Checkout requests are JSON (application/json); S2S CARD and S2S APM requests are forms (application/x-www-form-urlencoded) (docs/rules.md#transport)'

export const CALLBACK_RULE =
  'callbacks are POSTed as a form (application/x-www-form-urlencoded, flat keys such as order_number); Checkout is acknowledged by any 2xx, S2S by the body OK (docs/rules.md#callbacks)'

/** The hash a callback carries, per API (Authentication; docs/rules.md#signatures). */
export const CALLBACK_FORMULAS: Record<string, string> = {
  checkout:
    'hash = sha1(md5(upper(id + order_number + order_amount + order_currency + order_description + password)))',
  's2s-card': `Formula 2 over the original payment: hash = md5(upper(rev(payer_email) + password + trans_id + ${CARD}))`,
  's2s-apm':
    'hash = md5(upper(every field but hash, keys sorted at each level, each value reversed, joined) + upper(password)); the password is upper-cased too (changed: before, it was appended as it is)',
}

export const HPF_ENDPOINT_RULE =
  "Hosted Payment Fields: the card goes to /api/v1/processing/<the session's operation>/card: purchase or debit (Endpoints)"

export const VOID_RULE =
  'VOID cancels a settled payment on its financial day only; a held authorization (PENDING) is released by a refund of its full amount, reported as a reversal; after the financial day a settled payment is refunded (States and transitions)'
