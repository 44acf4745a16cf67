import { afterEach, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox, SandboxError, signatures } from '../../src/index.js'
import { card, createSession, PASSWORD } from './helpers.js'

let sandbox: Sandbox
const received: URLSearchParams[] = []

async function fresh(): Promise<Sandbox> {
  received.length = 0
  sandbox = await createSandbox({
    seed: 'payer',
    onCallback: async (request) => {
      received.push(new URLSearchParams(await request.text()))
      return new Response('OK')
    },
  })
  return sandbox
}

afterEach(() => sandbox.close())

const kinds = () => received.map((f) => `${f.get('type')}/${f.get('order_status')}/${f.get('status')}`)

describe('payer.payCheckout (docs/rules.md#test-cards: the expiry month picks the outcome)', () => {
  it.each([
    ['01/2030', 'settled', undefined],
    ['02/2030', 'decline', 'Declined by processing.'],
    ['01/30', 'settled', undefined],
  ])('card 4111111111111111 exp %s ends %s', async (expiry, status, reason) => {
    const s = await fresh()
    const url = await createSession(s, `order-${expiry}`)
    const paid = await s.payer.payCheckout(url, card(expiry))
    expect(paid).toEqual({ payment_id: expect.any(String), status, ...(reason ? { reason } : {}) })
    // Resolves once the callback it caused was delivered: the merchant has it already.
    expect(received.map((f) => f.get('id'))).toEqual([paid.payment_id])
  })

  it('takes the bare session token as well as the redirect_url', async () => {
    const s = await fresh()
    const url = await createSession(s, 'order-token')
    const token = url.split('/auth/')[1] as string
    expect((await s.payer.payCheckout(token, card('01/2030'))).status).toBe('settled')
  })

  // "05 3DS then success, 06 3DS then decline"
  it('05: 3DS, then passThreeDs settles; 06: 3DS passed, then declined', async () => {
    const s = await fresh()
    const three = await s.payer.payCheckout(await createSession(s, 'o-05'), card('05/2030'))
    expect(three).toMatchObject({
      status: '3ds',
      redirect_url: `http://localhost:8080/acs/${three.payment_id}`,
    })
    expect(await s.payer.passThreeDs(three.payment_id)).toEqual({
      payment_id: three.payment_id,
      status: 'settled',
    })
    const six = await s.payer.payCheckout(await createSession(s, 'o-06'), card('06/2030'))
    expect(await s.payer.passThreeDs(six.payment_id)).toMatchObject({ status: 'decline' })
    expect(kinds()).toEqual([
      '3ds/3ds/success',
      'sale/settled/success',
      '3ds/3ds/success',
      'sale/decline/fail',
    ])
  })

  it('failThreeDs declines a payment that would have succeeded', async () => {
    const s = await fresh()
    const three = await s.payer.payCheckout(await createSession(s, 'o-fail'), card('05/2030'))
    const failed = await s.payer.failThreeDs(three.payment_id)
    expect(failed).toEqual({ payment_id: three.payment_id, status: 'decline', reason: expect.any(String) })
  })

  // "12 redirect then success (year 2039: redirect then decline)"
  it('12: redirect, then completeRedirect settles; 12/2039 declines', async () => {
    const s = await fresh()
    const ok = await s.payer.payCheckout(await createSession(s, 'o-12'), card('12/2030'))
    expect(ok).toMatchObject({ status: 'redirect', redirect_url: expect.stringContaining('/redirect-sim/') })
    expect((await s.payer.completeRedirect(ok.payment_id)).status).toBe('settled')
    const no = await s.payer.payCheckout(await createSession(s, 'o-2039'), card('12/2039'))
    expect((await s.payer.completeRedirect(no.payment_id)).status).toBe('decline')
  })
})

