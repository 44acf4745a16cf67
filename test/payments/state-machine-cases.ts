import type { Payment, PaymentStatus } from '../../src/core/engine/model.js'
import type { TransitionContext } from '../../src/core/payments/state-machine.js'

/** Test data for state-machine.test.ts: one or more cases per row of the state table. */

export const TODAY = '2026-11-02'

/** A payment of 10.00 USD (1000 minor units), settled today unless told otherwise. */
export const pay = (overrides: Partial<Payment> = {}): Payment => ({
  id: 'p1',
  api: 'checkout',
  merchant_key: 'm',
  mid_id: 'mid',
  operation: 'purchase',
  method: 'card',
  order_id: 'o1',
  order: { number: 'o1', amount: '10.00', currency: 'USD', description: 'd' },
  status: 'settled',
  auth: false,
  amount_captured: '10.00',
  amount_refunded: '0.00',
  financial_day: TODAY,
  created_at: 0,
  updated_at: 0,
  ...overrides,
})
export const held = (o: Partial<Payment> = {}) =>
  pay({ status: 'pending', auth: true, amount_captured: '0.00', ...o })
export const secondary = { recurring: { init: false, parent_payment_id: 'p0', init_trans_id: 'p0' } }

export type Expected = PaymentStatus | { refuse: string }
export interface Case {
  payment: Payment
  context?: TransitionContext
  expect: Expected
}

