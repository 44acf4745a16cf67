import { gzipSync } from 'node:zlib'
import { signatures } from '../../src/index.js'
import {
  byPayment,
  get,
  hpf,
  KEY,
  keep,
  keepToken,
  order,
  PASSWORD,
  post,
  type Step,
  session,
  withAmount,
} from './build.js'

const { checkout } = signatures
const JSON_TYPE = { 'content-type': 'application/json' }

/** Every Checkout endpoint (Endpoints; docs/rules.md#transport paths), with its error cases. */
export const CHECKOUT_STEPS: Step[] = [
  {
    name: 'session',
    status: 200,
    request: () => post('/api/v1/session', session('p-1')),
    capture: keepToken('token'),
  },
  {
    name: 'session: wrong hash',
    status: 400, // docs/rules.md#errors: the item hash: Hash is not valid.
    request: () => post('/api/v1/session', session('p-x', { hash: 'f'.repeat(40) })),
  },
  {
    name: 'session: invalid',
    status: 400,
    request: () => post('/api/v1/session', { merchant_key: KEY, order: { amount: '-1' } }),
  },
  {
    name: 'session: malformed JSON',
    status: 400,
    request: () => post('/api/v1/session', '{"order":', JSON_TYPE),
  },
  {
    name: 'session: XML',
    status: 415,
    request: () => post('/api/v1/session', '<session/>', { 'content-type': 'application/xml' }),
  },
  {
    name: 'session: gzip',
    status: 200,
    request: () =>
      post('/api/v1/session', gzipSync(JSON.stringify(session('p-gz'))), {
        ...JSON_TYPE,
        'content-encoding': 'gzip',
      }),
  },
  {
    name: 'session: too large',
    status: 413,
    request: () => post('/api/v1/session', `"${'x'.repeat(1024 * 1024)}"`, JSON_TYPE),
  },
  {
    name: 'session token',
    status: 200,
    request: () => post('/api/v1/session/token', session('p-2')),
    capture: keep('hpf', 'token'),
  },
  {
    name: 'session update',
    status: 200,
    request: (s) => ({
      method: 'PUT',
      path: '/api/v1/session/update',
      headers: { token: s.hpf ?? '' },
      body: { order_amount: '12.00' },
    }),
  },
  {
    // docs/rules.md#errors: PUT /session/update with a bad or missing Token is a 403 HTML page.
    name: 'session update: no Token',
    status: 403,
    request: () => ({ method: 'PUT', path: '/api/v1/session/update', body: { order_amount: '12.00' } }),
  },
  {
    name: 'pay: debit endpoint, purchase session',
    status: 400,
    request: (s) => hpf(s.hpf, '01/2030', 'debit'),
  },
  { name: 'pay: expired card', status: 400, request: (s) => hpf(s.hpf, '01/2019') },
  {
    name: 'pay',
    status: 200,
    request: (s) => hpf(s.hpf, '01/2030'),
    capture: keep('paid', 'payment_id'),
  },
  { name: 'pay: again', status: 400, request: (s) => hpf(s.hpf, '01/2030') },
  {
    name: 'status by payment_id',
    status: 200,
    request: (s) => post('/api/v1/payment/status', byPayment(s.paid)),
  },
  {
    name: 'status by order_id, size 2',
    status: 200,
    request: () =>
      post('/api/v1/payment/status', {
        merchant_key: KEY,
        order_id: 'p-2',
        size: 2,
        hash: checkout.statusByOrder('p-2', PASSWORD),
      }),
  },
  {
    name: 'status: unknown payment',
    status: 400,
    request: () => post('/api/v1/payment/status', byPayment('nope')),
  },
  {
    name: 'refund: partial',
    status: 200,
    request: (s) => post('/api/v1/payment/refund', withAmount(s.paid, '2.00')),
  },
  {
    name: 'refund: wrong hash',
    status: 400,
    request: (s) => post('/api/v1/payment/refund', { ...withAmount(s.paid, '2.00'), hash: '0'.repeat(40) }),
  },
  {
    name: 'void: after a refund',
    status: 400,
    request: (s) => post('/api/v1/payment/void', byPayment(s.paid)),
  },
  {
    name: 'retry: not a recurring payment',
    status: 400,
    request: (s) => post('/api/v1/payment/retry', byPayment(s.paid)),
  },
  {
    name: 'held session token',
    status: 200,
    request: () =>
      post('/api/v1/session/token', session('p-3', { auth: true, recurring_init: true, req_token: true })),
    capture: keep('held', 'token'),
  },
  {
    name: 'pay: held',
    status: 200,
    request: (s) => hpf(s.held, '01/2030'),
    capture: keep('heldPaid', 'payment_id'),
  },
  {
    name: 'capture: partial',
    status: 200,
    request: (s) => post('/api/v1/payment/capture', withAmount(s.heldPaid, '6.00')),
  },
  {
    name: 'capture: unknown',
    status: 400,
    request: () => post('/api/v1/payment/capture', withAmount('nope', '1.00')),
  },
  {
    name: 'payment record',
    status: 200,
    request: (s) => get(`/sandbox/payments/${s.heldPaid}`),
    capture: (s, b) => {
      const payment = b.payment as { recurring?: { token?: string }; card_token?: string }
      s.recurring = payment.recurring?.token ?? ''
      s.cardToken = payment.card_token ?? ''
    },
  },
  {
    name: 'recurring',
    status: 200,
    request: (s) => {
      const o = order('p-4')
      const hash = checkout.recurring(s.heldPaid ?? '', s.recurring ?? '', o, PASSWORD)
      const ids = { recurring_init_trans_id: s.heldPaid, recurring_token: s.recurring }
      return post('/api/v1/payment/recurring', { merchant_key: KEY, ...ids, order: o, hash })
    },
  },
  {
    name: 'credit',
    status: 200,
    request: (s) => {
      const body = {
        order_id: 'p-5',
        order_amount: '3.00',
        order_currency: 'USD',
        order_description: 'Payout',
      }
      const hash = checkout.credit(body, PASSWORD)
      return post('/api/v1/payment/card/credit', {
        merchant_key: KEY,
        ...body,
        card_token: s.cardToken,
        hash,
      })
    },
  },
  {
    name: 'void: settled today',
    status: 200,
    request: (s) => post('/api/v1/payment/void', byPayment(s.heldPaid)),
  },
  {
    name: '3DS session token',
    status: 200,
    request: () => post('/api/v1/session/token', session('p-6')),
    capture: keep('tds', 'token'),
  },
  {
    name: 'pay: 3DS',
    status: 200,
    request: (s) => hpf(s.tds, '05/2030'),
    capture: keep('tdsPaid', 'payment_id'),
  },
  { name: 'payer passes 3DS', payer: (sandbox, s) => sandbox.payer.passThreeDs(s.tdsPaid ?? '') },
  {
    name: 'status after 3DS',
    status: 200,
    request: (s) => post('/api/v1/payment/status', byPayment(s.tdsPaid)),
  },
  { name: 'unknown path', status: 404, request: () => get('/api/v1/nowhere') },
  { name: 'wrong method', status: 404, request: () => get('/api/v1/session') },
  { name: 'HEAD', status: 404, request: () => ({ method: 'HEAD', path: '/sandbox/health' }) },
]
