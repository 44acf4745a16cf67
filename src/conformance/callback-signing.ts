import { checkoutSignatures } from '../core/signatures/checkout.js'
import { sameSignature, type Secret } from '../core/signatures/primitives.js'
import { type FormValue, s2sApmCallbackMistakes, s2sApmSignatures } from '../core/signatures/s2s-apm.js'
import {
  type CallbackParts,
  s2sCardCallbackMistakes,
  s2sCardSignatures,
} from '../core/signatures/s2s-card.js'
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
  /** The formula, written out, and the values this callback signs it over. */
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
  const sent = r.fields.hash
  if (!sent) return undefined
  const f = r.fields
  if (r.api === 'checkout') {
    const order = {
      number: f.order_number,
      amount: f.order_amount,
      currency: f.order_currency,
      description: f.order_description,
    }
    const right = [false, true].some(
      (sha256) => checkoutSignatures.notification(f.id ?? '', order, { password, sha256 }) === sent,
    )
    return right ? { over: '', mistakes: [] } : undefined
  }
  if (r.api === 's2s-card') {
    const facts = memoryOf(requests).forTrans(f.trans_id)
    if (!facts || !f.trans_id) return undefined
    const credit2card = facts.credit2card === true || f.action === 'CREDIT2CARD'
    const parts: CallbackParts = {
      payerEmail: credit2card ? '' : facts.payerEmail,
      transId: f.trans_id,
      card: facts.card,
    }
    const secret = PASSWORDS(password).find((s) =>
      sameSignature(
        credit2card
          ? s2sCardSignatures.credit2cardTransaction(s, parts.transId, parts.card)
          : s2sCardSignatures.transaction(parts.payerEmail, s, parts.transId, parts.card),
        sent,
      ),
    )
    if (!secret) return undefined
    const card =
      'cardToken' in facts.card
        ? `card_token ${q(facts.card.cardToken)}`
        : `first 6 + last 4 ${q(facts.card.cardNumber.replace(/\D/g, '').replace(/^(\d{6})\d*(\d{4})$/, '$1$2'))}`
    return {
      over: credit2card
        ? `Formula 6 (a CREDIT2CARD): hash = md5(upper(password + trans_id + rev(card))) over trans_id ${q(parts.transId)}, ${card}`
        : `Formula 2 over the original payment: hash = md5(upper(rev(payer_email) + password + trans_id + rev(first 6 + last 4 digits of the card, or the card_token))) over payer_email ${q(parts.payerEmail)}, trans_id ${q(parts.transId)}, ${card}`,
      mistakes: distinct(
        sent,
        s2sCardCallbackMistakes.map((m) => ({ name: m.name, hash: m.sign(secret, parts) })),
      ),
    }
  }
  if (r.api === 's2s-apm') {
    const body = r.body as Record<string, FormValue>
    const payout = f.action === 'CREDIT2VIRTUAL' || f.action === 'CREDIT2CRYPTO'
    const secret = PASSWORDS(password).find((s) =>
      sameSignature(
        payout
          ? s2sApmSignatures.credit2virtualCallback(f.trans_id ?? '', f.order_id ?? '', f.status ?? '', s)
          : s2sApmSignatures.callback(body, s),
        sent,
      ),
    )
    if (!secret) return undefined
    if (payout)
      return {
        over: `hash = md5(upper(rev(trans_id + order_id + status)) + password) over trans_id ${q(f.trans_id)}, order_id ${q(f.order_id)}, status ${q(f.status)}`,
        mistakes: [],
      }
    const keys = Object.keys(body)
      .filter((k) => k !== 'hash')
      .sort()
    return {
      over: `hash = md5(upper(every field but hash, keys sorted at each level, each value reversed, joined) + upper(password)) over ${keys.join(', ')}`,
      mistakes: distinct(
        sent,
        s2sApmCallbackMistakes.map((m) => ({ name: m.name, hash: m.sign(body, secret) })),
      ),
    }
  }
  return undefined
}
