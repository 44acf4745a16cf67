import { describe, expect, it } from 'vitest'
import type { CallbackRecord } from '../../src/conformance/callback-channel.js'
import {
  causesOf,
  findingLines,
  isRefused,
  maskCards,
  probeRefusedCallback,
} from '../../src/conformance/causes.js'
import type { ScenarioContext } from '../../src/conformance/context.js'
import type { ObservedRequest } from '../../src/conformance/sandbox-host.js'
import type { Payment } from '../../src/core/engine/model.js'
import type { Refusal } from '../../src/core/engine/refusal.js'
import { md5, rev, upper } from '../../src/core/signatures/primitives.js'
import { s2sApmSignatures } from '../../src/core/signatures/s2s-apm.js'
import { s2sCardSignatures } from '../../src/core/signatures/s2s-card.js'
import { signatures } from '../../src/index.js'

/**
 * Cause first (issue 23, requirement 1; issue 30, items 2 and 5; docs/conformance.md, Read a
 * failure): each kind of cause the kit observes becomes a finding whose headline names it first
 * (the merchant's action and the rule), then the symptom, with the request as sent, the gateway's
 * answer, the rule and the fix. A refusal is judged from the structured refusal the gateway gave
 * (docs/rules.md#rule-book), which these observed requests carry as the kit's host records it.
 */

const PASSWORD = 'ref-password-0123456789abcdef'
let seq = 0
function request(
  path: string,
  body: Record<string, unknown>,
  answer: { status: number; json?: unknown; warnings?: string[]; text?: string; refusal?: Refusal },
  extra: Partial<ObservedRequest> = {},
): ObservedRequest {
  const form = path === '/post'
  const text = form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body)
  return {
    seq: seq++,
    method: 'POST',
    path,
    headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
    text,
    body,
    answer: { text: answer.text ?? JSON.stringify(answer.json ?? {}), ...answer },
    consumed: false,
    ...extra,
  }
}
/** A Checkout refusal: the platform's body, and the refusal the gateway gave beside it. */
const invalid = (refusal: Refusal, ...messages: string[]) => ({
  status: 400,
  json: {
    error_code: 0,
    error_message: 'Request data is invalid.',
    errors: messages.map((m) => ({ error_code: 100000, error_message: m })),
  },
  refusal,
})
/** The kit's gateway's ledger, with these payments of the merchant. */
const ledger = (payments: Partial<Payment>[]) => {
  const all = payments.map((p) => ({ merchant_key: 'ref-merchant', created_at: 0, ...p }) as Payment)
  return {
    get: (_: string, id: string) => all.find((p) => p.id === id),
    findBy: (_: string, field: keyof Payment, value: string) => all.filter((p) => p[field] === value),
  }
}
function ctxWith(
  requests: ObservedRequest[],
  callbacks: Partial<CallbackRecord>[] = [],
  payments: Partial<Payment>[] = [],
): ScenarioContext {
  return {
    mode: 'merchant',
    credentials: { merchant_key: 'ref-merchant', password: PASSWORD },
    hosted: { requests, gateway: { ctx: { store: ledger(payments) } } } as never,
    channel: { log: callbacks as CallbackRecord[], timeoutMs: 10_000 } as never,
  } as unknown as ScenarioContext
}
const UNSIGNED: Refusal = { rule: 'required-fields', fields: ['hash'] }
const WRONG_HASH: Refusal = { rule: 'checkout-signatures', fields: ['hash'], formula: 'checkout.session' }
const EXPIRY: Refusal = { rule: 'session-expiry', fields: ['session_expiry'] }
const order = { number: 'o-1', amount: '10.00', currency: 'EUR', description: 'Order o-1' }