describe('payer helpers refuse what the engine refuses, with the answer the API would give', () => {
  it('names the field of a bad card and creates no payment', async () => {
    const s = await fresh()
    const url = await createSession(s, 'o-bad')
    const error = await s.payer
      .payCheckout(url, { number: '4111111111111112', expiry: '01/2030', cvv: '123' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SandboxError)
    expect((error as SandboxError).message).toBe(
      'Request data is invalid. card_number: This value is not a valid card number.',
    )
    expect((error as SandboxError).status).toBe(400)
    expect(s.gateway.ctx.store.count('payments')).toBe(0)
  })

  it('refuses a 3DS result for a payment not waiting for one', async () => {
    const s = await fresh()
    const paid = await s.payer.payCheckout(await createSession(s, 'o-done'), card('01/2030'))
    await expect(s.payer.passThreeDs(paid.payment_id)).rejects.toBeInstanceOf(SandboxError)
    // docs/rules.md#errors: on Checkout the refusal is an errors[] item under error_code 0
    await expect(s.payer.completeRedirect('no-such-payment')).rejects.toMatchObject({
      body: {
        http_code: 400,
        error_code: 0,
        error_message: 'Request data is invalid.',
        errors: [{ error_code: 100000, error_message: 'Payment not found.' }],
      },
    })
  })

  it('refuses an unknown session token and a missing one', async () => {
    const s = await fresh()
    await expect(
      s.payer.payCheckout('http://localhost:8080/auth/ffff', card('01/2030')),
    ).rejects.toBeInstanceOf(SandboxError)
    await expect(s.payer.payCheckout(undefined as unknown as string, card('01/2030'))).rejects.toThrow(
      /redirect_url or token/,
    )
  })
})

describe('payer APM helpers (docs/rules.md#simulated-connectors (sandbox): "approve, decline, leave pending, or let it expire")', () => {
  const apmSale = (orderId: string) =>
    new URLSearchParams({
      action: 'SALE',
      client_key: 'demo-merchant',
      brand: 'sepa',
      order_id: orderId,
      order_amount: '15.00',
      order_currency: 'USD',
      order_description: 'APM',
      identifier: 'payer-1',
      payer_ip: '203.0.113.20',
      return_url: 'https://shop.test/return',
      hash: signatures.s2sApm.payment('payer-1', orderId, '15.00', 'USD', PASSWORD),
    })
  const startApm = async (s: Sandbox, orderId: string) => {
    const response = await s.fetch(`${s.baseUrl}/post-va`, { method: 'POST', body: apmSale(orderId) })
    const body = (await response.json()) as { result: string; trans_id: string }
    expect(body.result).toBe('REDIRECT')
    return body.trans_id
  }

  it('approves, declines with a reason, leaves pending and expires a payment waiting on its simulator page', async () => {
    const s = await fresh()
    const approved = await s.payer.approveApm(await startApm(s, 'apm-1'))
    expect(approved.status).toBe('settled')
    const declined = await s.payer.declineApm(await startApm(s, 'apm-2'), 'Insufficient funds')
    expect(declined).toMatchObject({ status: 'decline', reason: 'Insufficient funds' })
    const pending = await s.payer.leaveApmPending(await startApm(s, 'apm-3'))
    expect(pending.status).toBe('pending')
    expect(await s.payer.expireApm(pending.payment_id)).toMatchObject({
      status: 'decline',
      reason: 'Payment expired',
    })
    // Each outcome reached the merchant before the helper resolved: the page visit, then the outcome.
    expect(received.map((f) => `${f.get('result')}/${f.get('status')}`)).toEqual([
      'REDIRECT/REDIRECT',
      'SUCCESS/SETTLED',
      'REDIRECT/REDIRECT',
      'DECLINED/DECLINED',
      'REDIRECT/REDIRECT',
      'UNDEFINED/PENDING',
      'DECLINED/DECLINED',
    ])
  })

  it('refuses an APM outcome for a card payment', async () => {
    const s = await fresh()
    const paid = await s.payer.payCheckout(await createSession(s, 'o-card'), card('01/2030'))
    await expect(s.payer.approveApm(paid.payment_id)).rejects.toBeInstanceOf(SandboxError)
  })
})
