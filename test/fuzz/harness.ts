import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createMemoryStore, createSeededIds, createVirtualClock } from '../../src/adapters/index.js'
import { createGateway, type Gateway } from '../../src/core/engine/gateway.js'
import type { GatewayRequest } from '../../src/core/engine/http.js'
import { type Collections, STORE_INDEXES } from '../../src/core/engine/model.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import type { Logger } from '../../src/core/ports/logger.js'
import type { Store } from '../../src/core/ports/store.js'
import { checkoutSignatures, s2sApmSignatures, s2sCardSignatures } from '../../src/core/signatures/index.js'
import { SCHEMAS_DIR } from '../../src/schema-files.js'
import { demoConfig, recordingTransport } from '../helpers/engine.js'

const ROOT = join(import.meta.dirname, '..', '..')
export const PASSWORD = 'demo-password-0123456789abcdef'
/** The payer e-mail and card of the world's S2S CARD payment: its follow-ups are signed with them. */
const S2S_EMAIL = 'doe@example.com'
const S2S_CARD = '4111111111111111'

export interface Endpoint {
  method: string
  path: string
  contentType: string
  headers?: string[]
  /** Other paths that take the same request (docs/rules.md#endpoints: the S2S APM debits and payouts at /post). */
  alsoAt?: string[]
}

/** Every request schema that declares its endpoint, by `METHOD /path` (S2S: one per action; /v2/post as /post; `alsoAt` paths too). */
export function schemasByRoute(): Map<string, { schema: string; endpoint: Endpoint }[]> {
  const out = new Map<string, { schema: string; endpoint: Endpoint }[]>()
  const add = (route: string, entry: { schema: string; endpoint: Endpoint }) =>
    out.set(route, [...(out.get(route) ?? []), entry])
  for (const dir of readdirSync(SCHEMAS_DIR, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue
    for (const file of readdirSync(join(SCHEMAS_DIR, dir.name))) {
      if (!file.endsWith('-request.schema.json')) continue
      const json = JSON.parse(readFileSync(join(SCHEMAS_DIR, dir.name, file), 'utf8'))
      const endpoint = json['x-endpoint'] as Endpoint | undefined
      if (!endpoint) continue
      const entry = { schema: `${dir.name}/${file.replace('.schema.json', '')}`, endpoint }
      add(`${endpoint.method} ${endpoint.path}`, entry)
      if (endpoint.path === '/post') add(`${endpoint.method} /v2/post`, entry)
      for (const path of endpoint.alsoAt ?? [])
        add(`${endpoint.method} ${path}`, { ...entry, endpoint: { ...endpoint, path } })
    }
  }
  return out
}

/** The valid examples of a schema: fixtures/payloads/<dir>/<name>.<variant>.json. */
export function fixturesOf(schema: string): Record<string, unknown>[] {
  const [dir, name] = schema.split('/') as [string, string]
  const folder = join(ROOT, 'fixtures', 'payloads', dir)
  return readdirSync(folder)
    .filter((f) => f.startsWith(`${name}.`) && f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(folder, f), 'utf8')) as Record<string, unknown>)
}

/** Counts every write that changes what the store holds. */
export function trackedStore(): { store: Store<Collections>; changes: () => number } {
  const store = createMemoryStore<Collections>(STORE_INDEXES)
  let changes = 0
  const { put, delete: remove, clear } = store
  store.put = (collection, record) => {
    if (JSON.stringify(store.get(collection, record.id)) !== JSON.stringify(record)) changes++
    put.call(store, collection, record)
  }
  store.delete = (collection, id) => {
    if (store.get(collection, id)) changes++
    remove.call(store, collection, id)
  }
  store.clear = () => {
    // Stricter than needed (clearing an empty store changes nothing): no refusal may clear at all.
    changes++
    clear.call(store)
  }
  return { store, changes: () => changes }
}

