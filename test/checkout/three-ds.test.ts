import { apiSession } from '../../src/core/sessions/session-access.js'
import { describe, expect, it } from 'vitest'
import { GatewayError } from '../../src/core/engine/errors.js'
import { completeRedirect, completeThreeDs, payWithCard } from '../../src/core/payments/payer.js'
import { CARD, configWith, gatewayWith, hpfSession, pay, paymentOf, recordEvents } from './session-helpers.js'

type T = ReturnType<typeof gatewayWith>

async function startThreeDs(
  t: T,
  overrides: Record<string, unknown> = {},
  session: Record<string, unknown> = {},
) {
  const r = await pay(t, await hpfSession(t, session), { card_exp_month: '05', ...overrides })
  expect(r.body.status).toBe('3ds')
  return String(r.body.payment_id)
}

const txsOf = (t: T, id: string) =>
  t.store.findBy('transactions', 'payment_id', id).map((x) => [x.type, x.status, x.decline_reason ?? ''])

function refusal(fn: () => unknown): string {
  try {
    fn()
  } catch (error) {
    if (error instanceof GatewayError) return error.entry.error_message
    throw error
  }
  throw new Error('expected a refusal')
}

describe('completeThreeDs (docs/rules.md#test-cards: "05 3DS then success, 06 3DS then decline")', () => {
  it('05 passed settles the payment and records the collector attributes', async () => {
    const t = gatewayWith()
    const id = await startThreeDs(t)
    const payment = completeThreeDs(t.gateway.ctx, id, 'pass')
    expect(payment.status).toBe('settled')
    expect(paymentOf(t, id)).toMatchObject({ status: 'settled', amount_captured: '10.00' })
    // Events, 3DS attributes: "otherwise filled by the platform's collector"
    expect(paymentOf(t, id)?.three_ds).toMatchObject({
      required: true,
      outcome: 'pass',
      attributes: { transStatus: 'Y', eci: '05', protocolVersion: '2.2.0', authenticationFlow: 'challenge' },
    })
    expect(txsOf(t, id)).toEqual([
      ['3ds', 'success', ''],
      ['sale', 'success', ''],
    ])
  })

  it('05 failed declines the payment', async () => {
    const t = gatewayWith()
    const id = await startThreeDs(t)
    expect(completeThreeDs(t.gateway.ctx, id, 'fail')).toMatchObject({
      status: 'decline',
      decline_reason: '3-D Secure authentication failed',
    })
    expect(paymentOf(t, id)?.three_ds?.attributes).toMatchObject({ transStatus: 'N', eci: '07' })
    expect(txsOf(t, id)).toEqual([
      ['3ds', 'fail', ''],
      ['sale', 'fail', '3-D Secure authentication failed'],
    ])
  })

  it('06 passed is then declined by the issuer', async () => {
    const t = gatewayWith()
    const id = await startThreeDs(t, { card_exp_month: '06' })
    expect(completeThreeDs(t.gateway.ctx, id, 'pass')).toMatchObject({
      status: 'decline',
      decline_reason: 'Declined by processing.',
    })
  })

  // "01 success (PENDING with auth)": the same hold applies after a passed challenge
  it('a held payment stays PENDING after 3DS, with its recurring token issued', async () => {
    const t = gatewayWith()
    const id = await startThreeDs(t, {}, { auth: true, recurring_init: true })
    const payment = completeThreeDs(t.gateway.ctx, id, 'pass')
    expect(payment).toMatchObject({ status: 'pending', recurring: { init: true, init_trans_id: id } })
    expect(txsOf(t, id).at(-1)).toEqual(['auth', 'success', ''])
  })

  // 2.5: "For a MOTO value: ... the platform does not start the configured MPI service"
  it('a MOTO session skips 3DS: 05 settles and 06 declines at once', async () => {
    const t = gatewayWith(configWith([{ moto: true }]))
    const ok = await pay(t, await hpfSession(t, { moto_type: 'default_moto' }), { card_exp_month: '05' })
    expect(ok.body.status).toBe('settled')
    const no = await pay(t, await hpfSession(t, { moto_type: 'default_moto' }), { card_exp_month: '06' })
    expect(no.body.status).toBe('decline')
  })

  it('reports the step and the outcome as events', async () => {
    const t = gatewayWith()
    const id = await startThreeDs(t)
    const events = recordEvents(t)
    completeThreeDs(t.gateway.ctx, id, 'pass')
    expect(events.map((e) => [e.type, 'kind' in e ? e.kind : '', 'status' in e ? e.status : ''])).toEqual([
      ['transaction', '3ds', 'success'],
      ['transaction', 'sale', 'success'],
      ['payment', '', 'settled'],
    ])
  })

  it('refuses a payment that is not waiting for 3DS, and an unknown payment', async () => {
    const t = gatewayWith()
    const id = await startThreeDs(t)
    completeThreeDs(t.gateway.ctx, id, 'pass')
    expect(refusal(() => completeThreeDs(t.gateway.ctx, id, 'fail'))).toBe(
      'The payment is not waiting for this payer action.',
    )
    expect(paymentOf(t, id)?.status).toBe('settled')
    expect(refusal(() => completeThreeDs(t.gateway.ctx, 'nope', 'pass'))).toBe('Payment not found.')
    expect(refusal(() => completeRedirect(t.gateway.ctx, id))).toBe(
      'The payment is not waiting for this payer action.',
    )
  })
})

