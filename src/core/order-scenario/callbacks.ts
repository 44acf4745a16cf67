import type { ScenarioCallbackSelector } from '../../generated/types.js'
import { formatDateTime } from '../engine/format.js'
import type { Delivery, DeliveryAttempt } from '../engine/model.js'
import type { Step } from './steps.js'

/**
 * The callbacks the sandbox sent about the order, and how the merchant answered each attempt
 * (the store keeps every attempt: docs/rules.md#callback-log). The exported scenario expects what
 * the interface asks of a merchant (docs/rules.md#acknowledgement: Checkout any 2xx, S2S `OK`, at the
 * first attempt); what was recorded stands in the step's description. Attempts that never reached
 * the merchant (a refused connection) are played again with callbacks.fail, and the clock is moved
 * to when the callback was retried.
 */

const ATTEMPTS_SHOWN = 4

/** `attempt 1: HTTP 500 "…"; attempt 2: HTTP 200 "OK"` (the first few). */
export function describeAttempts(attempts: DeliveryAttempt[]): string {
  const shown = attempts.slice(0, ATTEMPTS_SHOWN).map((a, i) => {
    const what = a.blocked
      ? 'blocked (URL blocked)'
      : a.timed_out
        ? 'no answer in time'
        : a.status !== undefined
          ? `HTTP ${a.status}${a.body_excerpt ? ` ${JSON.stringify(a.body_excerpt.slice(0, 60))}` : ''}`
          : `not delivered (${a.error ?? 'connection failed'})`
    return `attempt ${i + 1}: ${what}`
  })
  const more = attempts.length > ATTEMPTS_SHOWN ? `; ${attempts.length - ATTEMPTS_SHOWN} more` : ''
  return shown.length ? `${shown.join('; ')}${more}` : 'not delivered yet'
}

const unreached = (a: DeliveryAttempt) => a.status === undefined && !a.timed_out && !a.blocked

/** How a callback is named in the scenario: by its fields, and its position when those repeat. */
export function selectorOf(delivery: Delivery, all: Delivery[]): ScenarioCallbackSelector {
  const f = delivery.fields
  const own: ScenarioCallbackSelector =
    f.order_status !== undefined
      ? { ...(f.type ? { type: f.type } : {}), order_status: f.order_status }
      : { ...(f.action ? { action: f.action } : {}), ...(f.status ? { status: f.status } : {}) }
  const same = all.filter((d) =>
    (Object.keys(own) as (keyof ScenarioCallbackSelector)[]).every((k) => d.fields[k] === own[k]),
  )
  return same.length > 1 ? { index: all.indexOf(delivery) } : own
}

/** What one delivery adds: the failures to play before its trigger, the steps after it. */
export function callbackSteps(delivery: Delivery, all: Delivery[]): { before: Step[]; after: Step[] } {
  const attempts = delivery.attempts
  const acknowledgedAt = attempts.findIndex((a) => a.acknowledged)
  const name = `#${all.indexOf(delivery)} ${delivery.kind}/${delivery.fields.order_status ?? delivery.fields.status ?? ''}`
  const recorded = `recorded from ${formatDateTime(delivery.created_at)}: ${describeAttempts(attempts)}`
  let lost = 0
  while (lost < attempts.length && unreached(attempts[lost] as DeliveryAttempt)) lost++
  const replayLost = lost > 0 && acknowledgedAt === lost
  const before: Step[] = replayLost
    ? [
        {
          step: 'callbacks.fail',
          times: lost,
          description: `The first ${lost} attempt(s) of callback ${name} never reached the merchant (${recorded}).`,
        },
      ]
    : []
  const after: Step[] = []
  if (replayLost) {
    const waited = Math.ceil(
      ((attempts[lost] as DeliveryAttempt).at - (attempts[0] as DeliveryAttempt).at) / 1000,
    )
    if (waited >= 1)
      after.push({
        step: 'clock.advance',
        seconds: waited,
        description: `Until the gateway sends callback ${name} again (${waited} s after its first attempt).`,
      })
  }
  const unlike =
    acknowledgedAt === (replayLost ? lost : 0)
      ? ''
      : ` The merchant did not acknowledge it so then; this step expects the acknowledgement the interface asks for (docs/rules.md#acknowledgement), so it fails until the merchant answers it.`
  after.push({
    step: 'expect.callback_acknowledged',
    callback: selectorOf(delivery, all),
    attempts: replayLost ? lost + 1 : 1,
    description: `Callback ${name} (${delivery.api}), ${recorded}.${unlike}`,
  })
  return { before, after }
}