describe('the headline names the cause', () => {
  it('an unsigned Checkout status lookup: the refused lookup, its formula and the hash it should carry', () => {
    const ctx = ctxWith([
      request('/api/v1/session', { merchant_key: 'ref-merchant', order }, { status: 200, json: {} }),
      request(
        '/api/v1/payment/status',
        { merchant_key: 'ref-merchant', payment_id: 'pay-1' },
        invalid(UNSIGNED, 'hash: This value should not be blank.'),
      ),
    ])
    const [first, ...rest] = causesOf(ctx)
    expect(rest).toEqual([])
    expect(first?.cause).toBe(
      'the merchant sent POST /api/v1/payment/status unsigned (no hash), where checkout.status signs it (docs/rules.md#checkout-signatures)',
    )
    expect(first?.headline).toBe(
      `${first?.cause}: the gateway refused it (HTTP 400: hash: This value should not be blank.)`,
    )
    expect(first?.rule).toMatch(/^checkout\.status: sha1\(md5\(upper\(payment_id \+ password\)\)\)/)
    expect(first?.section).toBe('Authentication; docs/rules.md#checkout-signatures')
    expect(first?.fix).toBe(
      `sign the request: it carried no hash; with the adapter's password this one is ${signatures.checkout.paymentOperation('pay-1', PASSWORD)}`,
    )
  })

  it('session_expiry in seconds: the refused session request, the minutes rule, and the value in minutes', () => {
    const [first] = causesOf(
      ctxWith([
        request(
          '/api/v1/session',
          { order, session_expiry: 1800 },
          invalid(
            { rule: 'session-expiry', fields: ['session_expiry'] },
            'session_expiry: This value should be less than or equal to 720.',
          ),
        ),
      ]),
    )
    expect(first?.headline).toMatch(
      /^the merchant sent session_expiry 1800, which looks like seconds \(30 minutes\), where it is counted in minutes \(POST \/api\/v1\/session\) \(docs\/rules\.md#session-expiry\): the gateway refused it \(HTTP 400: session_expiry: /,
    )
    expect(first?.rule).toMatch(/whole number of minutes, 1 to 720/)
    expect(first?.fix).toBe('session_expiry 1800 looks like seconds: send minutes (30)')
  })

  it('an amount sent as a JSON number: the refused session request and "send it as a string"', () => {
    const [first] = causesOf(
      ctxWith([
        request(
          '/api/v1/session',
          { order: { ...order, amount: 10 } },
          invalid(
            { rule: 'amounts', fields: ['order.amount'] },
            'order.amount: This value should be of type string.',
          ),
        ),
      ]),
    )
    expect(first?.headline).toMatch(
      /^the merchant sent order\.amount as the JSON number 10, where the API takes a decimal string \(POST \/api\/v1\/session\) \(docs\/rules\.md#amounts\): the gateway refused it \(HTTP 400: order\.amount: /,
    )
    expect(first?.rule).toMatch(
      /^docs\/rules\.md#amounts \(Amounts\): amounts are decimal strings with a dot/,
    )
    expect(first?.fix).toBe(
      'send order.amount as a string ("10.00" for a 2-decimal currency), not the JSON number 10',
    )
  })

  it('a form callback read as JSON: the unacknowledged callback, its answer and the content-type handling', () => {
    const callback: Partial<CallbackRecord> = {
      index: 0,
      source: 'gateway',
      api: 'checkout',
      url: 'http://127.0.0.1:1/gateway/callback',
      fields: { type: 'sale', order_status: 'settled', status: 'success', card: '4111111111111111' },
      text: 'type=sale&order_status=settled&status=success&card=4111111111111111',
      attempts: [
        {
          status: 500,
          body: 'SyntaxError: Unexpected token t in JSON at position 0',
          acknowledged: false,
          ms: 3,
        },
      ],
    }
    const [first] = causesOf(ctxWith([], [callback]))
    expect(first?.kind).toBe('unacknowledged-callback')
    expect(first?.headline).toMatch(
      /^the merchant's callback handler could not read the body: callbacks are form-encoded \(application\/x-www-form-urlencoded\), not JSON \(docs\/rules\.md#callback-format\): it did not acknowledge #0 sale\/settled \(success\): attempt 1: HTTP 500 /,
    )
    expect(first?.fix).toMatch(/parse the callback body as a form/)
    expect(first?.request).not.toMatch(/4111111111111111/)
  })

  it('a refused request comes before a callback it led to, and a warning is a cause of its own', () => {
    const ctx = ctxWith(
      [
        request(
          '/api/v1/session',
          { order: { ...order, amount: '10' } },
          {
            status: 200,
            json: {},
            warnings: ['order.amount: 10 EUR; documented: 10.00 (two decimals); source: 2.1.1'],
          },
        ),
        request(
          '/api/v1/payment/status',
          { payment_id: 'p' },
          invalid(UNSIGNED, 'hash: This value should not be blank.'),
        ),
      ],
      [
        {
          index: 0,
          source: 'gateway',
          api: 'checkout',
          fields: { type: 'sale', order_status: 'settled', status: 'success' },
          text: '',
          url: 'u',
          attempts: [{ status: 503, body: 'status lookup failed', acknowledged: false, ms: 1 }],
        },
      ],
    )
    expect(causesOf(ctx).map((f) => f.kind)).toEqual([
      'warning',
      'refused-request',
      'unacknowledged-callback',
    ])
    expect(causesOf(ctx)[0]?.cause).toBe(
      'the merchant sent order.amount: 10 EUR, where the platform documents 10.00 (two decimals) (POST /api/v1/session; 2.1.1)',
    )
    expect(causesOf(ctx)[0]?.fix).toBe('send it as documented: order.amount 10.00 (two decimals)')
  })

  it('a refund above what remains: what the ledger has left, from the row of the state table that refused it', () => {
    const refund = request(
      '/api/v1/payment/refund',
      { payment_id: 'p', amount: '10.00' },
      invalid(
        { rule: 'refunds', fields: ['amount'], transition: 'refund-above-left' },
        'amount: Not acceptable to request the refund for amount bigger than payment amount.',
      ),
    )
    const paid = { id: 'p', status: 'refund', order: { ...order, currency: 'EUR' } } as Partial<Payment>
    const [first] = causesOf(
      ctxWith([refund], [], [{ ...paid, amount_captured: '10.00', amount_refunded: '4.00' }]),
    )
    expect(first?.cause).toBe(
      'the merchant asked 10.00 in POST /api/v1/payment/refund, where the payment has 6.00 left (10.00 charged, 4.00 refunded) (docs/rules.md#refunds; state table row refund-above-left)',
    )
    expect(first?.rule).toMatch(/a refund is at most what the payment has left/)
    expect(first?.fix).toBe('send at most 6.00, or no amount for all of it (it was "10.00")')
    expect(first?.section).toBe('States and transitions; docs/rules.md#refunds')
  })

  it('a renewal naming a renewal of its chain: named for a refusal of the recurring payments rule only', () => {
    const renew = (refusal: Refusal) =>
      request(
        '/api/v1/payment/recurring',
        { recurring_init_trans_id: 'ren-1', recurring_token: 'tok' },
        { status: 400, json: { error_code: 100000, error_message: 'Incorrect transaction' }, refusal },
      )
    const chain = [
      {
        id: 'init',
        order,
        status: 'settled',
        recurring: { init: true, token: 'tok', init_trans_id: 'init' },
      },
      {
        id: 'ren-1',
        order: { ...order, number: 'o-1-R1' },
        status: 'settled',
        recurring: { init: false, init_trans_id: 'init', parent_payment_id: 'init' },
      },
    ] as Partial<Payment>[]
    expect(causesOf(ctxWith([renew({ rule: 'recurring-payments' })], [], chain))[0]?.cause).toBe(
      "the merchant stored a renewal as the chain's initial transaction: its recurring_init_trans_id names ren-1, a renewal of the chain (order o-1-R1, settled), not the chain's initial payment init (order o-1) (docs/rules.md#recurring-payments)",
    )
    const signed = renew({ rule: 'checkout-signatures', fields: ['hash'], formula: 'checkout.recurring' })
    expect(causesOf(ctxWith([signed], [], chain))[0]?.cause).not.toMatch(/renewal/)
  })

  it('a rule changed in 6.7.0 says so', () => {
    const [first] = causesOf(
      ctxWith([
        request(
          '/post',
          { action: 'CREATE_SCHEDULE', delays: '3' },
          {
            status: 400,
            json: { result: 'ERROR', error_code: 100000, error_message: 'delays: Parameter is deprecated.' },
            refusal: { rule: 'releases', fields: ['delays'], row: 'S2S_CARD_SCHEDULE_DELAYS_DEPRECATED' },
          },
        ),
      ]),
    )
    expect(first?.cause).toBe(
      'the merchant sent delays "3" in POST /post CREATE_SCHEDULE (docs/rules.md#releases)',
    )
    expect(first?.rule).toMatch(/^docs\/rules\.md#releases \(Releases\): .*6\.7\.0 changed \(delays/)
  })
})

const NOT_ASKED = { auth: false, recurring_init: false, req_token: false }
const sale = (fields: Record<string, string>) => ({
  action: 'SALE',
  client_key: 'ref-merchant',
  order_id: 'o-1',
  order_amount: '10.00',
  order_currency: 'EUR',
  order_description: 'Order o-1',
  ...fields,
})
const settledSale = (transId: string) => ({
  status: 200,
  json: { action: 'SALE', result: 'SUCCESS', status: 'SETTLED', order_id: 'o-1', trans_id: transId },
})

describe('intent: what the merchant sent against what the kit asked for (issue 23, requirement 3)', () => {
  it('an amount off by a power of ten: the amount asked, the amount sent, the decimals it assumed', () => {
    const ctx = ctxWith([
      request(
        '/api/v1/session',
        { order: { ...order, amount: '15.00', currency: 'JPY' } },
        { status: 200, json: {} },
      ),
    ])
    ctx.asked = { 'o-1': { flags: NOT_ASKED, amounts: ['1500 JPY'] } }
    const [first, ...rest] = causesOf(ctx)
    expect(rest).toEqual([])
    expect(first?.kind).toBe('intent')
    expect(first?.headline).toBe(
      'the merchant sent order.amount "15.00" JPY for an order of 1500 JPY (POST /api/v1/session): 1/100 of it, as if JPY had 2 decimals; JPY has none (ISO 4217)',
    )
    expect(first?.rule).toMatch(/^order\.amount is the order's amount: docs\/rules\.md#amounts/)
    expect(first?.section).toBe('2.1.1; docs/rules.md#amounts')
    expect(first?.fix).toMatch(/send order\.amount "1500\.00"$/)
  })

  it('a three-decimal currency sent with two: ten times the amount, named before the warning it got', () => {
    const ctx = ctxWith([
      request('/post', sale({ order_amount: '123.45', order_currency: 'KWD' }), {
        ...settledSale('t-1'),
        warnings: [
          'order_amount: 123.45 KWD; documented: 3 decimals for KWD, for example 100.000; source: x',
        ],
      }),
    ])
    ctx.asked = { 'o-1': { flags: NOT_ASKED, amounts: ['12.345 KWD'] } }
    const found = causesOf(ctx)
    expect(found.map((f) => f.kind)).toEqual(['intent', 'warning'])
    expect(found[0]?.headline).toBe(
      'the merchant sent order_amount "123.45" KWD for an order of 12.345 KWD (POST /post SALE): 10 times it, as if KWD had 2 decimals; KWD has 3 (ISO 4217)',
    )
    expect(found[0]?.fix).toMatch(/send order_amount "12\.345"$/)
  })

  it('an amount rounded to fewer decimals than its currency has: "12.35" for 12.345 KWD', () => {
    const ctx = ctxWith([
      request('/post', sale({ order_amount: '12.35', order_currency: 'KWD' }), settledSale('t-1')),
    ])
    ctx.asked = { 'o-1': { flags: NOT_ASKED, amounts: ['12.345 KWD'] } }
    expect(causesOf(ctx)[0]?.headline).toBe(
      'the merchant sent order_amount "12.35" KWD for an order of 12.345 KWD (POST /post SALE): the order\'s amount rounded to 2 decimals; KWD has 3 (ISO 4217)',
    )
    ctx.asked = { 'o-1': { flags: NOT_ASKED, amounts: ['12.000 KWD'] } }
    expect(causesOf(ctx)[0]?.headline).toMatch(/: another amount than the order$/)
    // The same amount with a trailing zero is no cause; a malformed one is a matter of form, for
    // the gateway's refusal or warning to name.
    ctx.asked = { 'o-1': { flags: NOT_ASKED, amounts: ['12.350 KWD'] } }
    expect(causesOf(ctx)).toEqual([])
    const comma = ctxWith([
      request('/post', sale({ order_amount: '12,35', order_currency: 'KWD' }), settledSale('t-1')),
    ])
    comma.asked = { 'o-1': { flags: NOT_ASKED, amounts: ['12.35 KWD'] } }
    expect(causesOf(comma)).toEqual([])
  })

  it('the same amount in another form ("1500.00" for 1500 JPY), or an amount asked earlier under the order number, is no cause', () => {
    const ctx = ctxWith([
      request('/post', sale({ order_amount: '1500.00', order_currency: 'JPY' }), settledSale('t-1')),
      request('/post', sale({ order_id: 'o-2', order_amount: '5.00' }), settledSale('t-2')),
    ])
    ctx.asked = {
      'o-1': { flags: NOT_ASKED, amounts: ['1500 JPY'] },
      'o-2': { flags: NOT_ASKED, amounts: ['5.00 EUR', '7.00 EUR'] },
    }
    expect(causesOf(ctx)).toEqual([])
  })

  it('recurring_init=Y on an S2S SALE not asked to be recurring: the flag and the chain the gateway started', () => {
    const ctx = ctxWith([
      request('/post', sale({ recurring_init: 'Y' }), {
        status: 200,
        json: { ...settledSale('t-1').json, recurring_token: 'tok-1' },
      }),
    ])
    ctx.asked = { 'o-1': { flags: NOT_ASKED, amounts: ['10.00 EUR'] } }
    const [first] = causesOf(ctx)
    expect(first?.headline).toBe(
      'the merchant sent recurring_init "Y" (POST /post SALE) for a payment it was not asked to make recurring: the gateway started a recurring chain for it (it answered a recurring_token)',
    )
    expect(first?.rule).toMatch(/docs\/rules\.md#booleans/)
    expect(first?.fix).toBe('leave recurring_init out (or send N) unless the payer asked for it')
    ctx.asked = { 'o-1': { flags: { ...NOT_ASKED, recurring_init: true }, amounts: ['10.00 EUR'] } }
    expect(causesOf(ctx)).toEqual([])
  })

  it('an S2S flag sent as "false": the refusal, and the letter it stands for', () => {
    const [first] = causesOf(
      ctxWith([
        request('/post', sale({ recurring_init: 'false' }), {
          status: 400,
          json: {
            result: 'ERROR',
            error_code: 100000,
            error_message: 'Request data is invalid.',
            errors: [
              {
                error_code: 100000,
                error_message:
                  'recurring_init: The value you selected is not a valid choice. Valid values: Y, N.',
              },
            ],
          },
          refusal: { rule: 'booleans', fields: ['recurring_init'] },
        }),
      ]),
    )
    expect(first?.headline).toMatch(
      /^the merchant sent recurring_init "false", a boolean spelled as a word, where S2S flags are the letters Y or N \(POST \/post SALE\) \(docs\/rules\.md#booleans\): the gateway refused it \(HTTP 400: recurring_init: .*Valid values: Y, N\.\)$/,
    )
    expect(first?.fix).toMatch(
      /; S2S flags are the letters Y or N \(docs\/rules\.md#booleans\): "false" is recurring_init=N, or no recurring_init at all$/,
    )
  })
})

describe('a payment sent again after its answer was lost', () => {
  it('two SALEs for one order, both done: the payer is charged twice, and the recovery path', () => {
    const lost = request(
      '/post',
      sale({}),
      { status: 0, text: '(no answer: connection dropped, sandbox fault lost)' },
      { fault: 'lost' },
    )
    const again = request('/post', sale({}), settledSale('t-2'))
    // The ledger's order, not the order the kit saw answers in: t-1 was made first.
    const payments = [
      { id: 't-2', api: 's2s-card', order_id: 'o-1', status: 'settled', created_at: 2 },
      { id: 't-1', api: 's2s-card', order_id: 'o-1', status: 'settled', created_at: 1 },
    ] as Partial<Payment>[]
    const [first, ...rest] = causesOf(ctxWith([lost, again], [], payments))
    expect(rest).toEqual([])
    expect(first?.kind).toBe('double-charge')
    expect(first?.headline).toBe(
      'the merchant sent POST /post SALE again for order o-1 without looking the order up first, where its earlier POST /post SALE was done and its answer lost (sandbox fault "lost") (one order, one charge: docs/conformance.md, Gateway faults): the gateway did the second too (HTTP 200 SETTLED, trans_id t-2), and the payer is charged twice for order o-1 (its payments, as the gateway made them: t-1 SETTLED, t-2 SETTLED)',
    )
    expect(first?.fix).toMatch(/look the order up \(GET_TRANS_STATUS_BY_ORDER\)/)
  })

  it('a SALE that timed out undone, then sent again after the lookup: one charge, no cause', () => {
    const timedOut = request('/post', sale({}), { status: 0, text: '' }, { fault: 'timeout' })
    const lookup = request(
      '/post',
      { action: 'GET_TRANS_STATUS_BY_ORDER', order_id: 'o-1' },
      { status: 400, json: { result: 'ERROR', error_code: 101000, error_message: 'Order does not exist.' } },
    )
    const again = request('/post', sale({}), settledSale('t-2'))
    expect(causesOf(ctxWith([timedOut, lookup, again]))).toEqual([])
  })

  it('a SALE whose answer was lost and never looked up: the unknown outcome, and the lookup that settles it', () => {
    const lost = request(
      '/post',
      sale({}),
      { status: 0, text: '(no answer: connection dropped, sandbox fault lost)' },
      { fault: 'lost' },
    )
    const byTransId = request('/post', { action: 'GET_TRANS_STATUS', trans_id: 't-1' }, settledSale('t-1'))
    const [first, ...rest] = causesOf(ctxWith([lost, byTransId]))
    expect(rest).toEqual([])
    expect(first?.kind).toBe('unknown-outcome')
    expect(first?.headline).toBe(
      'the merchant never looked order o-1 up after its POST /post SALE got no answer: the gateway did it and its answer was lost (sandbox fault "lost"); an answer that never came is an unknown outcome, which only the status lookup of the order settles',
    )
    expect(first?.fix).toMatch(/^look the order up \(GET_TRANS_STATUS_BY_ORDER\)/)
  })

  it('a SALE that timed out, sent again without a lookup: charged once by luck, named all the same', () => {
    const timedOut = request('/post', sale({}), { status: 0, text: '' }, { fault: 'timeout' })
    const again = request('/post', sale({}), settledSale('t-2'))
    const [first, ...rest] = causesOf(ctxWith([timedOut, again]))
    expect(rest).toEqual([])
    expect(first?.headline).toBe(
      'the merchant sent POST /post SALE again for order o-1 without looking the order up first, after its POST /post SALE got no answer (one order, one charge: docs/conformance.md, Gateway faults): its answer never came (sandbox fault "timeout"; this time the gateway had not done it); an answer that never came may mean the payment was done, and a second one charges the payer twice',
    )
  })

  it('a Hosted Payment Fields payment sent again on a paid session: the refusal says to look it up', () => {
    const [first] = causesOf(
      ctxWith([
        request(
          '/api/v1/processing/purchase/card',
          { card_number: '4111111111111111' },
          invalid({ rule: 'session-payments' }, 'A payment already exists for this session.'),
        ),
      ]),
    )
    expect(first?.fix).toMatch(
      /already made by an earlier request: look it up \(POST \/api\/v1\/payment\/status by order_id\)/,
    )
  })
})

describe('a genuine callback refused for its hash', () => {
  const fields = {
    id: 'pay-1',
    order_number: 'o-1',
    order_amount: '10.00',
    order_currency: 'EUR',
    order_description: 'Order o-1',
    order_status: 'settled',
    type: 'sale',
    status: 'success',
  }
  // Signed as the gateway signs it: sha1(md5(upper(id + order_number + ... + password))).
  const hash = signatures.checkout.notification('pay-1', order, PASSWORD)
  const refused = (signed = hash): Partial<CallbackRecord> => ({
    index: 0,
    source: 'gateway',
    api: 'checkout',
    url: 'http://127.0.0.1:1/gateway/callback',
    fields: { ...fields, hash: signed },
    text: new URLSearchParams({ ...fields, hash: signed }).toString(),
    attempts: [{ status: 400, body: 'invalid hash', acknowledged: false, ms: 2 }],
  })

  it('the kit re-sends it with one nested key at a time and names the one the merchant then takes', async () => {
    const sent: Record<string, string>[] = []
    const ctx = ctxWith([], [refused()])
    ;(ctx as unknown as { hosted: object }).hosted = { requests: [] }
    ctx.channel.sendOwn = async (template, own, source) => {
      sent.push(own)
      const record = {
        ...template,
        index: 1 + sent.length,
        source,
        fields: own,
        attempts: [{ status: 200, acknowledged: 'order[amount]' in own, ms: 1 }],
      } as CallbackRecord
      ctx.channel.log.push(record)
      return record
    }
    await probeRefusedCallback(ctx)
    expect(sent.map((f) => Object.keys(f).filter((k) => k.startsWith('order[')))).toEqual([
      ['order[number]'],
      ['order[amount]'],
    ])
    expect(ctx.callbackProbe).toEqual({ index: 0, flat: 'order_amount', nested: 'order[amount]' })
    const [first] = causesOf(ctx)
    expect(first?.headline).toBe(
      `the merchant reads the callback's order_amount from order[amount], where the gateway posts the flat form field order_amount (docs/rules.md#callback-format): it refused #0 sale/settled (success), signed right, with HTTP 400 "invalid hash", and acknowledged the same callback once the kit added order[amount]`,
    )
    expect(first?.fix).toMatch(
      /^take order_amount from the flat field order_amount \(a callback carries no order\[amount\]\); read the callback's flat form fields \(id, order_number, order_amount, order_currency, order_description, order_status, type, status, hash\)/,
    )
    // Once per scenario.
    await probeRefusedCallback(ctx)
    expect(sent).toHaveLength(2)
  })

  it('when no key helps: the gateway signed it right, and the fix lists the flat fields and the hash over them', () => {
    const ctx = ctxWith([], [refused()])
    ctx.callbackProbe = { index: 0 }
    const [first] = causesOf(ctx)
    expect(first?.headline).toBe(
      `the merchant's check of the callback's hash computes another hash: the gateway signed it right (the kit checked its hash with the adapter's password), so the merchant uses another formula, or other values than the callback's flat form fields (checkout.callback) (docs/rules.md#checkout-signatures): it did not acknowledge #0 sale/settled (success): attempt 1: HTTP 400 "invalid hash"`,
    )
    expect(first?.fix).toBe(
      `read the callback's flat form fields (id, order_number, order_amount, order_currency, order_description, order_status, type, status, hash): hash = sha1(md5(upper(id + order_number + order_amount + order_currency + order_description + password))), over the flat form fields over id "pay-1", order_number "o-1", order_amount "10.00", order_currency "EUR", order_description "Order o-1" and the adapter's password is ${hash}, the hash this callback carries; then answer any 2xx`,
    )
  })

  it('a callback the kit does not find signed right is not probed, and not called right', async () => {
    const ctx = ctxWith([], [refused('0'.repeat(40))])
    ;(ctx as unknown as { hosted: object }).hosted = { requests: [] }
    let sent = 0
    ctx.channel.sendOwn = async () => {
      sent++
      throw new Error('no probe expected')
    }
    await probeRefusedCallback(ctx)
    expect(sent).toBe(0)
    expect(causesOf(ctx)[0]?.headline).toBe(
      'the merchant did not acknowledge #0 sale/settled (success): attempt 1: HTTP 400 "invalid hash"',
    )
  })
})

describe('a genuine S2S callback refused for its hash (Authentication; docs/rules.md#signatures)', () => {
  const card = '4111111111111111'
  const email = 'payer@example.com'
  const sale = request(
    '/post',
    { action: 'SALE', order_id: 'o-1', payer_email: email, card_number: card },
    { status: 200, json: { action: 'SALE', result: 'SUCCESS', status: 'SETTLED', trans_id: 't-1' } },
  )
  const cardFields: Record<string, string> = {
    action: 'SALE',
    result: 'SUCCESS',
    status: 'SETTLED',
    order_id: 'o-1',
    trans_id: 't-1',
    amount: '10.00',
    currency: 'EUR',
  }
  // Formula 2 over the original payment, as the gateway signs an S2S CARD callback.
  const cardHash = s2sCardSignatures.transaction(email, PASSWORD, 't-1', { cardNumber: card })
  const apmFields: Record<string, string> = {
    action: 'SALE',
    result: 'REDIRECT',
    status: 'REDIRECT',
    order_id: 'o-2',
    trans_id: 't-2',
    amount: '10.00',
    currency: 'EUR',
    ARN: '',
  }
  const refused = (api: 's2s-card' | 's2s-apm', fields: Record<string, string>): Partial<CallbackRecord> => ({
    index: 0,
    source: 'gateway',
    api,
    url: 'http://127.0.0.1:1/gateway/callback',
    fields,
    body: fields,
    text: new URLSearchParams(fields).toString(),
    attempts: [{ status: 400, body: 'invalid hash', acknowledged: false, ms: 2 }],
  })
  /** The merchant's check: acknowledges (body OK) a callback whose hash `accepts` takes. */
  function merchant(ctx: ScenarioContext, accepts: (hash: string) => boolean) {
    const sent: Record<string, string>[] = []
    ctx.channel.sendOwn = async (template, own, source) => {
      sent.push(own)
      const ok = accepts(own.hash ?? '')
      const record = {
        ...template,
        index: 1 + sent.length,
        source,
        fields: own,
        attempts: [{ status: ok ? 200 : 400, body: ok ? 'OK' : 'invalid hash', acknowledged: ok, ms: 1 }],
      } as CallbackRecord
      ctx.channel.log.push(record)
      return record
    }
    return sent
  }

  it('S2S CARD checked with Formula 1 (no trans_id): the first re-send is acknowledged and the headline names it', async () => {
    const ctx = ctxWith([sale], [refused('s2s-card', { ...cardFields, hash: cardHash })])
    const formula1 = s2sCardSignatures.payment(email, PASSWORD, { cardNumber: card })
    const sent = merchant(ctx, (hash) => hash === formula1)
    await probeRefusedCallback(ctx)
    // Only the hash changes.
    expect(sent).toEqual([{ ...cardFields, hash: formula1 }])
    expect(ctx.channel.log[1]?.forgery).toBe('the same callback signed without trans_id')
    const [first, ...rest] = causesOf(ctx)
    expect(rest).toEqual([])
    expect(first?.headline).toBe(
      'the merchant verifies S2S CARD callbacks with a hash computed without trans_id (s2s-card.formula-2, docs/rules.md#s2s-card-formulas): it refused #0 SALE SUCCESS SETTLED, signed right, with HTTP 400 "invalid hash", and acknowledged the same callback signed without trans_id',
    )
    expect(first?.fix).toBe(
      `verify the callback with s2s-card.formula-2: hash = md5(upper(rev(payer_email) + password + trans_id + rev(first6 + last4 | card_token))) of the payment over payer_email "${email}", trans_id "t-1", first 6 + last 4 "4111111111" and the adapter's password: for this callback ${cardHash}, the hash it carries (signed without trans_id, it is ${formula1}); then answer the body OK`,
    )
    expect(findingLines(first as never).join('\n')).not.toMatch(/4111111111111111/)
    // Once per scenario.
    await probeRefusedCallback(ctx)
    expect(sent).toHaveLength(1)
  })

  it('S2S CARD checked with the password not upper-cased: the re-sends go through the mistakes in turn, at most six', async () => {
    const ctx = ctxWith([sale], [refused('s2s-card', { ...cardFields, hash: cardHash })])
    // md5(upper(rev(payer_email)) + password + upper(trans_id + rev(first6 + last4))).
    const asIs = md5(`${upper(rev(email))}${PASSWORD}${upper(`t-1${rev('4111111111')}`)}`)
    const sent = merchant(ctx, (hash) => hash === asIs)
    await probeRefusedCallback(ctx)
    expect(ctx.channel.log.slice(1).map((r) => r.forgery)).toEqual([
      'the same callback signed without trans_id',
      'the same callback signed without payer_email',
      'the same callback signed with the card digits not reversed',
      'the same callback signed with payer_email not reversed',
      'the same callback signed with the password not upper-cased',
    ])
    expect(sent.at(-1)?.hash).toBe(asIs)
    expect(causesOf(ctx)[0]?.headline).toMatch(
      /^the merchant verifies S2S CARD callbacks with a hash computed with the password not upper-cased \(s2s-card\.formula-2, docs\/rules\.md#s2s-card-formulas\): it refused #0 SALE SUCCESS SETTLED, signed right/,
    )
  })

  it('S2S APM checked with the password as it is: the headline names it', async () => {
    const hash = s2sApmSignatures.callback(apmFields, PASSWORD)
    const ctx = ctxWith([], [refused('s2s-apm', { ...apmFields, hash })])
    // Keys sorted (ARN, action, amount, currency, order_id, result, status, trans_id), each value reversed.
    const joined = upper(['', 'ELAS', '00.01', 'RUE', '2-o', 'TCERIDER', 'TCERIDER', '2-t'].join(''))
    expect(hash).toBe(md5(joined + upper(PASSWORD)))
    // Before its change, the formula appended the password as it is.
    const sent = merchant(ctx, (h) => h === md5(joined + PASSWORD))
    await probeRefusedCallback(ctx)
    expect(sent).toHaveLength(1)
    expect(causesOf(ctx)[0]?.headline).toBe(
      'the merchant verifies S2S APM callbacks with a hash computed with the password appended as it is, not upper-cased (s2s-apm.callback, docs/rules.md#s2s-apm-signatures): it refused #0 SALE REDIRECT REDIRECT, signed right, with HTTP 400 "invalid hash", and acknowledged the same callback signed with the password appended as it is, not upper-cased',
    )
    expect(causesOf(ctx)[0]?.fix).toMatch(
      new RegExp(
        `^verify the callback with s2s-apm\\.callback: hash = md5\\(upper\\(every field but hash, keys sorted at each level, each value reversed, joined\\) \\+ upper\\(password\\)\\) over ARN, action, amount, currency, order_id, result, status, trans_id and the adapter's password: for this callback ${hash}`,
      ),
    )
  })

  it('S2S APM checked without creditvoid_id: named, after the password mistake was tried', async () => {
    const fields = {
      ...apmFields,
      action: 'CREDITVOID',
      result: 'SUCCESS',
      status: 'REFUNDED',
      creditvoid_id: 'cv-1',
    }
    const hash = s2sApmSignatures.callback(fields, PASSWORD)
    const { creditvoid_id: _cv, ...without } = fields
    const ctx = ctxWith([], [refused('s2s-apm', { ...fields, hash })])
    const sent = merchant(ctx, (h) => h === s2sApmSignatures.callback(without, PASSWORD))
    await probeRefusedCallback(ctx)
    expect(sent).toHaveLength(2)
    expect(causesOf(ctx)[0]?.headline).toMatch(
      /^the merchant verifies S2S APM callbacks with a hash computed without creditvoid_id \(s2s-apm\.callback, docs\/rules\.md#s2s-apm-signatures\): it refused #0 CREDITVOID SUCCESS REFUNDED, signed right/,
    )
  })

  it('no mistake acknowledged: at most six re-sends, and the headline says the kit found it signed right', async () => {
    const ctx = ctxWith([sale], [refused('s2s-card', { ...cardFields, hash: cardHash })])
    const sent = merchant(ctx, () => false)
    await probeRefusedCallback(ctx)
    expect(sent.length).toBeGreaterThan(0)
    expect(sent.length).toBeLessThanOrEqual(6)
    expect(new Set(sent.map((f) => f.hash)).size).toBe(sent.length)
    expect(sent.map((f) => f.hash)).not.toContain(cardHash)
    const [first] = causesOf(ctx)
    expect(first?.headline).toBe(
      `the merchant's check of the callback's hash computes another hash: the gateway signed it right (the kit checked its hash with the adapter's password), so the merchant uses another formula, or other values than the callback's form fields (s2s-card.formula-2) (docs/rules.md#s2s-card-formulas): it did not acknowledge #0 SALE SUCCESS SETTLED: attempt 1: HTTP 400 "invalid hash"`,
    )
    expect(first?.fix).toMatch(
      /^verify the callback with s2s-card\.formula-2: hash = md5\(.* for this callback [0-9a-f]{32}, the hash it carries; then answer the body OK$/,
    )
  })

  it('a callback the kit cannot verify is not probed: a payment it has not seen, or a hash it does not find right', async () => {
    for (const ctx of [
      // The S2S CARD formula reads the payment's e-mail and card: no SALE seen, nothing to check with.
      ctxWith([], [refused('s2s-card', { ...cardFields, hash: cardHash })]),
      ctxWith([sale], [refused('s2s-card', { ...cardFields, hash: '0'.repeat(32) })]),
      ctxWith([], [refused('s2s-apm', { ...apmFields, hash: '0'.repeat(32) })]),
    ]) {
      const sent = merchant(ctx, () => true)
      await probeRefusedCallback(ctx)
      expect(sent).toEqual([])
      expect(causesOf(ctx)[0]?.headline).toMatch(
        /^the merchant did not acknowledge #0 SALE (SUCCESS SETTLED|REDIRECT REDIRECT): attempt 1: HTTP 400 "invalid hash"$/,
      )
    }
  })
})

describe('what is not a cause', () => {
  it('an answer a gateway fault made, a refusal a step expected, a not-found status lookup', () => {
    const faulted = request('/post', { action: 'SALE' }, { status: 503, text: '<html>' }, { fault: 'error' })
    const expected = request('/api/v1/session', { order }, invalid(WRONG_HASH, 'hash: Hash is not valid.'), {
      expectedRefusal: true,
    })
    const notFound = request(
      '/post',
      { action: 'GET_TRANS_STATUS_BY_ORDER', order_id: 'x' },
      {
        status: 400,
        json: { result: 'ERROR', error_code: 101000, error_message: 'Order does not exist.' },
        refusal: { rule: 'not-found' },
      },
    )
    for (const r of [faulted, expected, notFound]) expect(isRefused(r)).toBe(false)
    expect(causesOf(ctxWith([faulted, expected, notFound]))).toEqual([])
  })

  it('card numbers never appear in full', () => {
    expect(maskCards('card_number=4111111111111111&x=1')).toBe('card_number=411111******1111&x=1')
    const finding = causesOf(
      ctxWith([
        request(
          '/post',
          { action: 'SALE', card_number: '4111111111111111' },
          invalid(WRONG_HASH, 'hash: Hash is not valid.'),
        ),
      ]),
    )[0]
    expect(findingLines(finding as never).join('\n')).not.toMatch(/4111111111111111/)
  })
})

// docs/rules.md#amounts, #sessions and Endpoints (card credit's flat order fields): a refusal whose
// field the kit can read in the request heads its finding with what the merchant sent wrong.
describe('a refused field names what the merchant sent', () => {
  const headlineOf = (path: string, body: Record<string, unknown>, refusal: Refusal, message: string) =>
    causesOf(ctxWith([request(path, body, invalid(refusal, message))]))[0]
  const AMOUNT: Refusal = { rule: 'amounts', fields: ['order.amount'] }

  it('an amount as a JSON number, with a decimal comma, with thousands separators', () => {
    const asNumber = headlineOf(
      '/api/v1/session',
      { order: { ...order, amount: 10 } },
      AMOUNT,
      'order.amount: This value should be of type string.',
    )
    expect(asNumber?.cause).toBe(
      'the merchant sent order.amount as the JSON number 10, where the API takes a decimal string (POST /api/v1/session) (docs/rules.md#amounts)',
    )
    const comma = headlineOf(
      '/api/v1/session',
      { order: { ...order, amount: '1234,50' } },
      AMOUNT,
      'order.amount: This value is not valid.',
    )
    expect(comma?.cause).toBe(
      'the merchant sent order.amount "1234,50", with a comma as the decimal separator (POST /api/v1/session) (docs/rules.md#amounts)',
    )
    expect(comma?.fix).toBe('use a dot as the decimal separator: "1234.50"')
    const thousands = headlineOf(
      '/api/v1/session',
      { order: { ...order, amount: '1,234.50' } },
      AMOUNT,
      'order.amount: This value is not valid.',
    )
    expect(thousands?.cause).toMatch(
      /with a comma as a thousands separator \(POST \/api\/v1\/session\) \(docs\/rules\.md#amounts\)$/,
    )
    expect(thousands?.fix).toBe('leave the thousands separators out: "1234.50"')
  })

  it('session_expiry in seconds, and nothing claimed for another wrong value', () => {
    const seconds = headlineOf(
      '/api/v1/session',
      { order, session_expiry: 1800 },
      EXPIRY,
      'session_expiry: This value should be less than or equal to 720.',
    )
    expect(seconds?.cause).toBe(
      'the merchant sent session_expiry 1800, which looks like seconds (30 minutes), where it is counted in minutes (POST /api/v1/session) (docs/rules.md#session-expiry)',
    )
    const other = headlineOf(
      '/api/v1/session',
      { order, session_expiry: 1000 },
      EXPIRY,
      'session_expiry: This value should be less than or equal to 720.',
    )
    expect(other?.cause).toBe(
      'the merchant sent session_expiry 1000 (POST /api/v1/session) (docs/rules.md#session-expiry)',
    )
  })

  it("a card credit's order nested under order", () => {
    const nested = headlineOf(
      '/api/v1/payment/card/credit',
      { order },
      {
        rule: 'required-fields',
        fields: ['order_id', 'order_amount', 'order_currency', 'order_description'],
      },
      'order_id: This value should not be blank.',
    )
    expect(nested?.cause).toBe(
      'the merchant nests its order under "order", where POST /api/v1/payment/card/credit takes flat order_id, order_amount, order_currency, order_description (docs/rules.md#required-fields)',
    )
  })
})
