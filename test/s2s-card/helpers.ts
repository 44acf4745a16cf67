import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import qs from 'qs'
import { callbacksModule } from '../../src/core/callbacks/index.js'
import type { SandboxConfig, SandboxMerchant, SandboxMid } from '../../src/core/engine/context.js'
import type { Payment } from '../../src/core/engine/model.js'
import { s2sCardModule } from '../../src/core/s2s-card/module.js'
import { s2sCardSignatures } from '../../src/core/signatures/index.js'
import { createTestGateway, demoConfig, type TestGateway } from '../helpers/engine.js'

/** S2S CARD tests: the demo merchant (its key is the S2S `client_key`), forms, signatures. */

export const KEY = 'demo-merchant'
export const PASSWORD = 'demo-password-0123456789abcdef'
export const OTHER_KEY = 'other-merchant'
export const OTHER_PASSWORD = 'other-password-0123456789abcdef'
export const EMAIL = 'doe@example.com'
export const CARD = '4111111111111111'

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'payloads', 's2s-card')

/** A request fixture of fixtures/payloads/s2s-card, e.g. `sale-request.basic`. */
export const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown>

export interface SetupOptions {
  mids?: SandboxMid[]
  mapping?: SandboxMerchant['protocol_mapping']
  password?: string
}

/** The demo merchant (with the given MIDs and mapping) plus a second merchant, for isolation. */
export function s2sConfig(options: SetupOptions = {}): SandboxConfig {
  const config = demoConfig()
  const [demo] = config.merchants as [SandboxMerchant]
  if (options.mids) demo.mids = options.mids as SandboxMerchant['mids']
  demo.protocol_mapping = options.mapping ?? {}
  if (options.password) demo.password = options.password
  config.merchants.push({ ...demo, key: OTHER_KEY, password: OTHER_PASSWORD, protocol_mapping: {} })
  return config
}

export type S2sGateway = TestGateway & {
  post(fields: Record<string, unknown>, path?: string): ReturnType<TestGateway['call']>
  payment(id: unknown): Payment
}

/** The S2S CARD module and the callbacks module, on a memory store and the virtual clock. */
export function setup(options: SetupOptions = {}): S2sGateway {
  const t = createTestGateway([s2sCardModule, callbacksModule], s2sConfig(options))
  return Object.assign(t, {
    post: (fields: Record<string, unknown>, path = '/post') => t.call('POST', path, qs.stringify(fields)),
    payment: (id: unknown) => t.store.get('payments', String(id)) as Payment,
  })
}

export const saleHash = (email = EMAIL, card = CARD, password = PASSWORD) =>
  s2sCardSignatures.payment(email, password, { cardNumber: card })

export const tokenHash = (token: string, email = EMAIL) =>
  s2sCardSignatures.payment(email, PASSWORD, { cardToken: token })

/** CAPTURE, VOID, CREDITVOID, GET_TRANS_STATUS: over the original payment's e-mail and card. */
export const transHash = (transId: string, email = EMAIL, card = CARD) =>
  s2sCardSignatures.transaction(email, PASSWORD, transId, { cardNumber: card })

export const orderHash = (orderId: string, email = EMAIL, card = CARD) =>
  s2sCardSignatures.byOrder(email, PASSWORD, orderId, { cardNumber: card })

/** A signed SALE (fixture sale-request.basic on the demo merchant); `overrides` shape the case. */
export function saleForm(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = { ...fixture('sale-request.basic'), client_key: KEY, ...overrides }
  const card = String(base.card_number ?? CARD)
  const email = String(base.payer_email ?? '')
  return { ...base, hash: 'hash' in overrides ? overrides.hash : saleHash(email, card) }
}

/** A follow-up (CAPTURE, VOID, CREDITVOID, GET_TRANS_STATUS) of `transId`, signed. */
export const followUp = (action: string, transId: string, extra: Record<string, unknown> = {}) => ({
  action,
  client_key: KEY,
  trans_id: transId,
  hash: transHash(transId),
  ...extra,
})

/** Makes a SALE and answers its body; fails the test when it is not 200. */
export async function paid(t: S2sGateway, overrides: Record<string, unknown> = {}) {
  const r = await t.post(saleForm(overrides))
  if (r.status !== 200) throw new Error(`SALE answered ${r.status}: ${r.raw}`)
  return r.body as unknown as Record<string, unknown> & { trans_id: string }
}

/** The callbacks queued for a payment, as POSTed (flat bracket keys). */
export const callbacksOf = (t: TestGateway, paymentId: string) =>
  t.store.findBy('deliveries', 'payment_id', paymentId).map((d) => d.fields)

/**
 * What a request could change, to show that a refused one changed nothing: payments, transactions,
 * saved cards and which callbacks exist (their delivery attempts move on by themselves).
 */
export const snapshot = (t: TestGateway) =>
  JSON.stringify([
    ...(['payments', 'transactions', 'cards'] as const).map((c) => t.store.list(c)),
    t.store.list('deliveries').map((d) => d.id),
  ])

export const MOTO_MID: SandboxMid = { id: 'moto-mid', payment_mode: 'SMS/DMS', moto: true }
