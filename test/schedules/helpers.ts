import { callbacksOf } from '../../src/core/callbacks/index.js'
import type { SandboxConfig, SandboxMerchant } from '../../src/core/engine/context.js'
import type { Chain, Payment } from '../../src/core/engine/model.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { s2sCardSignatures } from '../../src/core/signatures/index.js'
import { DEMO, hpfSession, OTHER, pay } from '../checkout/session-helpers.js'
import { createTestGateway, demoConfig, type TestGateway } from '../helpers/engine.js'

/** Schedules on the whole engine: S2S CARD actions, Checkout payments, callbacks, the runner. */

export { DEMO, OTHER }

/** The demo merchant (with this Protocol Mapping) and a second merchant. */
export function scheduleConfig(mapping: SandboxMerchant['protocol_mapping'] = {}): SandboxConfig {
  const base = demoConfig()
  const demo = base.merchants[0] as SandboxMerchant
  return {
    ...base,
    merchants: [
      { ...demo, protocol_mapping: mapping },
      { ...demo, key: OTHER.key, password: OTHER.password, name: 'Other', protocol_mapping: {} },
    ],
  }
}

/** Starts 2026-11-02 10:00:00 UTC, a Monday (test/helpers/engine.ts). */
export const schedulesGateway = (config: SandboxConfig = scheduleConfig()): TestGateway =>
  createTestGateway(DEFAULT_MODULES, config)

/** An S2S CARD form request (every value a string, as on the wire). */
export const s2s = (t: TestGateway, fields: Record<string, string>) =>
  t.call('POST', '/post', new URLSearchParams(fields).toString())

/**
 * CREATE_SCHEDULE signed for the merchant (docs/rules.md#s2s-card-formulas: md5(upper(rev(password)))).
 * docs/rules.md#schedules: `payments_count` is required (120 here unless the test names one) and `interval_unit` is `day`
 * or `month`: a test's week of N is sent as 7N days.
 */
export async function createSchedule(
  t: TestGateway,
  params: Record<string, string>,
  merchant = DEMO,
): Promise<string> {
  const r = await s2s(t, {
    action: 'CREATE_SCHEDULE',
    client_key: merchant.key,
    name: 'Plan',
    payments_count: '120',
    ...inDays(params),
    hash: s2sCardSignatures.createSchedule(merchant.password),
  })
  if (r.body.result !== 'SUCCESS') throw new Error(`CREATE_SCHEDULE answered ${r.raw}`)
  return r.body.schedule_id as string
}

/** docs/rules.md#schedules: no `week` unit on the platform; a week is 7 days. */
export function inDays(params: Record<string, string>): Record<string, string> {
  if (params.interval_unit !== 'week') return params
  return {
    ...params,
    interval_unit: 'day',
    interval_length: String(Number(params.interval_length ?? '1') * 7),
  }
}

/** Another schedule action, signed md5(upper(rev(schedule_id + password))) unless `hash` is given. */
export const scheduleAction = (
  t: TestGateway,
  action: string,
  scheduleId: string,
  extra: Record<string, string> = {},
  merchant = DEMO,
) =>
  s2s(t, {
    action,
    client_key: merchant.key,
    schedule_id: scheduleId,
    hash: s2sCardSignatures.schedule(scheduleId, merchant.password),
    ...extra,
  })

/**
 * An approved initial payment of a recurring chain, paid on the hosted payment fields: 2.1
 * `recurring_init` with `schedule_id` (and `schedule_start_date`, `payment_schedule_amount`).
 */
export async function initialPayment(
  t: TestGateway,
  session: Record<string, unknown>,
  options: { operation?: 'purchase' | 'debit'; card?: Record<string, string>; merchant?: typeof DEMO } = {},
): Promise<Payment> {
  const operation = options.operation ?? 'purchase'
  const token = await hpfSession(t, { recurring_init: true, operation, ...session }, options.merchant)
  const r = await pay(t, token, { card_exp_year: '2035', ...options.card }, operation)
  const payment = t.store.get('payments', String(r.body.payment_id))
  if (!payment) throw new Error(`payment answered ${r.raw}`)
  return payment
}

export const chainOf = (t: TestGateway, initialId: string): Chain | undefined =>
  t.store.get('chains', initialId)

/** The scheduled (secondary) payments of a chain, oldest first. */
export const secondaries = (t: TestGateway, initialId: string): Payment[] =>
  t.store
    .list('payments')
    .filter((p) => p.recurring?.parent_payment_id === initialId)
    .sort((a, b) => a.created_at - b.created_at)

/** `YYYY-MM-DD HH:MM:SS` of each payment's creation. */
export const when = (payments: Payment[]) =>
  payments.map((p) => new Date(p.created_at).toISOString().slice(0, 19).replace('T', ' '))

/** Moves the clock to `at` (running every job due on the way) and waits for the callbacks. */
export async function advanceTo(t: TestGateway, at: number): Promise<void> {
  await t.clock.advance(at - t.clock.now())
  await callbacksOf(t.gateway.ctx).idle()
}

/** The sent callbacks of one payment, decoded. */
export const callbacksFor = (t: TestGateway, paymentId: string): Record<string, string>[] =>
  t.sent
    .map((r) => Object.fromEntries(new URLSearchParams(r.body)))
    .filter((fields) => fields.id === paymentId || fields.trans_id === paymentId)

/** An S2S CARD SALE or DEBIT with `recurring_init=Y&schedule_id` (2.3), paid with the test card (month 01). */
export async function s2sInitial(
  t: TestGateway,
  scheduleId: string,
  action: 'SALE' | 'DEBIT' = 'SALE',
  extra: Record<string, string> = {},
): Promise<Payment> {
  const r = await s2s(t, {
    action,
    client_key: DEMO.key,
    order_id: `s2s-${action.toLowerCase()}-${t.store.count('payments') + 1}`,
    order_amount: '7.00',
    order_currency: 'EUR',
    order_description: 'Subscription',
    card_number: '4111111111111111',
    card_exp_month: '01',
    card_exp_year: '2039',
    card_cvv2: '123',
    payer_first_name: 'John',
    payer_last_name: 'Doe',
    payer_email: 'doe@example.com',
    payer_phone: '2125550100',
    payer_ip: '203.0.113.10',
    term_url_3ds: 'https://merchant.example.com/3ds-return',
    recurring_init: 'Y',
    schedule_id: scheduleId,
    hash: s2sCardSignatures.payment('doe@example.com', DEMO.password, { cardNumber: '4111111111111111' }),
    ...extra,
  })
  const payment = t.store.get('payments', String(r.body.trans_id))
  if (!payment) throw new Error(`${action} answered ${r.raw}`)
  return payment
}
