import { describe, expect, it } from 'vitest'
import {
  advanceTo,
  chainOf,
  createSchedule,
  initialPayment,
  s2sInitial,
  schedulesGateway,
  secondaries,
} from './helpers.js'

const MONTHLY = { interval_length: '1', interval_unit: 'month' }
const at = (y: number, m: number, d: number, h = 10) => Date.UTC(y, m - 1, d, h)

describe('chains of sales and debits on one schedule (2.3)', () => {
  // 2.3: "Schedules are not separated by type: they serve sale- and debit-initiated chains alike."
  it('runs a Checkout purchase chain and a debit chain from the same schedule', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { interval_length: '1', interval_unit: 'week', payments_count: '2' })
    const purchase = await initialPayment(t, { schedule_id: id })
    const debit = await initialPayment(
      t,
      { schedule_id: id, order: { number: 'order-debit' } },
      { operation: 'debit' },
    )
    await advanceTo(t, at(2026, 12, 1))
    expect(secondaries(t, purchase.id).map((p) => p.operation)).toEqual(['purchase', 'purchase'])
    expect(secondaries(t, debit.id).map((p) => [p.operation, p.status])).toEqual([
      ['debit', 'settled'],
      ['debit', 'settled'],
    ])
  })

  // 2.3: S2S SALE and DEBIT with recurring_init=Y and schedule_id start chains too.
  it('runs S2S SALE and DEBIT chains as RECURRING_SALE and RECURRING_DEBIT payments', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { interval_length: '1', interval_unit: 'day', payments_count: '2' })
    const sale = await s2sInitial(t, id, 'SALE')
    const debit = await s2sInitial(t, id, 'DEBIT')
    await advanceTo(t, at(2026, 11, 10))
    expect(secondaries(t, sale.id).map((p) => [p.api, p.action, p.order.amount, p.order.currency])).toEqual([
      ['s2s-card', 'RECURRING_SALE', '7.00', 'EUR'],
      ['s2s-card', 'RECURRING_SALE', '7.00', 'EUR'],
    ])
    expect(secondaries(t, debit.id).map((p) => p.action)).toEqual(['RECURRING_DEBIT', 'RECURRING_DEBIT'])
  })
})

describe('a chain that cannot or should not start', () => {
  it('starts no chain for a declined initial payment, or one naming an unknown or foreign schedule', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, MONTHLY)
    const foreign = await createSchedule(t, MONTHLY, {
      key: 'other-merchant',
      password: 'other-password-0123456789',
    })
    const declined = await initialPayment(t, { schedule_id: id }, { card: { card_exp_month: '02' } })
    const unknown = await initialPayment(t, { schedule_id: 'no-such-schedule' })
    const other = await initialPayment(t, { schedule_id: foreign })
    expect([declined.status, unknown.status, other.status]).toEqual(['decline', 'settled', 'settled'])
    await advanceTo(t, at(2027, 2, 1))
    expect(t.store.count('chains')).toBe(0)
    expect(t.store.list('payments')).toHaveLength(3)
  })

  it('keeps running after a declined scheduled payment (the card expired): the decline counts as a run', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { ...MONTHLY, payments_count: '4' })
    const initial = await initialPayment(t, { schedule_id: id }, { card: { card_exp_year: '2027' } })
    await advanceTo(t, at(2027, 4, 1))
    const made = secondaries(t, initial.id)
    expect(made.map((p) => p.status)).toEqual(['settled', 'settled', 'decline', 'decline'])
    expect(made[2]?.decline_reason).toBe('Expired card')
    expect(chainOf(t, initial.id)?.state).toBe('completed')
  })
})