export interface FuzzWorld {
  gateway: Gateway
  store: Store<Collections>
  changes: () => number
  clock: ReturnType<typeof createVirtualClock>
  bugs: string[]
  events: number
  /** Open sessions by operation, for the `Token` header, and a settled payment for follow-ups. */
  tokens: { purchase: string; debit: string }
  payment: { id: string; order: string }
  /** A settled S2S CARD recurring initial sale, for the follow-up and recurring actions; a held one for CAPTURE. */
  s2s: { id: string; order: string; token: string; held: string }
  /** S2S APM: a settled vcard SALE for the follow-ups, a held one (auth=Y) for CAPTURE. */
  apm: { id: string; held: string }
}

/** DEFAULT_MODULES on a tracked memory store, with a paid payment and open sessions to aim at. */
export async function createWorld(): Promise<FuzzWorld> {
  const { store, changes } = trackedStore()
  const clock = createVirtualClock(Date.UTC(2026, 10, 2, 10, 0, 0))
  const bugs: string[] = []
  const logger: Logger = {
    info() {},
    warn() {},
    error: (m, f) => void bugs.push(`${m} ${JSON.stringify(f)}`),
  }
  const gateway = createGateway(
    {
      store,
      clock,
      ids: createSeededIds('fuzz'),
      transport: recordingTransport().transport,
      logger,
      config: demoConfig(),
    },
    DEFAULT_MODULES,
  )
  const world = {
    gateway,
    store,
    changes,
    clock,
    bugs,
    events: 0,
    tokens: { purchase: '', debit: '' },
    payment: { id: '', order: '' },
    s2s: { id: '', order: '', token: '', held: '' },
    apm: { id: '', held: '' },
  }
  // Events of a change only: a refusal's event (docs/rules.md#rule-book) says what was refused, and changes nothing.
  gateway.ctx.events.subscribe((event) => {
    if (event.type !== 'refusal') world.events++
  })
  if (gateway.routes().includes('POST /api/v1/session/token')) {
    world.tokens.purchase = await sessionToken(gateway, 'purchase', 'fuzz-paid')
    const paid = await call(
      gateway,
      'POST',
      '/api/v1/processing/purchase/card',
      {
        card_number: '4111111111111111',
        card_exp_month: '01',
        card_exp_year: '2030',
        card_cvv2: '123',
      },
      { token: world.tokens.purchase },
    )
    world.payment = { id: String(paid.payment_id ?? ''), order: 'fuzz-paid' }
    world.tokens.purchase = await sessionToken(gateway, 'purchase', 'fuzz-open')
    world.tokens.debit = await sessionToken(gateway, 'debit', 'fuzz-debit')
  }
  if (gateway.routes().includes('POST /post'))
    world.s2s = { ...(await s2sSale(gateway, 'N')), held: (await s2sSale(gateway, 'Y')).id }
  if (gateway.routes().includes('POST /post-va'))
    world.apm = { id: await apmSale(gateway, 'N'), held: await apmSale(gateway, 'Y') }
  return world
}

/** A vcard SALE that succeeds at once (docs/rules.md#apm-test-brand: success@gmail.com). */
async function apmSale(gateway: Gateway, auth: 'Y' | 'N'): Promise<string> {
  const order = {
    identifier: 'success@gmail.com',
    order_id: `fuzz-apm-${auth}`,
    amount: '10.00',
    currency: 'USD',
  }
  const r = await call(gateway, 'POST', '/post-va', {
    action: 'SALE',
    client_key: 'demo-merchant',
    brand: 'vcard',
    order_id: order.order_id,
    order_amount: order.amount,
    order_currency: order.currency,
    order_description: 'Fuzz',
    identifier: order.identifier,
    payer_ip: '203.0.113.10',
    return_url: 'https://merchant.example/return',
    auth,
    hash: s2sApmSignatures.payment(order.identifier, order.order_id, order.amount, order.currency, PASSWORD),
  })
  return String(r.trans_id ?? '')
}

