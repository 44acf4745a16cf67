import type { ScenarioSetup } from '../../generated/types.js'
import type { EngineContext } from '../engine/context.js'
import { formatDateTime } from '../engine/format.js'
import type { Delivery, Payment } from '../engine/model.js'
import { redactValue } from '../request-log/redact.js'
import { withSchemaDefaults } from '../validation/defaults.js'
import type { RequestRecord } from '../request-log/types.js'
import { expectedBooking } from './booking.js'
import { callbackSteps } from './callbacks.js'
import { roleOf } from './classify.js'
import { gatherOrder, type ObservedOrder } from './gather.js'
import {
  actionStep,
  faultStep,
  payerStep,
  requestExpectation,
  type Step,
  startFromStore,
  startStep,
} from './steps.js'

/**
 * An order the sandbox observed, as a conformance scenario in the kit's own format
 * (schemas/sandbox/scenario.schema.json, merchant mode): the merchant starts it and acts on it
 * through its hooks, the kit plays the payer's choices, the callbacks and their failures, the
 * clock's moves and the faults that were on, and checks that the merchant sends the same kinds of
 * requests (endpoint or action, amounts, currency, signed by the declared formula), acknowledges
 * the callbacks and books the outcome the gateway reported. Ids, dates, hashes and tokens are not
 * in it: the kit makes its own and matches them by their role (`${payment_id}`, the order it
 * started). docs/replay.md shows one.
 */
export interface OrderScenario {
  $schema: string
  title: string
  section: string
  tags: string[]
  description: string
  mode: 'merchant'
  setup?: ScenarioSetup
  steps: Step[]
}

/** Where a project that installed paysandbox finds the schema (an editor checks the file against it). */
export const SCENARIO_SCHEMA_REF = 'node_modules/paysandbox/schemas/sandbox/scenario.schema.json'

/** Steps that begin with the merchant's or the payer's act, and what is expected after it. */
interface Group {
  at: number
  /** The back-office action of this group whose answer a fault took (its resending is the same act). */
  retried?: string
  faults: Step[]
  trigger: Step[]
  after: Step[]
}

/** The kit's variable for the order number its first merchant.start made (a `${...}` interpolation). */
const ORDER_NUMBER = `\${order_number}`

/** A status lookup this soon after the act before it belongs to that act (a callback handler's, a return page's). */
const SAME_ACT_MS = 2000
/** A pause of the sandbox's clock this long between acts is played as a clock move (financial days). */
const CLOCK_GAP_MS = 3600_000

export function orderScenario(ctx: EngineContext, orderId: string, merchantKey?: string): OrderScenario {
  const order = gatherOrder(ctx, orderId, merchantKey)
  const notes: string[] = []
  const steps = storySteps(order, notes)
  const booking = expectedBooking(order.payments)
  if (booking)
    steps.push({
      step: 'expect.merchant_order',
      fields: booking.fields,
      description: `What the merchant books for the order: ${booking.because}.`,
    })
  const first = order.records[0]?.at ?? order.payments[0]?.created_at ?? order.sessions[0]?.created_at
  const apis = new Set(steps.flatMap((s) => (s.step === 'merchant.start' ? [String(s.api)] : [])))
  return {
    $schema: SCENARIO_SCHEMA_REF,
    title: `Order ${orderId} of ${order.merchantKey}, as the sandbox observed it`,
    section: 'docs/rules.md#request-log',
    tags: ['recorded', ...[...apis].sort()],
    description: [
      `Exported by paysandbox from order ${orderId} of merchant ${order.merchantKey}${first !== undefined ? `, begun ${formatDateTime(first)} on the sandbox's clock` : ''}: ${order.records.length} logged request(s), ${order.payments.length} payment(s), ${order.deliveries.length} callback(s).`,
      'Ids, dates, hashes and tokens are not in it: the kit makes its own and matches them by their role. Card numbers appear only masked, in descriptions.',
      ...notes,
    ].join(' '),
    mode: 'merchant',
    setup: setupOf(ctx, order),
    steps,
  }
}

