import { describe, expect, it } from 'vitest'
import { followUp, sale, setup, snapshot } from '../s2s-apm/helpers.js'

const outcome = (t: ReturnType<typeof setup>, id: string, body: unknown) =>
  t.call('POST', `/sandbox/payments/${encodeURIComponent(id)}/apm`, body as Record<string, unknown>)

// docs/rules.md#simulated-connectors (sandbox): the outcome is chosen "on the simulator page ... approve, decline, leave pending, or
// let it expire"; §6: the control API serves "payer actions" for the CLI, the terminal UI and the scenario runner.
describe('POST /sandbox/payments/:id/apm', () => {
  it.each([
    ['approve', 'settled', 'SETTLED'],
    ['decline', 'decline', 'DECLINED'],
    ['pending', 'pending', 'PENDING'],
    ['expire', 'decline', 'DECLINED'],
  ])('%s answers the new status', async (choice, status, apiStatus) => {
    const t = setup()
    const { trans_id } = await sale(t, { brand: 'pix' })
    const r = await outcome(t, trans_id, { outcome: choice })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ payment_id: trans_id, status, api_status: apiStatus })
    expect(t.payment(trans_id).status).toBe(status)
  })

  it('passes a decline reason on, and S2S GET_TRANS_STATUS then reports it', async () => {
    const t = setup()
    const { trans_id } = await sale(t, { brand: 'pix' })
    const r = await outcome(t, trans_id, { outcome: 'decline', reason: 'Payer cancelled' })
    expect(r.body).toEqual({
      payment_id: trans_id,
      status: 'decline',
      api_status: 'DECLINED',
      decline_reason: 'Payer cancelled',
    })
    const status = await t.post(followUp('GET_TRANS_STATUS', trans_id))
    expect(status.body).toMatchObject({ status: 'DECLINED', decline_reason: 'Payer cancelled' })
  })

  it('validates the body first, then answers 404 "Payment not found." for an unknown id, changing nothing', async () => {
    const t = setup()
    const { trans_id } = await sale(t, { brand: 'pix' })
    const before = await snapshot(t)
    const bad = await outcome(t, trans_id, { outcome: 'refund' })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({
      http_code: 400,
      error_code: 100000,
      error_message: 'Request data is invalid.',
      errors: [
        {
          error_code: 100000,
          error_message:
            'outcome: The value you selected is not a valid choice. Use approve, decline, pending or expire.',
        },
      ],
    })
    expect((await outcome(t, trans_id, {})).body.errors).toEqual([
      { error_code: 100000, error_message: 'outcome: This value should not be blank.' },
    ])
    const missing = await outcome(t, 'no-such-payment', { outcome: 'approve' })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ http_code: 404, error_code: 100000, error_message: 'Payment not found.' })
    expect(await snapshot(t)).toBe(before)
  })

  it('answers a move the state table refuses with its row, changing nothing', async () => {
    const t = setup()
    const { trans_id } = await sale(t, { brand: 'pix' })
    await outcome(t, trans_id, { outcome: 'approve' })
    const before = await snapshot(t)
    const again = await outcome(t, trans_id, { outcome: 'expire' })
    expect(again.status).toBe(400)
    expect(again.body.error_message).toBe("This operation is not allowed in the payment's current status.")
    expect(await snapshot(t)).toBe(before)
  })
})

describe('GET /sandbox/payments/:id/apm', () => {
  it('answers what the simulator page shows, with the outcomes the table allows now', async () => {
    const t = setup()
    const { trans_id } = await sale(t, { brand: 'sepa' })
    const page = await t.call('GET', `/sandbox/payments/${trans_id}/apm`)
    expect(page.body).toMatchObject({
      payment_id: trans_id,
      method: 'sepa',
      group: 'redirect',
      status: 'redirect',
      outcomes: ['approve', 'decline', 'pending', 'expire'],
      return_url: 'https://merchant.example.com/return',
    })
    await outcome(t, trans_id, { outcome: 'pending' })
    expect((await t.call('GET', `/sandbox/payments/${trans_id}/apm`)).body.outcomes).toEqual([
      'approve',
      'decline',
      'expire',
    ])
    expect((await t.call('GET', '/sandbox/payments/nope/apm')).status).toBe(404)
  })
})
