import qs from 'qs'
import { createMemoryStore, createSeededIds, createVirtualClock } from '../../src/adapters/index.js'
import { callbacksModule } from '../../src/core/callbacks/index.js'
import type { SandboxConfig, SandboxMerchant } from '../../src/core/engine/context.js'
import { createGateway } from '../../src/core/engine/gateway.js'
import {
  type Api,
  type Collections,
  type Payment,
  STORE_INDEXES,
  type Transaction,
  type TransactionStatus,
  type TransactionType,
} from '../../src/core/engine/model.js'
import type { EngineModule } from '../../src/core/engine/modules.js'
import { type Logger, silentLogger } from '../../src/core/ports/logger.js'
import type { Store } from '../../src/core/ports/store.js'
import type { OutboundRequest, OutboundResponse, Transport } from '../../src/core/ports/transport.js'
import { demoConfig } from '../helpers/engine.js'

export const START = Date.UTC(2026, 10, 2, 10, 0, 0)
export const PASSWORD = 'demo-password-0123456789abcdef'

/** A merchant endpoint in the test: answers each callback (may be async, may never answer). */
export type Merchant = (request: OutboundRequest) => OutboundResponse | Promise<OutboundResponse>

/** The demo configuration plus a second merchant, with the merchant's mapping and callback options. */
export function config(
  options: { mapping?: SandboxMerchant['protocol_mapping']; callbacks?: SandboxConfig['callbacks'] } = {},
): SandboxConfig {
  const base = demoConfig()
  const demo = base.merchants[0] as SandboxMerchant
  return {
    ...base,
    ...(options.callbacks ? { callbacks: options.callbacks } : {}),
    merchants: [
      { ...demo, notification_url: 'http://merchant-a.test/cb', protocol_mapping: options.mapping ?? {} },
      {
        ...demo,
        key: 'other-merchant',
        notification_url: 'http://merchant-b.test/cb',
        mids: [{ id: 'other-mid', override_link_target: '_blank' }],
      },
    ],
  }
}

/** A gateway with only the callbacks module, on a virtual clock; `merchant` answers every callback. */
export function harness(
  options: {
    config?: SandboxConfig
    merchant?: Merchant
    modules?: EngineModule[]
    logger?: Logger
    /** Another store (a lowdb one, to restart on); a fresh memory store by default. */
    store?: Store<Collections>
    /** The virtual clock's start (a restart goes on from where the last run stopped). */
    start?: number
    /**
     * `real` (default): a request times out after its `timeoutMs`, on a real timer. `manual`: it
     * times out only when the test calls `timeOut()`, so a test can order events around a time-out
     * without racing it.
     */
    timeouts?: 'real' | 'manual'
  } = {},
) {
  const clock = createVirtualClock(options.start ?? START)
  const store = options.store ?? createMemoryStore<Collections>(STORE_INDEXES)
  const sent: OutboundRequest[] = []
  let answer: Merchant = options.merchant ?? (() => ({ status: 200, body: 'OK' }))
  // Like the real transports, this one enforces `timeoutMs` itself (the engine starts no timer):
  // a merchant that never answers ends in a TimeoutError, as AbortSignal.timeout rejects.
  // With `timeouts: 'manual'` the test fires them (`timeOut()`): every request still waiting.
  const waiting = new Set<() => void>()
  const transport: Transport = {
    send(request) {
      sent.push(request)
      let timer: ReturnType<typeof setTimeout> | undefined
      let fire: (() => void) | undefined
      const timeout = new Promise<never>((_, reject) => {
        fire = () => reject(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))
        if (options.timeouts === 'manual') waiting.add(fire)
        else timer = setTimeout(fire, request.timeoutMs)
      })
      return Promise.race([Promise.resolve().then(() => answer(request)), timeout]).finally(() => {
        clearTimeout(timer)
        if (fire) waiting.delete(fire)
      })
    },
  }
  const gateway = createGateway(
    {
      store,
      clock,
      ids: createSeededIds('callbacks'),
      transport,
      logger: options.logger ?? silentLogger,
      config: options.config ?? config(),
      baseUrl: 'http://sandbox.test',
    },
    options.modules ?? [callbacksModule],
  )
  return {
    gateway,
    ctx: gateway.ctx,
    clock,
    store,
    sent,
    setMerchant(next: Merchant) {
      answer = next
    },
    /** `timeouts: 'manual'`: every request still waiting for its answer times out now. */
    timeOut() {
      for (const fire of [...waiting]) fire()
    },
  }
}

export type Harness = ReturnType<typeof harness>

let counter = 0
const nextId = (prefix: string) => `${prefix}-${String(++counter).padStart(6, '0')}`

/** A settled card payment of the demo merchant; `overrides` shape the case. */
export function payment(overrides: Partial<Payment> = {}): Payment {
  const id = overrides.id ?? nextId('pay')
  return {
    id,
    api: 'checkout' as Api,
    merchant_key: 'demo-merchant',
    mid_id: 'demo-mid',
    operation: 'purchase',
    method: 'card',
    order_id: 'ORDER-1001',
    order: { number: 'ORDER-1001', amount: '10.00', currency: 'USD', description: 'Demo order' },
    status: 'settled',
    auth: false,
    amount_captured: '10.00',
    amount_refunded: '0.00',
    card: {
      masked: '411111******1111',
      bin: '411111',
      last4: '1111',
      brand: 'visa',
      exp_month: '01',
      exp_year: '2030',
    },
    payer: { email: 'doe@example.com' },
    customer_ip: '203.0.113.10',
    created_at: START,
    updated_at: START,
    ...overrides,
  }
}

export function transaction(
  p: Payment,
  type: TransactionType,
  status: TransactionStatus = 'success',
  overrides: Partial<Transaction> = {},
): Transaction {
  return {
    id: nextId('tx'),
    payment_id: p.id,
    type,
    status,
    amount: p.order.amount,
    created_at: START,
    ...overrides,
  }
}

/** What an operation does (docs/engine.md): store the payment and its transaction, then emit. */
export function commit(h: Harness, p: Payment, tx: Transaction): void {
  h.store.put('payments', p)
  h.store.put('transactions', tx)
  h.ctx.events.emit({
    type: 'transaction',
    payment_id: p.id,
    transaction_id: tx.id,
    kind: tx.type,
    status: tx.status,
    at: h.clock.now(),
  })
}

/** The form body of a sent callback, as a merchant's parser (qs) reads it. */
export const parsed = (request: OutboundRequest): Record<string, unknown> =>
  qs.parse(request.body) as Record<string, unknown>
