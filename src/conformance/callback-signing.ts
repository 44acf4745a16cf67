import { CALLBACK_FORMULAS, type CallbackFormula } from '../core/signatures/formulas.js'
import { sameSignature, type Secret } from '../core/signatures/primitives.js'
import { type FormValue, s2sApmCallbackMistakes } from '../core/signatures/s2s-apm.js'
import { type CallbackParts, s2sCardCallbackMistakes } from '../core/signatures/s2s-card.js'
import { callbackHash } from '../library/signatures.js'
import type { CallbackRecord } from './callback-channel.js'
import type { ObservedRequest } from './sandbox-host.js'
import { PaymentMemory } from './signing.js'

/**
 * How the kit checks a callback the merchant refused for its hash (docs/conformance.md, Cause
 * first): it recomputes the hash with the sandbox's own formula (src/core/signatures) and the
 * adapter's password, in MD5 or SHA256 mode, and lists the wrong hashes a merchant computes by a
 * common mistake in that formula (defined next to it), each to re-send the callback with.
 */

export interface CallbackSigning {
  /** The callback's formula, as src/core/signatures declares it. */
  formula: CallbackFormula
  /** The values this callback signs it over. */
  over: string
  /** The mistakes to try, each the hash it gives for this callback (none equal to the right one, none twice). */
  mistakes: { name: string; hash: string }[]
}

const PASSWORDS = (password: string): Secret[] => [
  { password, sha256: false },
  { password, sha256: true },
]

/** Each named hash once, and none that is the right one. */
function distinct(right: string, all: { name: string; hash: string }[]) {
  const seen = new Set([right.toLowerCase()])
  return all.filter((m) => {
    const key = m.hash.toLowerCase()
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** What the kit remembers of the S2S payments the merchant made (payer e-mail and card, by trans_id). */
export function memoryOf(requests: ObservedRequest[]): PaymentMemory {
  const memory = new PaymentMemory()
  for (const r of requests) {
    if (!r.body) continue
    if (typeof r.body.action === 'string' && r.body.action.startsWith('RECURRING_'))
      memory.learnRecurring(r.body, r.answer.json)
    else memory.learn(r.body, r.answer.json)
  }
  return memory
}

const q = (v: string | undefined) => JSON.stringify(v ?? '')

/**
 * The callback's signing when the kit finds it signed right with the adapter's password, else
 * undefined (an S2S CARD callback of a payment the kit has not seen cannot be checked: the formula
 * reads the payment's e-mail and card).
 */
export function callbackSigning(
  r: CallbackRecord,
  password: string,
  requests: ObservedRequest[],
): CallbackSigning | undefined {
  const f = r.fields
  const sent = f.hash
  const facts = r.api === 's2s-card' ? memoryOf(requests).forTrans(f.trans_id) : undefined
  if (!sent || (r.api === 's2s-card' && (!facts || !f.trans_id))) return undefined
  const credit2card = facts?.credit2card === true || f.action === 'CREDIT2CARD'
  const payment = {
    payerEmail: credit2card ? '' : (facts?.payerEmail ?? ''),
    card: facts?.card ?? { cardNumber: '' },
  }
  const parts: CallbackParts = { ...payment, transId: f.trans_id ?? '' }
  // The library's callback formula (src/library/signatures.ts), in MD5 or SHA256 mode.
  const signed =
    r.api === 's2s-apm'
      ? (r.body as Record<string, FormValue>)
      : credit2card
        ? { ...f, action: 'CREDIT2CARD' }
        : f
  const secret = PASSWORDS(password).find((s) => sameSignature(callbackHash(signed, s, r.api, payment), sent))
  if (!secret) return undefined
  if (r.api === 'checkout') return { formula: CALLBACK_FORMULAS.checkout, over: '', mistakes: [] }
  if (r.api === 's2s-card') {
    const card =
      'cardToken' in parts.card
        ? `card_token ${q(parts.card.cardToken)}`
        : `first 6 + last 4 ${q(parts.card.cardNumber.replace(/\D/g, '').replace(/^(\d{6})\d*(\d{4})$/, '$1$2'))}`
    return {
      formula: credit2card ? CALLBACK_FORMULAS['s2s-card-payout'] : CALLBACK_FORMULAS['s2s-card'],
      over: `${credit2card ? '' : `payer_email ${q(parts.payerEmail)}, `}trans_id ${q(parts.transId)}, ${card}`,
      mistakes: distinct(
        sent,
        s2sCardCallbackMistakes.map((m) => ({ name: m.name, hash: m.sign(secret, parts) })),
      ),
    }
  }
  if (f.action === 'CREDIT2VIRTUAL' || f.action === 'CREDIT2CRYPTO')
    return {
      formula: CALLBACK_FORMULAS['s2s-apm-payout'],
      over: `trans_id ${q(f.trans_id)}, order_id ${q(f.order_id)}, status ${q(f.status)}`,
      mistakes: [],
    }
  return {
    formula: CALLBACK_FORMULAS['s2s-apm'],
    over: Object.keys(signed)
      .filter((k) => k !== 'hash')
      .sort()
      .join(', '),
    mistakes: distinct(
      sent,
      s2sApmCallbackMistakes.map((m) => ({ name: m.name, hash: m.sign(signed, secret) })),
    ),
  }
}
