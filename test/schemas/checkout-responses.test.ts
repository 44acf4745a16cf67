import { readFileSync } from 'node:fs'
import { describe, it } from 'vitest'
import { expectInvalidAt, expectValid, withField } from '../helpers/schema.js'

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../fixtures/payloads/checkout/${name}.json`, import.meta.url), 'utf8'))

describe('checkout responses: statuses and dates (docs/rules.md#transport)', () => {
  // docs/rules.md#responses: "Checkout statuses are lowercase: prepare, settled, pending, 3ds, redirect, decline, refund,
  // reversal, void, chargeback."
  const payment = fixture('hpf-card-payment-response.settled')
  // docs/rules.md#responses: "Checkout statuses are lowercase: prepare, settled, pending, 3ds, redirect, decline, ..."
  it.each(['prepare', 'settled', 'pending', 'decline', 'refund', 'reversal', 'void', 'chargeback'])(
    'accepts status %s',
    (status) => {
      expectValid('checkout/hpf-card-payment-response', withField(payment, 'status', status))
    },
  )
  // docs/rules.md#responses: "Checkout statuses are lowercase" (S2S statuses are uppercase).
  it.each(['SETTLED', 'declined', 'success'])('refuses status %s', (status) => {
    expectInvalidAt('checkout/hpf-card-payment-response', withField(payment, 'status', status), 'status')
  })
  // docs/rules.md#identifiers: "Date-times in responses: `YYYY-MM-DD HH:MM:SS` UTC."
  it.each(['2026-03-01T12:30:00Z', '2026-03-01 12:30', '2026-13-01 12:30:00', '2026-03-01 24:00:00'])(
    'refuses date %s',
    (date) => {
      const capture = fixture('capture-response.settled')
      expectInvalidAt(
        'checkout/capture-response',
        withField(capture, 'date', date),
        'date',
        'not a valid datetime',
      )
    },
  )
})

describe('checkout responses: one per endpoint (docs/rules.md#transport and docs/rules.md#beyond-the-interface)', () => {
  // docs/rules.md#responses: "session: `{"redirect_url": "{base_url}/auth/<session token>"}`".
  it('refuses a session redirect_url that is not a hosted page address', () => {
    const session = fixture('session-response.ok')
    expectInvalidAt(
      'checkout/session-response',
      withField(session, 'redirect_url', 'http://localhost:8080/pay'),
      'redirect_url',
    )
    expectInvalidAt(
      'checkout/session-response',
      withField(session, 'redirect_url', '/auth/abc'),
      'redirect_url',
    )
    expectInvalidAt('checkout/session-response', {}, 'redirect_url')
  })
  // docs/rules.md#responses: "session token: `{"token": "..."}`".
  it('refuses a session-token answer without token', () => {
    expectInvalidAt('checkout/session-token-response', { token: '' }, 'token')
  })
  // Endpoints, session update: "Not shown." -> {result: "accepted", token} (schema description).
  it('refuses a session-update answer without token or with another result', () => {
    const update = fixture('session-update-response.ok')
    expectInvalidAt('checkout/session-update-response', withField(update, 'token', undefined), 'token')
    expectInvalidAt('checkout/session-update-response', withField(update, 'result', 'ok'), 'result')
  })
  // docs/rules.md#beyond-the-interface: "the answer carries `payment_id` and `status` (and `redirect_url` when 3DS is needed)".
  it.each(['3ds', 'redirect'])('requires redirect_url with status %s', (status) => {
    const payment = withField(fixture('hpf-card-payment-response.3ds'), 'status', status)
    expectValid('checkout/hpf-card-payment-response', payment)
    expectInvalidAt(
      'checkout/hpf-card-payment-response',
      withField(payment, 'redirect_url', undefined),
      'redirect_url',
    )
  })
  // docs/rules.md#responses: "capture: `{payment_id, status: "settled", trans_status: "SUCCESS", date}`".
  it('ties a successful capture to status settled and a failed one to a reason', () => {
    const ok = fixture('capture-response.settled')
    expectInvalidAt('checkout/capture-response', withField(ok, 'status', 'pending'), 'status')
    expectInvalidAt('checkout/capture-response', withField(ok, 'trans_status', 'success'), 'trans_status')
    const fail = fixture('capture-response.fail')
    expectInvalidAt('checkout/capture-response', withField(fail, 'reason', undefined), 'reason')
  })
  // docs/rules.md#responses: "refund and retry: `{payment_id, result: "accepted"}`".
  it.each(['refund', 'retry'])('refuses a %s answer with another result', (op) => {
    const answer = fixture(`${op}-response.accepted`)
    expectInvalidAt(`checkout/${op}-response`, withField(answer, 'result', 'ACCEPTED'), 'result')
    expectInvalidAt(`checkout/${op}-response`, withField(answer, 'payment_id', undefined), 'payment_id')
  })
  // docs/rules.md#responses: "void: `{status: "SUCCESS"|"FAIL", payment_status, payment_id, date, order, reason?}`".
  it('checks the void answer', () => {
    const ok = fixture('void-response.success')
    expectInvalidAt('checkout/void-response', withField(ok, 'status', 'success'), 'status')
    expectInvalidAt('checkout/void-response', withField(ok, 'payment_status', 'VOID'), 'payment_status')
    expectInvalidAt(
      'checkout/void-response',
      withField(ok, 'order.amount', '10.001'),
      'order.amount',
      '2 decimals',
    )
    const fail = fixture('void-response.fail')
    expectInvalidAt('checkout/void-response', withField(fail, 'reason', undefined), 'reason')
  })
  // docs/rules.md#responses: "recurring: `{status: "settled"|"declined", reason?, payment_id, date, schedule_id?, order}`".
  it('checks the recurring answer', () => {
    const ok = fixture('recurring-response.settled')
    expectValid('checkout/recurring-response', withField(ok, 'schedule_id', undefined))
    expectInvalidAt('checkout/recurring-response', withField(ok, 'status', 'decline'), 'status')
    const declined = fixture('recurring-response.declined')
    expectInvalidAt('checkout/recurring-response', withField(declined, 'reason', undefined), 'reason')
    expectInvalidAt('checkout/recurring-response', withField(ok, 'order', undefined), 'order')
  })
  // docs/rules.md#card-credit: "card credit: accepted only, the outcome comes as a `type=credit` callback"
  it('checks the credit answer', () => {
    const ok = fixture('credit-response.accepted')
    expectValid('checkout/credit-response', ok)
    expectInvalidAt('checkout/credit-response', withField(ok, 'result', 'settled'), 'result')
    expectInvalidAt('checkout/credit-response', withField(ok, 'payment_id', undefined), 'payment_id')
  })
})

describe('checkout status answer (docs/rules.md#transport, Endpoints)', () => {
  const STATUS = 'checkout/status-response'
  const single = fixture('status-response.single')
  // docs/rules.md#responses: "status: `{payment_id, date, status, reason?, recurring_token?, schedule_id?, order, customer}`".
  it.each(['payment_id', 'date', 'status', 'order', 'customer'])('refuses a record without %s', (field) => {
    expectInvalidAt(STATUS, withField(single, field, undefined), field)
  })
  // Endpoints: "`card_expiration_date` (`MM/YYYY`), ARN (omitted when missing)".
  it.each(['1/2030', '2030-01', '13/2030'])('refuses card_expiration_date %s', (value) => {
    expectInvalidAt(STATUS, withField(single, 'card_expiration_date', value), 'card_expiration_date')
  })
  // Endpoints: "ARN (omitted when missing)".
  it('refuses an empty ARN (omitted when missing)', () => {
    expectInvalidAt(STATUS, withField(single, 'ARN', ''), 'ARN')
  })
  // Endpoints: "1 gives an array of one object; 2 to 100 gives an array of up to that many most recent attempts".
  it('accepts arrays of 1 and 100 records and refuses 0 and 101', () => {
    expectValid(STATUS, [single])
    expectValid(
      STATUS,
      Array.from({ length: 100 }, () => single),
    )
    expectInvalidAt(STATUS, [], '', '1 element or more')
    expectInvalidAt(
      STATUS,
      Array.from({ length: 101 }, () => single),
      '',
      '100 elements or less',
    )
  })
  // Endpoints: "2 to 100 gives an array of up to that many most recent attempts".
  it('reports a bad record inside the array at its index', () => {
    expectInvalidAt(STATUS, [single, withField(single, 'status', 'Settled')], '[1].status')
  })
})
