import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox, type Listening, type Sandbox } from '../../src/index.js'
import { type MerchantProcess, REFERENCE_KEY, REFERENCE_PASSWORD, startMerchant } from './merchant-process.js'

/**
 * The reference merchant (fixtures/merchants/reference/) against a real sandbox over HTTP: it
 * starts payments, receives the sandbox's signed callbacks, refuses forged ones and keeps its own
 * view of each order. The scenario runner checks the same through twins.test.ts; this file pins
 * the application itself.
 */

let sandbox: Sandbox
let listening: Listening
let merchant: MerchantProcess
let seq = 0

beforeAll(async () => {
  merchant = await startMerchant()
  sandbox = await createSandbox({
    seed: 'reference-merchant',
    config: {
      merchants: [
        {
          key: REFERENCE_KEY,
          password: REFERENCE_PASSWORD,
          notification_url: `${merchant.baseUrl}/gateway/callback`,
          mids: [
            {
              id: 'ref-mid',
              payment_mode: 'SMS/DMS',
              moto: false,
              card_on_file: false,
              zero_amount: false,
              override_link_target: null,
            },
          ],
        },
      ],
    },
  })
  listening = await sandbox.listen()
})

afterAll(async () => {
  await merchant?.stop()
  await sandbox?.close()
})

type Json = Record<string, unknown>

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(merchant.baseUrl + path, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  })
  const text = await response.text()
  try {
    return { status: response.status, body: JSON.parse(text) as Json }
  } catch {
    return { status: response.status, body: { text } }
  }
}

const newOrder = (amount = '10.00', currency = 'EUR') => ({
  number: `REF-${++seq}`,
  amount,
  currency,
  description: 'Reference order',
})

async function start(order: Json, extra: Json = {}) {
  const answer = await call('POST', '/test/start', {
    gateway_url: listening.url,
    flow: 'checkout',
    order,
    ...extra,
  })
  expect(answer.status).toBe(200)
  return answer.body
}

const inspect = async (orderId: unknown) => (await call('GET', `/test/orders/${orderId}`)).body
const action = (orderId: unknown, name: string, amount?: string) =>
  call('POST', '/test/action', {
    gateway_url: listening.url,
    action: name,
    order_id: orderId,
    ...(amount ? { amount } : {}),
  })

const card = (month: string, year = '2030') => ({
  number: '4111111111111111',
  expiry: `${month}/${year}`,
  cvv: '123',
})