async function s2sSale(gateway: Gateway, auth: 'Y' | 'N') {
  const order = 'fuzz-s2s'
  const r = await call(gateway, 'POST', '/post', {
    action: 'SALE',
    client_key: 'demo-merchant',
    order_id: order,
    order_amount: '10.00',
    order_currency: 'USD',
    order_description: 'Fuzz',
    card_number: S2S_CARD,
    card_exp_month: '01',
    card_exp_year: '2039',
    card_cvv2: '123',
    payer_first_name: 'John',
    payer_last_name: 'Doe',
    payer_email: S2S_EMAIL,
    payer_phone: '2125550100',
    payer_ip: '203.0.113.10',
    term_url_3ds: 'https://merchant.example/3ds',
    recurring_init: 'Y',
    auth,
    hash: s2sCardSignatures.payment(S2S_EMAIL, PASSWORD, { cardNumber: S2S_CARD }),
  })
  return { id: String(r.trans_id ?? ''), order, token: String(r.recurring_token ?? '') }
}

async function call(
  gateway: Gateway,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const r = await gateway.handle({
    method,
    path,
    query: {},
    headers: { 'content-type': 'application/json', ...headers },
    body: new TextEncoder().encode(JSON.stringify(body)),
  })
  return JSON.parse(r.body) as Record<string, unknown>
}

async function sessionToken(gateway: Gateway, operation: string, number: string): Promise<string> {
  const order = { number, amount: '10.00', currency: 'USD', description: 'Fuzz' }
  const r = await call(gateway, 'POST', '/api/v1/session/token', {
    merchant_key: 'demo-merchant',
    operation,
    methods: ['card'],
    order,
    success_url: 'https://merchant.example/success',
    hash: checkoutSignatures.session(order, PASSWORD),
  })
  return String(r.token ?? '')
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined)
const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, string>) : {})

/** The body aimed at the world's own merchant, payment and order, signed as docs/rules.md#signatures says. */
export function aim(
  world: FuzzWorld,
  schema: string,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const b = { ...body }
  if ('merchant_key' in b) b.merchant_key = 'demo-merchant'
  if ('payment_id' in b && world.payment.id) b.payment_id = world.payment.id
  if ('order_id' in b && world.payment.id) b.order_id = world.payment.order
  if ('client_key' in b) b.client_key = 'demo-merchant'
  if (schema.startsWith('s2s-card/') && world.s2s.id) {
    for (const field of ['trans_id', 'recurring_first_trans_id', 'recurring_init_trans_id'])
      if (field in b) b[field] = world.s2s.id
    if (schema === 's2s-card/capture-request') b.trans_id = world.s2s.held
    if ('recurring_token' in b) b.recurring_token = world.s2s.token
    if (schema === 's2s-card/get-trans-status-by-order-request') b.order_id = world.s2s.order
  }
  if (schema.startsWith('s2s-apm/') && world.apm.id && 'trans_id' in b)
    b.trans_id = schema === 's2s-apm/capture-request' ? world.apm.held : world.apm.id
  return sign(schema, b)
}

