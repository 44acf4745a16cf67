import type { SandboxConfig } from '../../src/core/engine/context.js'
import { formatDay, maskCard } from '../../src/core/engine/format.js'
import type { Payment, SavedCard, StoredCard, Transaction } from '../../src/core/engine/model.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { createTestGateway, demoConfig, type TestGateway } from './engine.js'

/**
 * Records put straight into a test gateway's store, so follow-up operations are tested without
 * the session flow; and the signatures of docs/rules.md#signatures for the demo merchant.
 */

export const MERCHANT = 'demo-merchant'
export const PASSWORD = 'demo-password-0123456789abcdef'
export const OTHER_MERCHANT = 'other-merchant'
export const OTHER_PASSWORD = 'other-password-0123456789abcdef'

/** The demo configuration plus a second merchant, for isolation tests. */
export function twoMerchantConfig(mapping: Record<string, unknown> = {}): SandboxConfig {
  const config = demoConfig()
  const [demo] = config.merchants
  demo.protocol_mapping = mapping
  config.merchants.push({
    ...demo,
    key: OTHER_MERCHANT,
    password: OTHER_PASSWORD,
    name: 'Other merchant',
    protocol_mapping: {},
  })
  return config
}

export function createOperationsGateway(
  modules: Parameters<typeof createTestGateway>[0],
  mapping: Record<string, unknown> = {},
): TestGateway {
  return createTestGateway(modules, twoMerchantConfig(mapping))
}

/** A stored (masked) form of the test card 4111111111111111 with the given expiry. */
export function testCard(month = '01', year = '2030'): StoredCard {
  return {
    masked: maskCard('4111111111111111'),
    bin: '411111',
    last4: '1111',
    brand: 'visa',
    exp_month: month,
    exp_year: year,
    holder: 'John Doe',
  }
}

let seq = 0

/** A settled Checkout purchase of 10.00 USD, settled today on the sandbox clock, unless overridden. */
export function putPayment(t: TestGateway, overrides: Partial<Payment> = {}): Payment {
  seq += 1
  const at = t.clock.now()
  const order = overrides.order ?? {
    number: overrides.order_id ?? `order-${seq}`,
    amount: '10.00',
    currency: 'USD',
    description: 'Important gift',
  }
  const payment: Payment = {
    id: `payment-${seq}`,
    api: 'checkout',
    merchant_key: MERCHANT,
    mid_id: 'demo-mid',
    operation: 'purchase',
    method: 'card',
    order_id: order.number,
    order,
    status: 'settled',
    auth: false,
    amount_captured: order.amount,
    amount_refunded: '0.00',
    financial_day: formatDay(at),
    card: testCard(),
    created_at: at,
    updated_at: at,
    ...overrides,
  }
  t.store.put('payments', payment)
  return payment
}

/** A held authorization (auth=true, PENDING, nothing captured). */
export const putAuthorized = (t: TestGateway, overrides: Partial<Payment> = {}): Payment => {
  const payment = putPayment(t, { status: 'pending', auth: true, amount_captured: '0.00', ...overrides })
  // Nothing settled yet, so no financial day, unless the test sets one.
  if (!('financial_day' in overrides)) {
    delete payment.financial_day
    t.store.put('payments', payment)
  }
  return payment
}

/** A settled initial payment of a recurring chain with its recurring_token. */
export const putRecurringInitial = (t: TestGateway, overrides: Partial<Payment> = {}): Payment => {
  const id = overrides.id ?? `initial-${seq + 1}`
  return putPayment(t, {
    id,
    recurring: { init: true, token: `rtoken-${id}`, init_trans_id: id },
    ...overrides,
  })
}

export function putCard(t: TestGateway, overrides: Partial<SavedCard> = {}): SavedCard {
  seq += 1
  const card: SavedCard = {
    id: `ctoken-${seq}`,
    merchant_key: MERCHANT,
    card: testCard(),
    payee_first_name: 'Stored',
    payee_last_name: 'Name',
    card_on_file: false,
    created_at: t.clock.now(),
    ...overrides,
  }
  t.store.put('cards', card)
  return card
}

export function transactionsOf(t: TestGateway, paymentId: string): Transaction[] {
  return t.store.findBy('transactions', 'payment_id', paymentId)
}

/** Every record of every collection: compared before and after a refused request. */
export function storeSnapshot(t: TestGateway): string {
  const collections = ['sessions', 'payments', 'transactions', 'cards', 'schedules', 'meta'] as const
  return JSON.stringify(collections.map((c) => t.store.list(c)))
}

/** Signatures of docs/rules.md#signatures with the demo merchant's password (or another). */
export const sign = {
  amount: (paymentId: string, amount?: string, password = PASSWORD) =>
    checkoutSignatures.amountOperation(paymentId, amount, password),
  payment: (paymentId: string, password = PASSWORD) =>
    checkoutSignatures.paymentOperation(paymentId, password),
  order: (orderId: string, password = PASSWORD) => checkoutSignatures.statusByOrder(orderId, password),
  recurring: (
    initId: string,
    token: string,
    order: { number: string; amount: string; description: string },
    password = PASSWORD,
  ) => checkoutSignatures.recurring(initId, token, order, password),
  credit: (
    body: { order_id: string; order_amount: string; order_currency: string; order_description: string },
    password = PASSWORD,
  ) => checkoutSignatures.credit(body, password),
}

/** Bodies of the operations on a payment, signed for the demo merchant. */
export const bodies = {
  capture: (paymentId: string, amount?: string, extra: Record<string, unknown> = {}) => ({
    merchant_key: MERCHANT,
    payment_id: paymentId,
    ...(amount === undefined ? {} : { amount }),
    hash: sign.amount(paymentId, amount),
    ...extra,
  }),
  refund: (paymentId: string, amount?: string, extra: Record<string, unknown> = {}) =>
    bodies.capture(paymentId, amount, extra),
  void: (paymentId: string, extra: Record<string, unknown> = {}) => ({
    merchant_key: MERCHANT,
    payment_id: paymentId,
    hash: sign.payment(paymentId),
    ...extra,
  }),
}
