import { createExpressApp } from '../../src/adapters/express/app.js'
import type { SandboxConfig } from '../../src/core/engine/context.js'
import type { Payment, Transaction } from '../../src/core/engine/model.js'
import type { EngineModule } from '../../src/core/engine/modules.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { createTestGateway, demoConfig } from '../helpers/engine.js'

/** The express app over a deterministic test gateway (memory store, virtual clock, seeded ids). */
export function createTestApp(
  modules: EngineModule[] = DEFAULT_MODULES,
  config: SandboxConfig = demoConfig(),
) {
  const t = createTestGateway(modules, config)
  return { ...t, app: createExpressApp(t.gateway) }
}

/** A stored payment as the engine would keep it (card masked). */
export function samplePayment(i: number, overrides: Partial<Payment> = {}): Payment {
  return {
    id: `pay-${String(i).padStart(3, '0')}`,
    api: 'checkout',
    merchant_key: 'demo-merchant',
    mid_id: 'demo-mid',
    operation: 'purchase',
    method: 'card',
    order_id: `order-${i}`,
    order: { number: `order-${i}`, amount: '10.00', currency: 'USD', description: 'Sample' },
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
    created_at: Date.UTC(2026, 0, 1) + i * 1000,
    updated_at: Date.UTC(2026, 0, 1) + i * 1000,
    ...overrides,
  }
}

export function sampleTransaction(paymentId: string, n: number, type: Transaction['type']): Transaction {
  return {
    id: `${paymentId}-tx-${n}`,
    payment_id: paymentId,
    type,
    status: 'success',
    amount: '10.00',
    created_at: Date.UTC(2026, 0, 1) + n * 60_000,
  }
}
