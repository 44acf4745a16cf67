import { describe, expect, it } from 'vitest'
import { errorEntry } from '../../src/core/engine/errors.js'
import { DEFAULT_REFUSAL, TRANSITIONS, transition } from '../../src/core/payments/state-machine.js'
import { interfaceExcerpt } from '../helpers/interface-excerpts.js'
import { CASES, held, pay, secondary, TODAY } from './state-machine-cases.js'

// The interface's States and transitions section, as the repository keeps it (docs/interface-data.md).
const STATES_TABLE = interfaceExcerpt('states-and-transitions')

describe('the payment state table', () => {
  it('has a case for every row, and no case for a row that does not exist', () => {
    expect(Object.keys(CASES).sort()).toEqual(TRANSITIONS.map((r) => r.id).sort())
    expect(new Set(TRANSITIONS.map((r) => r.id)).size).toBe(TRANSITIONS.length)
  })

  const flat = TRANSITIONS.flatMap((row) =>
    (CASES[row.id] ?? []).map((c, i) => [`${row.id} #${i + 1}`, row, c] as const),
  )
  it.each(flat)('row %s decides its case', (_, row, c) => {
    const result = transition(c.payment, row.trigger, c.context)
    expect(result.row?.id).toBe(row.id)
    if (typeof c.expect === 'string') expect(result).toMatchObject({ ok: true, next: c.expect })
    else expect(result).toMatchObject({ ok: false, refuse: c.expect.refuse })
  })

  // States and transitions: "| State | Trigger | Condition | Next state | Also |": each of its rows is a
  // row of the table marked `interface`, with the same Condition cell.
  it('has every row of the interface table, and marks interface only what the interface says', () => {
    const conditions = STATES_TABLE.split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| State') && !line.startsWith('|---'))
      .map((line) => line.split(' | ')[2] as string)
    expect(conditions).toHaveLength(6)
    const ours = TRANSITIONS.filter((r) => r.source === 'interface')
    for (const condition of conditions) {
      expect(
        ours.some((r) => r.condition === condition),
        condition,
      ).toBe(true)
    }
    // held-reversal-partial is the refusal side of "Full amount only." (the Also cell).
    for (const r of ours)
      expect(conditions.includes(r.condition) || STATES_TABLE.includes(r.also), r.id).toBe(true)
  })

  it('refuses only with rows of the error catalogue', () => {
    const ids = new Set<string>(Object.values(DEFAULT_REFUSAL))
    for (const r of TRANSITIONS) {
      if (typeof r.to !== 'object') continue
      for (const id of typeof r.to.refuse === 'string' ? [r.to.refuse] : Object.values(r.to.refuse))
        ids.add(id)
    }
    for (const id of ids) expect(() => errorEntry(id), id).not.toThrow()
  })
})

describe('moves no row allows', () => {
  // "The `Refund is not allowed` error is explained by payment status." (States and transitions)
  it.each([
    ['capture of a settled payment', pay(), 'CAPTURE', {}, 'CAPTURE_NOT_ALLOWED'],
    [
      'capture of a pending payment that holds nothing',
      pay({ status: 'pending' }),
      'CAPTURE',
      {},
      'CAPTURE_NOT_ALLOWED',
    ],
    ['refund of a declined payment', pay({ status: 'decline' }), 'REFUND', {}, 'REFUND_NOT_ALLOWED'],
    ['refund of a voided payment', pay({ status: 'void' }), 'REFUND', {}, 'REFUND_NOT_ALLOWED'],
    ['refund of a 3ds payment', pay({ status: '3ds' }), 'REFUND', {}, 'REFUND_NOT_ALLOWED'],
    ['refund of a reversed sale', pay({ status: 'reversal' }), 'REFUND', {}, 'REFUND_NOT_ALLOWED'],
    [
      'refund of a fully refunded payment',
      pay({ status: 'refund', amount_refunded: '10.00' }),
      'REFUND',
      { amount: 1n },
      'REFUND_NOT_ALLOWED',
    ],
    [
      'void of a refunded payment',
      pay({ status: 'refund' }),
      'VOID',
      { today: TODAY },
      'VOID_NOT_ALLOWED_AFTER_FINANCIAL_DAY',
    ],
    [
      'void of a declined payment',
      pay({ status: 'decline' }),
      'VOID',
      { today: TODAY },
      'VOID_NOT_ALLOWED_AFTER_FINANCIAL_DAY',
    ],
    [
      'retry of a declined first payment',
      pay({ status: 'decline' }),
      'RETRY',
      { outcome: 'approved' },
      'RETRY_NOT_ALLOWED',
    ],
    [
      'retry of a settled recurring payment',
      pay(secondary),
      'RETRY',
      { outcome: 'approved' },
      'RETRY_NOT_ALLOWED',
    ],
    ['a second payment attempt', pay(), 'PAY', { outcome: 'approved' }, 'PAYMENT_TRANSITION_NOT_ALLOWED'],
    [
      'a chargeback of a payout',
      pay({ operation: 'credit' }),
      'CHARGEBACK',
      {},
      'PAYMENT_TRANSITION_NOT_ALLOWED',
    ],
  ] as const)('%s is refused', (_, payment, trigger, context, refuse) => {
    expect(transition(payment, trigger, context)).toEqual({ ok: false, refuse })
  })

  it('is pure: the payment it is given does not change', () => {
    const payment = held()
    const before = JSON.stringify(payment)
    transition(payment, 'CAPTURE', { outcome: 'approved' })
    transition(payment, 'REFUND', { amount: 5n })
    expect(JSON.stringify(payment)).toBe(before)
  })
})
