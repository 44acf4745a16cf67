import { signatures } from '../../src/index.js'

/** Builders for the parity table: signed requests of the demo merchant. */

export const KEY = 'demo-merchant'
export const PASSWORD = 'demo-password-0123456789abcdef'
export const EMAIL = 'doe@example.com'
export const CARD = '4111111111111111'
const { checkout, s2sCard, s2sApm } = signatures

/** What each run remembers from its own answers (ids and tokens the next requests need). */
export type State = Record<string, string>

export interface RequestSpec {
  method: string
  path: string
  headers?: Record<string, string>
  /** A plain object is sent as JSON; URLSearchParams and FormData as forms; bytes and text as they are. */
  body?: unknown
  /** A long-lived answer: only its first chunk is compared. */
  stream?: boolean
}

export type Step =
  | {
      name: string
      status: number
      request: (s: State) => RequestSpec
      capture?: (s: State, body: Record<string, unknown>) => void
    }
  | { name: string; payer: (sandbox: import('../../src/index.js').Sandbox, s: State) => Promise<unknown> }

/** Remembers a field of the answer for later steps. */
export const keep =
  (key: string, field: string) =>
  (s: State, b: Record<string, unknown>): void => {
    s[key] = String(b[field])
  }

/** Remembers the session token of a `redirect_url` (`{base_url}/auth/<token>`). */
export const keepToken =
  (key: string) =>
  (s: State, b: Record<string, unknown>): void => {
    s[key] = tokenOf(b.redirect_url)
  }

export const get = (path: string): RequestSpec => ({ method: 'GET', path })
export const post = (path: string, body?: unknown, headers: Record<string, string> = {}): RequestSpec => ({
  method: 'POST',
  path,
  body,
  headers,
})

export const order = (number: string, amount = '10.00') => ({
  number,
  amount,
  currency: 'USD',
  description: 'Parity',
})

export const session = (number: string, extra: Record<string, unknown> = {}) => ({
  merchant_key: KEY,
  operation: 'purchase',
  methods: ['card'],
  order: order(number),
  success_url: 'https://shop.test/ok',
  // docs/rules.md#hosted-payment-fields: the session-token request requires return_url (ignored by the hosted-page session)
  return_url: 'https://shop.test/back',
  hash: checkout.session(order(number), PASSWORD),
  ...extra,
})

/** A Hosted Payment Fields card payment (docs/rules.md#beyond-the-interface body) on the session of `token`. */
export function hpf(token: string | undefined, expiry: string, operation = 'purchase'): RequestSpec {
  const [month, year] = expiry.split('/')
  const card = { card_number: CARD, card_exp_month: month, card_exp_year: year, card_cvv2: '123' }
  return post(`/api/v1/processing/${operation}/card`, card, token ? { token } : {})
}

export const byPayment = (id = '') => ({
  merchant_key: KEY,
  payment_id: id,
  hash: checkout.paymentOperation(id, PASSWORD),
})

export const withAmount = (id = '', amount: string) => ({
  merchant_key: KEY,
  payment_id: id,
  amount,
  hash: checkout.amountOperation(id, amount, PASSWORD),
})

export const tokenOf = (url: unknown): string => String(url).split('/auth/')[1] ?? ''

export const s2s = (fields: Record<string, string>) => new URLSearchParams({ client_key: KEY, ...fields })

export const s2sSale = (orderId: string, month: string) =>
  s2s({
    action: 'SALE',
    order_id: orderId,
    order_amount: '10.00',
    order_currency: 'USD',
    order_description: 'Parity S2S',
    card_number: CARD,
    card_exp_month: month,
    card_exp_year: '2030',
    card_cvv2: '123',
    payer_first_name: 'John',
    payer_last_name: 'Doe',
    payer_email: EMAIL,
    payer_phone: '2125550100',
    payer_ip: '203.0.113.10',
    term_url_3ds: 'https://shop.test/3ds',
    hash: s2sCard.payment(EMAIL, PASSWORD, { cardNumber: CARD }),
  })

export const s2sCardTransaction = (action: string, transId = '') =>
  s2s({
    action,
    trans_id: transId,
    hash: s2sCard.transaction(EMAIL, PASSWORD, transId, { cardNumber: CARD }),
  })

/** S2S APM SALE: md5(upper(rev(identifier + order_id + order_amount + order_currency + password))). */
export function apmSale(orderId: string, brand: string, identifier: string): URLSearchParams {
  return s2s({
    action: 'SALE',
    brand,
    order_id: orderId,
    order_amount: '15.00',
    order_currency: 'USD',
    order_description: 'Parity APM',
    identifier,
    payer_ip: '203.0.113.20',
    return_url: 'https://shop.test/return',
    hash: s2sApm.payment(identifier, orderId, '15.00', 'USD', PASSWORD),
  })
}

export function withHash(params: URLSearchParams, hash: string): URLSearchParams {
  params.set('hash', hash)
  return params
}

export function toFormData(params: URLSearchParams): FormData {
  const form = new FormData()
  for (const [k, v] of params) form.append(k, v)
  return form
}
