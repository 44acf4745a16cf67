import type { SandboxConfig, SandboxMerchant, SandboxMid } from '../../src/core/engine/context.js'
import type { EngineEvent } from '../../src/core/engine/events.js'
import type { Collections } from '../../src/core/engine/model.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { createTestGateway, demoConfig, type TestGateway } from '../helpers/engine.js'
import { checkoutSessionModule } from '../../src/core/checkout/module.js'

/** The demo merchant of fixtures/config/demo.json. */
export const DEMO = { key: 'demo-merchant', password: 'demo-password-0123456789abcdef' }
export const OTHER = { key: 'other-merchant', password: 'other-password-0123456789' }

/** A Luhn-valid test card whose expiry month 01 succeeds (docs/rules.md#test-data). */
export const CARD = {
  card_number: '4111111111111111',
  card_exp_month: '01',
  card_exp_year: '2030',
  card_cvv2: '123',
}

const ORDER = { number: 'order-1', amount: '10.00', currency: 'USD', description: 'Gift' }

/**
 * A signed session request. `order` fields merge into the default order; the hash is computed
 * over the final order (docs/rules.md#signatures) unless the overrides give one.
 */
export function sessionBody(
  overrides: Record<string, unknown> = {},
  merchant: { key: string; password: string } = DEMO,
): Record<string, unknown> {
  const order = { ...ORDER, ...((overrides.order as Record<string, string> | undefined) ?? {}) }
  return {
    merchant_key: merchant.key,
    operation: 'purchase',
    success_url: 'https://merchant.example/success',
    hash: checkoutSignatures.session(order, merchant.password),
    ...overrides,
    order,
  }
}

/** A signed session-token request: the session request plus the `return_url` it requires (docs/rules.md#sessions). */
export const tokenBody = (
  overrides: Record<string, unknown> = {},
  merchant: { key: string; password: string } = DEMO,
): Record<string, unknown> =>
  sessionBody({ return_url: 'https://merchant.example/return', ...overrides }, merchant)

/** A configuration whose demo merchant has these MIDs (and a second merchant with an SMS/DMS MID). */
export function configWith(mids: Partial<SandboxMid>[], extra: Partial<SandboxConfig> = {}): SandboxConfig {
  const base = demoConfig()
  const demo = base.merchants[0] as SandboxMerchant
  const other: SandboxMerchant = {
    key: OTHER.key,
    password: OTHER.password,
    notification_url: 'http://localhost:3001/callback',
    mids: [{ id: 'other-mid', payment_mode: 'SMS/DMS' }],
  }
  const list = mids.map((m, i) => ({ id: `mid-${i + 1}`, ...m })) as [SandboxMid, ...SandboxMid[]]
  return { ...base, ...extra, merchants: [{ ...demo, mids: list }, other] }
}

export function gatewayWith(config?: SandboxConfig): TestGateway {
  return createTestGateway([checkoutSessionModule], config ?? configWith([{ id: 'demo-mid' }]))
}

/** Creates a Hosted Payment Fields session and answers its token. */
export async function hpfSession(
  t: TestGateway,
  overrides: Record<string, unknown> = {},
  merchant = DEMO,
): Promise<string> {
  // docs/rules.md#hosted-payment-fields: the session-token request requires return_url (success_url is optional there).
  const r = await t.call('POST', '/api/v1/session/token', tokenBody(overrides, merchant))
  if (r.status !== 200) throw new Error(`session/token answered ${r.status}: ${r.raw}`)
  return r.body.token as string
}

/** A Hosted Payment Fields card payment (docs/rules.md#beyond-the-interface). */
export function pay(
  t: TestGateway,
  token: string,
  card: Record<string, unknown> = {},
  operation: 'purchase' | 'debit' = 'purchase',
) {
  return t.call('POST', `/api/v1/processing/${operation}/card`, { ...CARD, ...card }, { Token: token })
}

/** How many records each collection holds: "bad input changes no state" is checked with it. */
export function counts(t: TestGateway): Record<keyof Collections, number> {
  const names: (keyof Collections)[] = ['sessions', 'payments', 'transactions', 'cards', 'schedules', 'meta']
  return Object.fromEntries(names.map((n) => [n, t.store.count(n)])) as Record<keyof Collections, number>
}

/** Every event the engine emits from now on. */
export function recordEvents(t: TestGateway): EngineEvent[] {
  const events: EngineEvent[] = []
  t.gateway.ctx.events.subscribe((e) => events.push(e))
  return events
}

export const sessionByToken = (t: TestGateway, token: string) =>
  t.store.findBy('sessions', 'page_token', token)[0] ?? t.store.findBy('sessions', 'token', token)[0]

export const paymentOf = (t: TestGateway, id: unknown) => t.store.get('payments', String(id))

/** The `errors[].error_message` values of an answer. */
export const messages = (body: Record<string, unknown>): string[] =>
  ((body.errors as { error_message: string }[] | undefined) ?? []).map((e) => e.error_message)
