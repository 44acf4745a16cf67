import type { CallbackRecord } from './callback-channel.js'
import type { ScenarioContext } from './context.js'
import { faultAnswer, unanswered } from './fault-outcomes.js'
import { paymentIdOf } from './observations.js'
import { isLookup, nameOf } from './resent-actions.js'
import type { ObservedRequest } from './sandbox-host.js'
import { describeCallback } from './steps/select.js'
import type { Finding } from './types.js'

/**
 * A callback acknowledged before the merchant could apply it (docs/conformance.md, Gateway faults):
 * the merchant answered the gateway's callback at its first attempt, then looked the payment up
 * to confirm it, and the lookup failed (a fault on the status endpoint) and was never tried again.
 * The gateway never sends an acknowledged callback again, so what it reported is lost to the
 * merchant. A merchant that answers 5xx until its lookup works is sent the callback again. Read
 * from the request log and the callbacks' attempts, which the kit places among the requests (a
 * lookup belongs to the latest delivery attempt about its payment begun before it).
 */

const paymentOf = (c: CallbackRecord) => c.fields.id ?? c.fields.trans_id
const orderOf = (c: CallbackRecord) => c.fields.order_number ?? c.fields.order_id

/** Whether the merchant's lookup is about the callback's payment (by its id, or by its order). */
const about = (r: ObservedRequest, c: CallbackRecord) =>
  (paymentOf(c) !== undefined && paymentIdOf(r) === paymentOf(c)) ||
  (orderOf(c) !== undefined && r.body?.order_id !== undefined && String(r.body.order_id) === orderOf(c))

export function unappliedCallbackFindings(ctx: ScenarioContext): Finding[] {
  if (ctx.mode !== 'merchant' || !ctx.hosted) return []
  const requests = ctx.hosted.requests
  const callbacks = ctx.channel.log.filter((c) => c.source === 'gateway')
  const found: Finding[] = []
  for (const failed of requests.filter((r) => isLookup(r) && unanswered(r))) {
    // The delivery it was made for: the latest attempt of a callback about its payment begun before it.
    let made: { record: CallbackRecord; attempt: number } | undefined
    for (const record of callbacks) {
      if (!about(failed, record)) continue
      record.attempts.forEach((a, i) => {
        const begun = a.requests?.before
        if (begun === undefined || begun > failed.seq) return
        const best = made ? made.record.attempts[made.attempt]?.requests?.before : undefined
        if (best === undefined || begun >= best) made = { record, attempt: i }
      })
    }
    const attempt = made?.record.attempts[made.attempt]
    // Acknowledged all the same, and never looked up again with an answer.
    if (!made || !attempt?.acknowledged) continue
    const { record } = made
    if (requests.some((r) => r.seq > failed.seq && isLookup(r) && about(r, record) && !unanswered(r)))
      continue
    const name = nameOf(failed)
    const cause = `the merchant acknowledged ${describeCallback(record)} (attempt ${made.attempt + 1}) although its status lookup of the payment (${name}) got ${faultAnswer(failed)} (sandbox fault "${failed.fault}") and was not tried again`
    found.push({
      kind: 'unapplied-callback',
      cause,
      headline: `${cause}: an acknowledged callback is never sent again, so what it reported was never confirmed nor applied`,
      request: `POST ${record.url} (application/x-www-form-urlencoded); then ${name} ${failed.text.slice(0, 300)}`,
      answer: `to the callback: HTTP ${attempt.status ?? ''} ${JSON.stringify(attempt.body?.slice(0, 80) ?? '')}; to the lookup: ${failed.answer.text.slice(0, 200)}`,
      rule: 'a callback is acknowledged once it is verified and applied: a merchant that confirms it with the status lookup answers 5xx while the lookup fails, and the gateway sends it again later (Events; docs/rules.md#callbacks; docs/conformance.md, Gateway faults)',
      fix: 'confirm and apply the callback before answering it; when the status lookup fails, answer 503 (any non-2xx; on S2S anything but OK) so that the gateway retries, or keep the callback and retry the lookup until it answers',
      section: 'Events; docs/rules.md#callbacks; Gateway faults',
    })
  }
  return found
}