/** One case per row of the table: the row must decide it, with the row's result. */
export const CASES: Record<string, Case[]> = {
  'pay-3ds': [{ payment: pay({ status: 'prepare' }), context: { outcome: '3ds' }, expect: '3ds' }],
  'pay-redirect': [
    { payment: pay({ status: 'prepare' }), context: { outcome: 'redirect' }, expect: 'redirect' },
  ],
  'pay-auth': [{ payment: held({ status: 'prepare' }), context: { outcome: 'approved' }, expect: 'pending' }],
  'pay-sale': [{ payment: pay({ status: 'prepare' }), context: { outcome: 'approved' }, expect: 'settled' }],
  'pay-waiting': [
    { payment: pay({ status: 'prepare' }), context: { outcome: 'waiting' }, expect: 'pending' },
  ],
  'pay-decline': [
    { payment: held({ status: 'prepare' }), context: { outcome: 'declined' }, expect: 'decline' },
  ],
  '3ds-auth': [{ payment: held({ status: '3ds' }), context: { outcome: 'approved' }, expect: 'pending' }],
  '3ds-sale': [{ payment: pay({ status: '3ds' }), context: { outcome: 'approved' }, expect: 'settled' }],
  '3ds-decline': [{ payment: pay({ status: '3ds' }), context: { outcome: 'declined' }, expect: 'decline' }],
  'redirect-auth': [
    { payment: held({ status: 'redirect' }), context: { outcome: 'approved' }, expect: 'pending' },
  ],
  'redirect-sale': [
    { payment: pay({ status: 'redirect' }), context: { outcome: 'approved' }, expect: 'settled' },
  ],
  'redirect-waiting': [
    { payment: pay({ status: 'redirect' }), context: { outcome: 'waiting' }, expect: 'pending' },
  ],
  'redirect-decline': [
    { payment: pay({ status: 'redirect' }), context: { outcome: 'declined' }, expect: 'decline' },
  ],
  'waiting-approve': [
    { payment: pay({ status: 'pending' }), context: { outcome: 'approved' }, expect: 'settled' },
  ],
  'waiting-decline': [
    { payment: pay({ status: 'pending' }), context: { outcome: 'declined' }, expect: 'decline' },
  ],
  expire: (['prepare', '3ds', 'redirect'] as const).map((status) => ({
    payment: pay({ status }),
    expect: 'decline' as const,
  })),
  'expire-waiting': [{ payment: pay({ status: 'pending' }), expect: 'decline' }],
  'charge-auth': [
    { payment: held({ status: 'prepare' }), context: { outcome: 'approved' }, expect: 'pending' },
  ],
  'charge-sale': [
    { payment: pay({ status: 'prepare' }), context: { outcome: 'approved' }, expect: 'settled' },
  ],
  'charge-decline': [
    { payment: pay({ status: 'prepare' }), context: { outcome: 'declined' }, expect: 'decline' },
  ],
  'capture-zero': [
    {
      payment: held({ order: { number: 'o1', amount: '0.00', currency: 'USD', description: 'd' } }),
      context: { outcome: 'approved' },
      expect: { refuse: 'CAPTURE_NOT_ALLOWED' },
    },
  ],
  'capture-above-authorized': [
    {
      payment: held(),
      context: { outcome: 'approved', amount: 1001n },
      expect: { refuse: 'CAPTURE_AMOUNT_EXCEEDED' },
    },
  ],
  'capture-declined': [{ payment: held(), context: { outcome: 'declined' }, expect: 'pending' }],
  capture: [
    { payment: held(), context: { outcome: 'approved' }, expect: 'settled' },
    { payment: held(), context: { outcome: 'approved', amount: 500n }, expect: 'settled' },
  ],
  'refund-payout': [
    { payment: pay({ operation: 'credit' }), expect: { refuse: 'PAYOUT_REFUND_NOT_ALLOWED' } },
  ],
  'debit-reversal-above-left': [
    {
      payment: pay({ operation: 'debit' }),
      context: { amount: 1001n },
      expect: { refuse: 'REFUND_AMOUNT_EXCEEDED' },
    },
  ],
  'debit-reversal': [
    { payment: pay({ operation: 'debit' }), expect: 'reversal' },
    { payment: pay({ operation: 'debit' }), context: { amount: 100n }, expect: 'reversal' },
    {
      payment: pay({ operation: 'debit', status: 'reversal', amount_refunded: '1.00' }),
      context: { amount: 900n },
      expect: 'reversal',
    },
  ],
  'held-reversal-above': [
    { payment: held(), context: { amount: 1001n }, expect: { refuse: 'REFUND_AMOUNT_EXCEEDED' } },
  ],
  'held-reversal-partial': [
    { payment: held(), context: { amount: 999n }, expect: { refuse: 'REVERSAL_PARTIAL_NOT_ALLOWED' } },
  ],
  'held-reversal': [
    { payment: held(), expect: 'reversal' },
    { payment: held(), context: { amount: 1000n }, expect: 'reversal' },
  ],
  'refund-above-left': [
    { payment: pay(), context: { amount: 1001n }, expect: { refuse: 'REFUND_AMOUNT_EXCEEDED' } },
    {
      payment: pay({ status: 'refund', amount_refunded: '9.00' }),
      context: { amount: 101n },
      expect: { refuse: 'REFUND_AMOUNT_EXCEEDED' },
    },
  ],
  refund: [
    { payment: pay(), expect: 'refund' },
    { payment: pay(), context: { amount: 1n }, expect: 'refund' },
  ],
  'refund-again': [
    {
      payment: pay({ status: 'refund', amount_refunded: '9.00' }),
      context: { amount: 100n },
      expect: 'refund',
    },
  ],
  'void-pending': [
    {
      payment: held(),
      context: { api: 'checkout', today: TODAY },
      expect: { refuse: 'CHECKOUT_VOID_NOT_ALLOWED' },
    },
    {
      payment: held(),
      context: { api: 's2s-card', today: TODAY },
      expect: { refuse: 'S2S_CARD_VOID_NOT_ALLOWED' },
    },
    {
      payment: held(),
      context: { api: 's2s-apm', today: TODAY },
      expect: { refuse: 'S2S_APM_VOID_NOT_ALLOWED' },
    },
  ],
  'void-payout': [
    {
      payment: pay({ operation: 'credit' }),
      context: { today: TODAY },
      expect: { refuse: 'PAYOUT_VOID_NOT_ALLOWED' },
    },
  ],
  void: [{ payment: pay(), context: { today: TODAY }, expect: 'void' }],
  'void-late': [
    {
      payment: pay({ financial_day: '2026-11-01' }),
      context: { today: TODAY },
      expect: { refuse: 'VOID_NOT_ALLOWED_AFTER_FINANCIAL_DAY' },
    },
  ],
  'retry-approved': [
    {
      payment: pay({ status: 'decline', ...secondary }),
      context: { outcome: 'approved' },
      expect: 'settled',
    },
  ],
  'retry-declined': [
    {
      payment: pay({ status: 'decline', ...secondary }),
      context: { outcome: 'declined' },
      expect: 'decline',
    },
  ],
  chargeback: [
    { payment: pay(), expect: 'chargeback' },
    { payment: pay({ status: 'refund', amount_refunded: '1.00' }), expect: 'chargeback' },
  ],
}
