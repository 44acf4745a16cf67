import { DONE_MODES, type FaultMode } from '../core/faults/index.js'
import type { ObservedRequest } from './sandbox-host.js'

/**
 * What a gateway fault did to one of the merchant's requests, read from the request log (the
 * `Sandbox-Fault` header the kit's gateway set, the answer the merchant got): whether the gateway
 * did the work behind it, and how to say so in a finding. Used by the cause finder for payments
 * sent twice (causes.ts) and for every other money action sent again (resent-actions.ts).
 */

/** The merchant never got the gateway's own answer to it: a fault took it away (or put a page in its place). */
export const unanswered = (r: ObservedRequest): boolean => !!r.fault && !(r.late?.delivered ?? false)

/** The gateway did the request although the merchant never got its answer (lost, late past the client's time-out). */
export const doneUnanswered = (r: ObservedRequest): boolean =>
  unanswered(r) && DONE_MODES.has(r.fault as FaultMode)

/** A success answer the merchant got: HTTP 200 without an error envelope (Checkout error_code, S2S ERROR/DECLINED). */
export function acceptedAnswer(r: ObservedRequest): boolean {
  if (r.answer.status !== 200) return false
  const json = r.answer.json
  if (!json || typeof json !== 'object' || Array.isArray(json)) return true
  const b = json as Record<string, unknown>
  return !('error_code' in b) && b.result !== 'ERROR' && b.result !== 'DECLINED'
}

/** Whether the gateway did it: its answer says so, or a fault took away the answer of work done. */
export const doneByGateway = (r: ObservedRequest): boolean =>
  unanswered(r) ? doneUnanswered(r) : acceptedAnswer(r)

/** `its answer lost (sandbox fault "lost")`: what became of the answer to work the gateway did. */
function afterWork(r: ObservedRequest): string {
  // No measured time here: how long the merchant's client waited is real time, which a loaded
  // machine stretches; a finding reads the same on every run.
  if (r.fault === 'late') return `its answer held until the merchant's client gave up (sandbox fault "late")`
  if (r.answer.status > 0)
    return `a proxy answered HTTP ${r.answer.status} (an HTML page) in its place (sandbox fault "lost")`
  return 'its answer lost (sandbox fault "lost")'
}

/** `was done and its answer lost (sandbox fault "lost")`, for a request the gateway did unanswered. */
export const wasDone = (r: ObservedRequest): string => `was done and ${afterWork(r)}`

/**
 * `the gateway did it and its answer was lost (sandbox fault "lost")`, or with a proxy's page, a
 * late answer, or a fault in which nothing was done: the outcome the merchant could not see.
 */
export function faultOutcome(r: ObservedRequest): string {
  if (doneUnanswered(r))
    return r.fault === 'lost' && r.answer.status === 0
      ? 'the gateway did it and its answer was lost (sandbox fault "lost")'
      : `the gateway did it and ${afterWork(r)}`
  if (r.fault === 'error')
    return `a proxy answered HTTP ${r.answer.status} (sandbox fault "error"; this time the gateway had not done it)`
  return `its answer never came (sandbox fault "${r.fault ?? ''}"; this time the gateway had not done it)`
}

/** `no answer`, or `a proxy's HTTP 502 page`: what the merchant got instead of the gateway's answer. */
export const faultAnswer = (r: ObservedRequest): string =>
  r.answer.status > 0 ? `a proxy's HTTP ${r.answer.status} page` : 'no answer'