/** Re-signs after a mutation, so that a broken field, not the hash, is what the engine meets first. */
export function sign(schema: string, b: Record<string, unknown>): Record<string, unknown> {
  if (!('hash' in b)) return b
  const order = obj(b.order)
  const s = checkoutSignatures
  const c = s2sCardSignatures
  // S2S CARD: a payment over its own e-mail and card (or token); the rest over the world's S2S payment.
  const card =
    str(b.card_token) !== undefined
      ? { cardToken: str(b.card_token) ?? '' }
      : { cardNumber: str(b.card_number) ?? '' }
  const payment = () => c.payment(str(b.payer_email) ?? '', PASSWORD, card)
  const initial = () => c.payment(S2S_EMAIL, PASSWORD, { cardNumber: S2S_CARD })
  const transaction = () =>
    c.transaction(S2S_EMAIL, PASSWORD, str(b.trans_id) ?? '', { cardNumber: S2S_CARD })
  const a = s2sApmSignatures
  const apmPayment = () =>
    a.payment(
      str(b.identifier) ?? '',
      str(b.order_id) ?? '',
      str(b.order_amount) ?? '',
      str(b.order_currency) ?? '',
      PASSWORD,
    )
  const apmTransaction = () => a.transaction(str(b.trans_id) ?? '', PASSWORD)
  const hash = {
    'checkout/session-request': () => s.session(order, PASSWORD),
    'checkout/session-token-request': () => s.session(order, PASSWORD),
    'checkout/capture-request': () => s.amountOperation(str(b.payment_id) ?? '', str(b.amount), PASSWORD),
    'checkout/refund-request': () => s.amountOperation(str(b.payment_id) ?? '', str(b.amount), PASSWORD),
    'checkout/void-request': () => s.paymentOperation(str(b.payment_id) ?? '', PASSWORD),
    'checkout/retry-request': () => s.paymentOperation(str(b.payment_id) ?? '', PASSWORD),
    'checkout/status-request': () =>
      b.payment_id !== undefined
        ? s.paymentOperation(str(b.payment_id) ?? '', PASSWORD)
        : s.statusByOrder(str(b.order_id) ?? '', PASSWORD),
    'checkout/credit-request': () => s.credit(b as Record<string, string>, PASSWORD),
    'checkout/recurring-request': () =>
      s.recurring(str(b.recurring_init_trans_id) ?? '', str(b.recurring_token) ?? '', order, PASSWORD),
    's2s-card/sale-request': payment,
    's2s-card/auth-request': payment,
    's2s-card/debit-request': payment,
    's2s-card/card2card-request': () =>
      c.card2card(str(b.payer_email), PASSWORD, str(b.payer_card_number) ?? ''),
    's2s-card/recurring-sale-request': initial,
    's2s-card/recurring-debit-request': initial,
    's2s-card/capture-request': transaction,
    's2s-card/void-request': transaction,
    's2s-card/creditvoid-request': transaction,
    's2s-card/get-trans-status-request': transaction,
    's2s-card/get-trans-details-request': transaction,
    's2s-card/retry-request': initial,
    's2s-card/credit2card-request': () => c.credit2card(PASSWORD, card),
    's2s-card/get-trans-status-by-order-request': () =>
      c.byOrder(S2S_EMAIL, PASSWORD, str(b.order_id) ?? '', { cardNumber: S2S_CARD }),
    's2s-apm/sale-request': apmPayment,
    's2s-apm/debit2virtual-request': apmPayment,
    's2s-apm/debit2virtual-calc-request': apmPayment,
    's2s-apm/capture-request': apmTransaction,
    's2s-apm/void-request': apmTransaction,
    's2s-apm/get-trans-status-request': apmTransaction,
    's2s-apm/creditvoid-request': () => a.creditvoid(str(b.trans_id) ?? '', PASSWORD),
    's2s-apm/debit2virtual-complete-request': apmTransaction,
    's2s-apm/credit2virtual-request': () =>
      a.credit2virtual(str(b.order_id) ?? '', str(b.order_amount), str(b.order_currency) ?? '', PASSWORD),
    's2s-apm/credit2crypto-request': () =>
      a.credit2virtual(str(b.order_id) ?? '', str(b.order_amount), str(b.order_currency) ?? '', PASSWORD),
  }[schema]
  return hash ? { ...b, hash: hash() } : b
}

export const encode = (text: string) => new TextEncoder().encode(text)

export function request(
  method: string,
  path: string,
  body: Uint8Array,
  headers: Record<string, string>,
  query: Record<string, string> = {},
): GatewayRequest {
  return { method, path, query, headers, body, remoteAddress: '203.0.113.9' }
}