/**
 * The merchant's MIDs, Protocol Mapping and the sandbox's callback timing, as the scenario's
 * gateway should have them: only what differs from the schema's defaults, so the file stays short.
 */
function setupOf(ctx: EngineContext, order: ObservedOrder): ScenarioSetup {
  const defaults = withSchemaDefaults('sandbox/config', {
    merchants: [{ key: 'k', password: 'p', mids: [{ id: 'm' }] }],
  }) as unknown as DefaultsView
  const base = defaults.merchants[0]
  const callbacks = ctx.config.callbacks as
    | { retry_schedule_seconds?: number[]; timeout_seconds?: number }
    | undefined
  const mids = order.merchant.mids?.map((mid) => changed(mid, base?.mids[0]) ?? { id: mid.id })
  const mapping = changed(order.merchant.protocol_mapping, base?.protocol_mapping)
  const retries = changed(callbacks?.retry_schedule_seconds, defaults.callbacks?.retry_schedule_seconds)
  const timeout = changed(callbacks?.timeout_seconds, defaults.callbacks?.timeout_seconds)
  return redactValue({
    ...(mids?.length ? { mids } : {}),
    ...(mapping ? { protocol_mapping: mapping } : {}),
    ...(retries ? { retry_schedule_seconds: retries } : {}),
    ...(timeout ? { callback_timeout_seconds: timeout } : {}),
  }) as ScenarioSetup
}

interface DefaultsView {
  merchants: { mids: Record<string, unknown>[]; protocol_mapping: Record<string, unknown> }[]
  callbacks?: { retry_schedule_seconds?: number[]; timeout_seconds?: number }
}

/** What of `value` differs from `base` (objects key by key, the rest whole); undefined when nothing does. */
function changed<T>(value: T, base: unknown): T | undefined {
  if (value === undefined || JSON.stringify(value) === JSON.stringify(base)) return undefined
  if (!value || typeof value !== 'object' || Array.isArray(value) || !base || typeof base !== 'object')
    return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const diff = k === 'id' ? v : changed(v, (base as Record<string, unknown>)[k])
    if (diff !== undefined) out[k] = diff
  }
  return Object.keys(out).length ? (out as T) : undefined
}

