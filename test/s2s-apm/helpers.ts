import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import qs from 'qs'
import { apmControlModule } from '../../src/core/apm/control.js'
import type { ApmPayment } from '../../src/core/apm/types.js'
import { callbacksModule, callbacksOf } from '../../src/core/callbacks/index.js'
import type { SandboxConfig, SandboxMerchant, SandboxMid } from '../../src/core/engine/context.js'
import type { Transaction } from '../../src/core/engine/model.js'
import { s2sApmModule } from '../../src/core/s2s-apm/module.js'
import { s2sCardModule } from '../../src/core/s2s-card/module.js'
import { type FormValue, s2sApmSignatures } from '../../src/core/signatures/index.js'
import { createTestGateway, demoConfig, type TestGateway } from '../helpers/engine.js'

/** S2S APM tests: the demo merchant (its key is the S2S `client_key`), forms, signatures, callbacks. */

export const KEY = 'demo-merchant'
export const PASSWORD = 'demo-password-0123456789abcdef'
export const OTHER_KEY = 'other-merchant'
export const OTHER_PASSWORD = 'other-password-0123456789abcdef'
export const SUCCESS = 'success@gmail.com'
export const FAIL = 'fail@gmail.com'

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'payloads', 's2s-apm')

/** A request fixture of fixtures/payloads/s2s-apm, e.g. `sale-request.basic`. */
export const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown>

export interface SetupOptions {
  mids?: SandboxMid[]
  mapping?: SandboxMerchant['protocol_mapping']
  commission?: number
  /** The demo merchant's Wallets tab (2.2.3): a decryption key switches the wallet to the card flow. */
  wallets?: SandboxMerchant['wallets']
}

export function apmConfig(options: SetupOptions = {}): SandboxConfig {
  const config = demoConfig()
  const [demo] = config.merchants as [SandboxMerchant]
  if (options.mids) demo.mids = options.mids as SandboxMerchant['mids']
  if (options.commission !== undefined) demo.debit2virtual_commission_percent = options.commission
  if (options.wallets) demo.wallets = options.wallets
  demo.protocol_mapping = options.mapping ?? {}
  config.merchants.push({ ...demo, key: OTHER_KEY, password: OTHER_PASSWORD, protocol_mapping: {} })
  return config
}

export type ApmGateway = TestGateway & {
  post(fields: Record<string, unknown>, path?: string): ReturnType<TestGateway['call']>
  payment(id: unknown): ApmPayment
  transactions(id: unknown): Transaction[]
  /** Every callback sent so far (after the queue is idle), parsed (bracket keys nested). */
  callbacks(): Promise<Record<string, FormValue>[]>
}

/**
 * S2S APM, the APM control routes and the callbacks module, on a memory store and the virtual clock;
 * S2S CARD's `/post` too, where the APM debits and payouts are also accepted (docs/rules.md#transport).
 */
export function setup(options: SetupOptions = {}): ApmGateway {
  const t = createTestGateway(
    [s2sApmModule, s2sCardModule, apmControlModule, callbacksModule],
    apmConfig(options),
  )
  return Object.assign(t, {
    post: (fields: Record<string, unknown>, path = '/post-va') => t.call('POST', path, qs.stringify(fields)),
    payment: (id: unknown) => t.store.get('payments', String(id)) as ApmPayment,
    transactions: (id: unknown) => t.store.findBy('transactions', 'payment_id', String(id)),
    async callbacks() {
      await callbacksOf(t.gateway.ctx).idle()
      return t.sent.map((s) => qs.parse(s.body) as Record<string, FormValue>)
    },
  })
}

/** SALE, DEBIT2VIRTUAL, DEBIT2VIRTUAL_CALC: md5(upper(rev(identifier + order_id + order_amount + order_currency + password))). */
export const paymentHash = (f: Record<string, unknown>, password = PASSWORD) =>
  s2sApmSignatures.payment(
    String(f.identifier),
    String(f.order_id),
    String(f.order_amount),
    String(f.order_currency),
    password,
  )

/** A signed SALE (fixture sale-request.basic on the demo merchant); `overrides` shape the case. */
export function saleForm(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base = { ...fixture('sale-request.basic'), client_key: KEY, ...overrides }
  return { ...base, hash: 'hash' in overrides ? overrides.hash : paymentHash(base) }
}

export function debit2virtualForm(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base = { ...fixture('debit2virtual-request.basic'), client_key: KEY, ...overrides }
  return { ...base, hash: 'hash' in overrides ? overrides.hash : paymentHash(base) }
}

export function calcForm(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base = { ...fixture('debit2virtual-calc-request.basic'), client_key: KEY, ...overrides }
  return { ...base, hash: 'hash' in overrides ? overrides.hash : paymentHash(base) }
}

/** CREDIT2VIRTUAL / CREDIT2CRYPTO: md5(upper(rev(order_id + order_amount + order_currency)) + password). */
export function payoutForm(
  overrides: Record<string, unknown> = {},
  name = 'credit2virtual-request.basic',
): Record<string, unknown> {
  const base: Record<string, unknown> = { ...fixture(name), client_key: KEY, ...overrides }
  const amount = typeof base.order_amount === 'string' ? base.order_amount : undefined
  return {
    ...base,
    hash:
      'hash' in overrides
        ? overrides.hash
        : s2sApmSignatures.credit2virtual(
            String(base.order_id),
            amount,
            String(base.order_currency),
            PASSWORD,
          ),
  }
}

/** CAPTURE, VOID, GET_TRANS_STATUS: md5(upper(rev(trans_id)) + password); CREDITVOID: md5(upper(rev(trans_id + password))). */
export const followUp = (action: string, transId: string, extra: Record<string, unknown> = {}) => ({
  action,
  client_key: KEY,
  trans_id: transId,
  hash:
    action === 'CREDITVOID'
      ? s2sApmSignatures.creditvoid(transId, PASSWORD)
      : s2sApmSignatures.transaction(transId, PASSWORD),
  ...extra,
})

/** Makes a SALE (or DEBIT2VIRTUAL) and answers its body; fails the test when it is not 200. */
export async function sale(t: ApmGateway, overrides: Record<string, unknown> = {}, form = saleForm) {
  const r = await t.post(form(overrides))
  if (r.status !== 200) throw new Error(`answered ${r.status}: ${r.raw}`)
  return r.body as unknown as Record<string, unknown> & { trans_id: string; status: string; result: string }
}

/** Everything the store holds once callbacks are delivered, to show that a refused request changed nothing. */
export async function snapshot(t: TestGateway): Promise<string> {
  await callbacksOf(t.gateway.ctx).idle()
  const collections = ['payments', 'transactions', 'cards', 'deliveries', 'sessions'] as const
  return JSON.stringify(collections.map((c) => t.store.list(c)))
}

/** The S2S APM callback signature over the whole body (Authentication 6). */
export const callbackSigned = (body: Record<string, FormValue>) =>
  body.hash === s2sApmSignatures.callback(body, PASSWORD)
