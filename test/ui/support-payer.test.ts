import { describe, expect, it } from 'vitest'
import { cardPayment, supportGateway } from './harness.js'

const notWaiting = {
  http_code: 400,
  error_code: 100000,
  error_message: 'The payment is not waiting for this payer action.',
}

// docs/rules.md#control-api: the control API has "whatever the CLI, the terminal UI and the scenario runner need (merchants, payer actions, ...)"
describe('support control routes: the card payer steps', () => {
  // docs/rules.md#test-cards: "05 3DS then success, 06 3DS then decline"
  it('passes 3DS for a month-05 card, which then settles with its 3DS data', async () => {
    const t = supportGateway()
    const id = await cardPayment(t, { month: '05' })
    const r = await t.call('POST', `/sandbox/payments/${id}/3ds`, { result: 'pass' })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ payment_id: id, status: 'settled', api_status: 'settled' })
    expect(t.store.get('payments', id)?.three_ds).toMatchObject({ required: true, outcome: 'pass' })
  })

  it('fails 3DS: the payment is declined with the 3DS reason', async () => {
    const t = supportGateway()
    const id = await cardPayment(t, { month: '05' })
    const r = await t.call('POST', `/sandbox/payments/${id}/3ds`, { result: 'fail' })
    expect(r.body).toMatchObject({ payment_id: id, status: 'decline' })
    expect(r.body.decline_reason).toEqual(expect.any(String))
  })

  // docs/rules.md#test-cards: "12 redirect then success (year 2039: redirect then decline)"
  it('brings the payer back from a redirect: month 12 settles, 12/2039 declines', async () => {
    const t = supportGateway()
    const ok = await cardPayment(t, { month: '12', order: 'o-ok' })
    const no = await cardPayment(t, { month: '12', year: '2039', order: 'o-no' })
    expect((await t.call('POST', `/sandbox/payments/${ok}/redirect`, {})).body).toMatchObject({
      status: 'settled',
    })
    expect((await t.call('POST', `/sandbox/payments/${no}/redirect`)).body).toMatchObject({
      status: 'decline',
    })
  })

  it('refuses a step the payment is not waiting for, and changes nothing', async () => {
    const t = supportGateway()
    const id = await cardPayment(t, { month: '01' })
    const before = structuredClone(t.store.get('payments', id))
    const r = await t.call('POST', `/sandbox/payments/${id}/3ds`, { result: 'pass' })
    expect(r.status).toBe(400)
    expect(r.body).toEqual(notWaiting)
    expect((await t.call('POST', `/sandbox/payments/${id}/redirect`, {})).body).toEqual(notWaiting)
    expect(t.store.get('payments', id)).toEqual(before)
  })

  it('answers 404 for an unknown payment and a field error for a bad result, before touching anything', async () => {
    const t = supportGateway()
    const id = await cardPayment(t, { month: '05' })
    const missing = await t.call('POST', '/sandbox/payments/nope/3ds', { result: 'pass' })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ http_code: 404, error_code: 100000, error_message: 'Payment not found.' })
    const bad = await t.call('POST', `/sandbox/payments/${id}/3ds`, { result: 'maybe' })
    expect(bad.status).toBe(400)
    expect(bad.body.errors).toEqual([
      {
        error_code: 100000,
        error_message: 'result: The value you selected is not a valid choice. Use pass or fail.',
      },
    ])
    const extra = await t.call('POST', `/sandbox/payments/${id}/redirect`, { go: 1 })
    expect(extra.body.errors).toEqual([
      { error_code: 100000, error_message: 'go: This field was not expected.' },
    ])
    expect(t.store.get('payments', id)?.status).toBe('3ds')
  })
})