function storySteps(order: ObservedOrder, notes: string[]): Step[] {
  const groups: Group[] = []
  const open = (at: number, ...trigger: Step[]): Group => {
    const group: Group = { at, faults: [], trigger, after: [] }
    groups.push(group)
    return group
  }
  const payment = (id: string | undefined): Payment | undefined =>
    id ? order.payments.find((p) => p.id === id) : undefined
  const placed = placeDeliveries(order)
  let current: Group | undefined
  let starts = 0
  let lastAt = 0
  const events = [...order.records, ...order.sandbox].sort((a, b) => a.seq - b.seq)
  for (const r of events) {
    const role = r.api === 'sandbox' && r.path === '/sandbox/clock/advance' ? undefined : roleOf(r)
    if (!role) {
      const seconds = Number((r.request.body as { seconds?: unknown } | undefined)?.seconds)
      if (Number.isInteger(seconds) && seconds >= 1)
        current = open(r.at, {
          step: 'clock.advance',
          seconds,
          description: `The sandbox's clock was moved ${seconds} s (POST /sandbox/clock/advance, ${formatDateTime(r.at)}).`,
        })
    } else if (role.kind === 'start') {
      // A Hosted Payment Fields session is paid later, by the merchant's own request: its payment is the session's.
      const paid =
        payment(r.payment_ids[0]) ?? order.payments.find((p) => r.session_id && p.session_id === r.session_id)
      const start = startStep(r, role, paid)
      // The kit numbers each merchant.start's order anew; a second start of this order keeps its number.
      if (starts++ > 0) start.order.number = ORDER_NUMBER
      current = open(r.at, start)
      current.after.push(requestExpectation(r, role))
    } else if (role.kind === 'action') {
      // The back office sending its action again at once, after an answer that never came, is the
      // same act (its recovery), not a second one.
      const again = current?.retried === role.action && r.at - lastAt <= SAME_ACT_MS
      if (!again) current = open(r.at, actionStep(r, role.action))
      current?.after.push(requestExpectation(r, role))
    } else if (role.kind === 'lookup') {
      const ownAct = current && (r.at - lastAt <= SAME_ACT_MS || duringCallback(r, order.deliveries))
      if (!ownAct) current = open(r.at, actionStep(r, 'status'))
      current?.after.push(requestExpectation(r, role))
    } else if (role.kind === 'request') {
      ;(current ?? open(r.at)).after.push(requestExpectation(r, role))
    } else if (role.kind === 'payer') {
      const step = payerStep(r, role.payer, payment(r.payment_ids[0]))
      if (step) current = open(r.at, step)
    } else if (role.kind === 'unplayable') notes.push(`Not played: ${role.why} (${formatDateTime(r.at)}).`)
    if (role && role.kind !== 'ignored' && role.kind !== 'unplayable') {
      const fault = r.fault ? faultStep(r) : undefined
      if (fault && current) {
        current.faults.push(fault)
        if (role.kind === 'action') current.retried = role.action
      }
      lastAt = r.at
    }
    for (const delivery of placed.get(r.id) ?? []) {
      const target = current ?? open(r.at)
      const { before, after } = callbackSteps(delivery, order.deliveries)
      target.faults.push(...before)
      target.after.push(...after)
    }
  }
  for (const delivery of placed.get('') ?? []) {
    const { after } = callbackSteps(delivery, order.deliveries)
    ;(current ?? open(delivery.created_at)).after.push(...after)
  }
  if (!groups.some((g) => g.trigger.some((s) => s.step === 'merchant.start'))) {
    const start = startFromStore(order.sessions[0], order.payments[0])
    if (start) groups.unshift({ at: 0, faults: [], trigger: [start], after: [] })
    else
      notes.push(
        'The request that began the order is no longer in the request log and the store cannot tell it.',
      )
  }
  return flatten(groups)
}

/** The steps in order, with a clock move wherever the sandbox's clock paused long between two acts. */
function flatten(groups: Group[]): Step[] {
  const out: Step[] = []
  let previous: number | undefined
  for (const group of groups) {
    const moved = group.trigger.some((s) => s.step === 'clock.advance')
    if (previous !== undefined && group.at > 0 && !moved && group.at - previous >= CLOCK_GAP_MS) {
      const seconds = Math.min(31_536_000, Math.round((group.at - previous) / 1000))
      out.push({
        step: 'clock.advance',
        seconds,
        description: `${seconds} s passed on the sandbox's clock before the next step (${formatDateTime(previous)} → ${formatDateTime(group.at)}).`,
      })
    }
    out.push(...group.faults, ...group.trigger, ...group.after)
    if (group.at > 0) previous = group.at
    // An explicit move is where the clock then stood: the next act's time is measured from there.
    for (const s of group.trigger)
      if (s.step === 'clock.advance' && previous !== undefined) previous += s.seconds * 1000
  }
  return out
}

/** Whether a request arrived while one of the order's callbacks was being delivered (its handler's lookup). */
function duringCallback(r: RequestRecord, deliveries: Delivery[]): boolean {
  return deliveries.some((d) => d.attempts.some((a) => r.at >= a.at && r.at <= a.at + a.latency_ms))
}

/**
 * Each delivery after the request that queued it (its unit of work wrote it), else after the last
 * request before it was made; `''` holds those made before any logged request.
 */
function placeDeliveries(order: ObservedOrder): Map<string, Delivery[]> {
  const byRecord = new Map<string, Delivery[]>()
  const put = (key: string, d: Delivery) => byRecord.set(key, [...(byRecord.get(key) ?? []), d])
  const events = [...order.records, ...order.sandbox].sort((a, b) => a.seq - b.seq)
  for (const d of order.deliveries) {
    const owner = order.records.find((r) => r.callbacks?.includes(d.id))
    if (owner) put(owner.id, d)
    else put([...events].reverse().find((r) => r.at <= d.created_at)?.id ?? '', d)
  }
  return byRecord
}