async function sendCallback(fields: Record<string, string>) {
  const response = await fetch(`${merchant.baseUrl}/gateway/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  })
  return { status: response.status, body: await response.text() }
}

const deliveriesOf = (orderId: unknown) => sandbox.callbacks({ order_id: String(orderId) })

/** Pays a hosted-page session with a test card and answers the order number. */
async function paidCheckout(month = '01', extra: Json = {}) {
  const order = newOrder()
  const started = await start(order, extra)
  await sandbox.payer.payCheckout(String(started.redirect_url), card(month))
  return order.number
}

describe('reference merchant: Checkout hosted page', () => {
  it('marks the order paid on the signed settled callback and acknowledges it with 2xx', async () => {
    // docs/rules.md#acknowledgement: "Acknowledgement: Checkout: any 2xx."
    const orderId = await paidCheckout('01')
    expect(await inspect(orderId)).toMatchObject({
      state: 'paid',
      amount_paid: '10.00',
      callbacks_processed: 1,
    })
    const [delivery] = deliveriesOf(orderId)
    expect(delivery?.state).toBe('acknowledged')
    expect(delivery?.attempts[0]?.status).toBe(200)
  })

  it('refuses a callback whose hash, amount or signature is wrong, and changes nothing', async () => {
    // docs/rules.md#checkout-signatures: "callback and redirect `hash` | payment_id + order.number + order.amount + ..."
    const orderId = await paidCheckout('02')
    expect((await inspect(orderId)).state).toBe('failed')
    const fields = deliveriesOf(orderId)[0]?.fields as Record<string, string>
    const settled = { ...fields, order_status: 'settled', status: 'success', type: 'sale' }
    expect((await sendCallback({ ...settled, hash: 'f'.repeat(40) })).status).toBe(400)
    expect((await sendCallback({ ...settled, order_amount: '1.00' })).status).toBe(400)
    const unsigned: Record<string, string> = { ...settled }
    delete unsigned.hash
    expect((await sendCallback(unsigned)).status).toBe(400)
    // The hash covers no status: a re-labelled genuine callback is caught by the status lookup.
    expect((await sendCallback(settled)).status).toBe(400)
    expect(await inspect(orderId)).toMatchObject({
      state: 'failed',
      amount_paid: '0.00',
      callbacks_processed: 1,
    })
  })

  it('is idempotent: the same callback twice is acknowledged and changes nothing', async () => {
    const orderId = await paidCheckout('01')
    const fields = deliveriesOf(orderId)[0]?.fields as Record<string, string>
    expect(await sendCallback(fields)).toEqual({ status: 200, body: 'OK' })
    expect(await sendCallback(fields)).toEqual({ status: 200, body: 'OK' })
    expect(await inspect(orderId)).toMatchObject({
      state: 'paid',
      amount_paid: '10.00',
      callbacks_processed: 1,
    })
  })

  it('treats a 3ds callback as waiting, and a late 3ds callback after settled as stale', async () => {
    // States and transitions: "Checkout callback `order_status` values seen: `3ds`, `settled`, `reversal`."
    const order = newOrder()
    const started = await start(order)
    const paying = await sandbox.payer.payCheckout(String(started.redirect_url), card('05'))
    expect(paying.status).toBe('3ds')
    expect((await inspect(order.number)).state).toBe('pending')
    await sandbox.payer.passThreeDs(paying.payment_id)
    expect((await inspect(order.number)).state).toBe('paid')
    const threeDs = deliveriesOf(order.number).find((d) => d.fields.order_status === '3ds')
    expect((await sendCallback(threeDs?.fields as Record<string, string>)).status).toBe(200)
    expect(await inspect(order.number)).toMatchObject({ state: 'paid', amount_paid: '10.00' })
  })

  it('holds an authorization until it captures it (DMS)', async () => {
    // States and transitions: "PENDING | CAPTURE ... | The payment was authorized (`auth=Y` or DMS) | settled"
    const orderId = await paidCheckout('01', { auth: true })
    expect(await inspect(orderId)).toMatchObject({ state: 'authorized', amount_paid: '0.00' })
    const captured = await action(orderId, 'capture')
    expect(captured.body).toMatchObject({ sent: true, status: 'settled' })
    await sandbox.idle()
    expect(await inspect(orderId)).toMatchObject({ state: 'paid', amount_paid: '10.00' })
  })

  it('marks a released authorization reversed (type=refund, order_status=reversal)', async () => {
    // States and transitions: "On Checkout a reversal is reported as `type=refund` with `order_status=reversal`"
    const orderId = await paidCheckout('01', { auth: true })
    expect((await action(orderId, 'refund')).body).toMatchObject({ result: 'accepted' })
    await sandbox.idle()
    expect((await inspect(orderId)).state).toBe('reversed')
  })

  it('counts partial refunds and is refunded once the whole amount is back', async () => {
    const orderId = await paidCheckout('01')
    await action(orderId, 'refund', '4.00')
    await sandbox.idle()
    expect(await inspect(orderId)).toMatchObject({ state: 'paid', amount_refunded: '4.00' })
    await action(orderId, 'refund', '6.00')
    await sandbox.idle()
    expect(await inspect(orderId)).toMatchObject({ state: 'refunded', amount_refunded: '10.00' })
  })

  it('does not take the success redirect for payment: it checks the hash, then the status', async () => {
    // Events: "`success_url` and `cancel_url` always receive `payment_id`, `trans_id`, `order_id`, `hash`"
    const orderId = await paidCheckout('02')
    const [delivery] = deliveriesOf(orderId)
    const params = new URLSearchParams({
      payment_id: String(delivery?.payment_id),
      trans_id: 'x',
      order_id: String(orderId),
      hash: String(delivery?.fields.hash),
    })
    expect((await fetch(`${merchant.baseUrl}/payment/success?${params}`)).status).toBe(200)
    expect((await inspect(orderId)).state).toBe('failed')
    params.set('hash', '0'.repeat(40))
    expect((await fetch(`${merchant.baseUrl}/payment/success?${params}`)).status).toBe(400)
    expect((await inspect(orderId)).state).toBe('failed')
  })

  it('sends amounts by the currency exponent as the platform requires (JPY as 1000.00, ISK as 1000)', async () => {
    // docs/rules.md#amounts: exponent 0 is an integer, except UGX, JPY, KRW and CLP, required as `100.00`.
    const order = newOrder('1000', 'JPY')
    const started = await start(order)
    expect(started.redirect_url).toMatch(/\/auth\//)
    expect((await inspect(order.number)).amount).toBe('1000.00')
    const krona = newOrder('1000', 'ISK')
    expect((await start(krona)).redirect_url).toMatch(/\/auth\//)
    expect((await inspect(krona.number)).amount).toBe('1000')
  })
})

describe('reference merchant: Hosted Payment Fields and S2S CARD', () => {
  const testCard = { number: '4111111111111111', exp_month: '01', exp_year: '2030', cvv2: '123' }

  it('pays a debit session through the debit endpoint', async () => {
    // Endpoints: "/api/v1/processing/debit/card ... The endpoint must match the session operation."
    const order = newOrder()
    const started = await start(order, { flow: 'hpf', operation: 'debit', card: testCard })
    expect(started).toMatchObject({ status: 'settled' })
    await sandbox.idle()
    expect(await inspect(order.number)).toMatchObject({ state: 'paid', amount_paid: '10.00' })
  })

  it('pays by S2S SALE, verifies the S2S callback hash and answers OK', async () => {
    // docs/rules.md#acknowledgement: "S2S: body `OK`."
    const order = newOrder()
    const started = await start(order, { flow: 's2s-card', card: testCard })
    expect(started).toMatchObject({ status: 'SETTLED' })
    await sandbox.idle()
    const [delivery] = deliveriesOf(order.number)
    expect(delivery?.attempts[0]).toMatchObject({ status: 200, acknowledged: true })
    expect(await inspect(order.number)).toMatchObject({
      state: 'paid',
      amount_paid: '10.00',
      callbacks_processed: 1,
    })
    const forged = { ...(delivery?.fields as Record<string, string>), hash: '0'.repeat(32) }
    expect((await sendCallback(forged)).status).toBe(400)
  })
})

describe('reference merchant: S2S APM', () => {
  // docs/rules.md#s2s-apm-signatures: S2S APM callbacks are signed md5(upper(values) + upper(password)), values reversed, keys sorted.
  it('pays by S2S APM SALE, verifies the S2S APM callback hash and answers OK; a forged one is refused', async () => {
    const order = newOrder()
    const started = await start(order, { flow: 's2s-apm', brand: 'vcard', identifier: 'success@gmail.com' })
    expect(started).toMatchObject({ status: 'SETTLED' })
    await sandbox.idle()
    const [delivery] = deliveriesOf(order.number)
    expect(delivery?.attempts[0]).toMatchObject({ status: 200, acknowledged: true })
    expect(await inspect(order.number)).toMatchObject({
      state: 'paid',
      amount_paid: '10.00',
      callbacks_processed: 1,
    })
    const fields = delivery?.fields as Record<string, string>
    expect((await sendCallback({ ...fields, hash: '0'.repeat(32) })).status).toBe(400)
    expect((await sendCallback({ ...fields, amount: '1.00' })).status).toBe(400)
    expect(await inspect(order.number)).toMatchObject({ amount_paid: '10.00', callbacks_processed: 1 })
  })

  it('refuses an S2S APM payment without brand or identifier, and back-office actions it does not offer', async () => {
    const order = newOrder()
    const answer = await call('POST', '/test/start', { gateway_url: listening.url, flow: 's2s-apm', order })
    expect(answer.status).toBe(400)
    const paid = newOrder()
    await start(paid, { flow: 's2s-apm', brand: 'vcard', identifier: 'success@gmail.com' })
    const refund = await call('POST', '/test/action', { action: 'refund', order_id: paid.number })
    expect(refund.body).toMatchObject({ sent: false })
  })
})

describe('reference merchant: bad input', () => {
  it('answers 4xx to malformed requests and never crashes', async () => {
    const bodies: [string, string, string | undefined][] = [
      ['POST', '/test/start', '{'],
      ['POST', '/test/start', '[]'],
      ['POST', '/test/start', JSON.stringify({ order: { amount: '1,00', currency: 'EUR' } })],
      ['POST', '/test/start', JSON.stringify({ gateway_url: 'ftp://x', order: {} })],
      ['POST', '/test/action', JSON.stringify({ action: 'refund', order_id: 'nope' })],
      ['POST', '/gateway/callback', 'a=%E0%A4%A'],
      ['POST', '/gateway/callback', 'action=SALE&order_id=nope&hash=1'],
      ['POST', '/gateway/callback', ''],
      ['GET', '/test/orders/%E0%A4%A', undefined],
      ['GET', '/payment/success?order_id=nope', undefined],
      ['DELETE', '/anything', undefined],
    ]
    for (const [method, path, body] of bodies) {
      const response = await fetch(merchant.baseUrl + path, {
        method,
        ...(body === undefined ? {} : { body }),
      })
      expect(response.status, `${method} ${path}`).toBeGreaterThanOrEqual(400)
      expect(response.status, `${method} ${path}`).toBeLessThan(500)
    }
    expect(merchant.alive()).toBe(true)
  })

  it('tells its frontend when the gateway cannot be reached, without crashing', async () => {
    const answer = await call('POST', '/test/start', { gateway_url: 'http://127.0.0.1:1', order: newOrder() })
    expect(answer).toMatchObject({ status: 200, body: { status: 'error', gateway_http: 0 } })
    const tooLarge = await fetch(`${merchant.baseUrl}/gateway/callback`, {
      method: 'POST',
      body: 'a'.repeat(2 * 1024 * 1024),
    })
    expect(tooLarge.status).toBe(413)
    expect(merchant.alive()).toBe(true)
  })
})
