import { PaymentMemory } from '../conformance/signing.js'
import type { SandboxMerchant } from '../core/engine/context.js'
import { sameSignature } from '../core/signatures/index.js'
import { declaredSigning, type SignedApi } from '../core/signing/declared.js'

/**
 * The replay's signatures (docs/replay.md, "Hashes"): a request's `hash` is checked as recorded,
 * with the configuration's password (never one from the file) and the formula its route or action
 * declares. A hash that verifies is made again over the request as sent, whose ids are the fresh
 * sandbox's (the same formula, the same password: what the merchant would have sent). One that does
 * not is reported and sent as recorded, so the sandbox answers it as the gateway did: it is never
 * re-signed into a request the merchant did not make.
 */
export interface HashCheck {
  formula: string
  /** `valid`: the recorded hash is the formula's; `invalid`: it is not (sent unchanged). */
  recorded: 'valid' | 'invalid'
  note?: string
}

const NO_FACTS = { payerEmail: '', card: { cardNumber: '' } }

export function apiOfPath(path: string): SignedApi | undefined {
  if (path.startsWith('/api/v1/')) return 'checkout'
  if (path === '/post' || path === '/v2/post') return 's2s-card'
  if (path === '/post-va') return 's2s-apm'
  return undefined
}

export class ReplaySigner {
  /** What formulas over the original payment read (payer e-mail, card), by recorded and by fresh ids. */
  readonly memory = new PaymentMemory()

  /** The hash `body` must carry, or undefined when its endpoint declares none (Token routes, pages). */
  expected(
    api: SignedApi,
    path: string,
    body: Record<string, unknown>,
    secret: SandboxMerchant,
  ): { hash: string; formula: string } | undefined {
    const action = typeof body.action === 'string' ? body.action : undefined
    const signing = declaredSigning(api, api === 'checkout' ? { path } : { ...(action ? { action } : {}) })
    if (!signing) return undefined
    const { formula } = signing
    if (!formula.needsOriginal) return { hash: formula.sign(body, secret), formula: formula.id }
    const facts =
      signing.originalBy === 'recurring'
        ? this.memory.forRecurring(body)
        : signing.originalBy === 'order_id'
          ? this.memory.forOrder(body.order_id)
          : this.memory.forTrans(body.trans_id)
    return { hash: formula.sign(body, secret, facts ?? NO_FACTS), formula: formula.id }
  }

  /** Checks the recorded hash; answers the check and the hash to send with the rewritten body. */
  check(
    api: SignedApi,
    path: string,
    recorded: Record<string, unknown>,
    sent: Record<string, unknown>,
    merchant: SandboxMerchant,
  ): { check?: HashCheck; hash?: string } {
    const expected = this.expected(api, path, recorded, merchant)
    if (!expected) return {}
    if (recorded.hash === undefined || recorded.hash === '')
      return {
        check: { formula: expected.formula, recorded: 'invalid', note: 'the request carries no hash' },
      }
    if (!sameSignature(expected.hash, recorded.hash))
      return {
        check: {
          formula: expected.formula,
          recorded: 'invalid',
          note: `the recorded hash does not verify with merchant ${merchant.key}'s password (configuration) under ${expected.formula}: sent as recorded`,
        },
      }
    const again = this.expected(api, path, sent, merchant)
    return { check: { formula: expected.formula, recorded: 'valid' }, ...(again ? { hash: again.hash } : {}) }
  }

  /** Remembers a payment request and its answer (recorded and fresh), for the formulas over it. */
  learn(body: Record<string, unknown>, answer: unknown): void {
    const action = typeof body.action === 'string' ? body.action : ''
    if (action.startsWith('RECURRING_')) this.memory.learnRecurring(body, answer)
    else this.memory.learn(body, answer)
  }
}