describe('completeRedirect (docs/rules.md#test-cards: "12 redirect then success (year 2039: redirect then decline)")', () => {
  it.each([
    ['2030', 'settled', ''],
    ['2039', 'decline', 'Declined by processing.'],
  ])('12/%s ends %s', async (year, status, reason) => {
    const t = gatewayWith()
    const r = await pay(t, await hpfSession(t), { card_exp_month: '12', card_exp_year: year })
    const id = String(r.body.payment_id)
    const payment = completeRedirect(t.gateway.ctx, id)
    expect(payment.status).toBe(status)
    expect(payment.decline_reason ?? '').toBe(reason)
    expect(txsOf(t, id)).toEqual([
      ['redirect', 'success', ''],
      ['sale', status === 'settled' ? 'success' : 'fail', reason],
    ])
  })
})

describe('payWithCard as an engine operation (design rule: "The payer\'s actions ... are engine operations too")', () => {
  it('pays without an endpoint, as the hosted page does, and answers the next page', async () => {
    const t = gatewayWith()
    const token = await hpfSession(t)
    const result = payWithCard(t.gateway.ctx, apiSession(t.gateway.ctx, token), {
      ...CARD,
      card_exp_month: '05',
    })
    expect(result.payment.status).toBe('3ds')
    expect(result.redirect_url).toBe(`http://sandbox.test/acs/${result.payment.id}`)
  })
})

// Issue 6: "3DS ACS page: challenge with pass and fail, frictionless per test card". docs/rules.md#test-data
// names no frictionless card; the sandbox's is expiry month 07 (docs/engine.md).
describe('frictionless 3DS (sandbox: expiry month 07)', () => {
  it('authenticates without a challenge: no ACS step, settled at once, the collector attributes say frictionless', async () => {
    const t = gatewayWith()
    const r = await pay(t, await hpfSession(t), { card_exp_month: '07' })
    expect(r.body).toMatchObject({ status: 'settled' })
    expect(r.body.redirect_url).toBeUndefined()
    const id = String(r.body.payment_id)
    expect(paymentOf(t, id)?.three_ds).toMatchObject({
      required: true,
      outcome: 'pass',
      authenticationFlow: 'frictionless',
      attributes: { transStatus: 'Y', eci: '05', authenticationFlow: 'frictionless' },
    })
    expect(txsOf(t, id)).toEqual([['sale', 'success', '']])
  })

  it('is not started for a MOTO payment (2.5: no MPI)', async () => {
    const t = gatewayWith(configWith([{ moto: true }]))
    const r = await pay(t, await hpfSession(t, { moto_type: 'phone_moto' }), {
      card_exp_month: '07',
      card_cvv2: undefined,
    })
    expect(r.body).toMatchObject({ status: 'settled' })
    expect(paymentOf(t, String(r.body.payment_id))?.three_ds).toBeUndefined()
  })
})
