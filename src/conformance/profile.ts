import type { SandboxMerchantAdapter } from '../generated/types.js'
import { CAPABILITIES, type CapabilityId, type Declaration, type Need, parseNeed, unmet } from './contract.js'
import type { LoadedScenario } from './types.js'

/**
 * What a scenario needs of the merchant (docs/conformance.md, The merchant contract): the flows it
 * exercises (adapter `flows`) and the hooks, actions and fields its steps use, read from its steps,
 * plus what its file declares (`needs`) when a step cannot say it (the contract-2 meaning of
 * `void`). A scenario whose needs the adapter does not declare is not run, with the reason.
 */

export type Flow = NonNullable<SandboxMerchantAdapter['flows']>[number]

const PAYOUT_OPERATIONS = new Set(['CREDIT2CARD', 'credit', 'CREDIT2VIRTUAL'])

type AnyStep = {
  step: string
  api?: string
  hosted_fields?: boolean
  operation?: string
  action?: string
  follow?: boolean
  ledger?: boolean
  fields?: Record<string, unknown>
  /** expect.merchant_order: field matches, each an alternative. */
  any_of?: Record<string, unknown>[]
}

/** The flows a scenario exercises, in the order of the adapter schema's list. */
export function flowsOf(loaded: LoadedScenario): Flow[] {
  const needed = new Set<Flow>()
  for (const step of loaded.scenario.steps) {
    const s = step as AnyStep
    if (s.step === 'merchant.start') {
      if (s.api === 'checkout') needed.add(s.hosted_fields ? 'hpf' : 'checkout')
      if (s.api === 's2s-card' || s.api === 's2s-apm') needed.add(s.api)
      if (s.operation && PAYOUT_OPERATIONS.has(s.operation)) needed.add('payouts')
      const f = s.fields ?? {}
      if (f.recurring_init === true || f.recurring_init === 'Y') needed.add('recurring')
      if (f.auth === true || f.auth === 'Y' || s.operation === 'AUTH') needed.add('two-stage')
    }
    if (s.step === 'merchant.action') {
      if (s.action === 'recurring') needed.add('recurring')
      if (s.action === 'capture') needed.add('two-stage')
    }
  }
  const order: Flow[] = ['checkout', 'hpf', 's2s-card', 's2s-apm', 'payouts', 'recurring', 'two-stage']
  return order.filter((f) => needed.has(f))
}

const isCapability = (id: string): id is CapabilityId => Object.hasOwn(CAPABILITIES, id)

/** The inspect fields of these field matches that the contract names (`$.payment_id` → `inspect.payment_id`). */
export function inspectCapabilities(sets: Record<string, unknown>[]): CapabilityId[] {
  return sets
    .flatMap(Object.keys)
    .map((k) => `inspect.${k.replace(/^\$\./, '').split(/[.[]/)[0]}`)
    .filter((id): id is CapabilityId => isCapability(id))
}

/** The hooks, actions and fields a scenario needs of the merchant's adapter, at their contract version. */
export function needsOf(loaded: LoadedScenario): Need[] {
  const needs = new Map<CapabilityId, Need>()
  const add = (need: Need | undefined) => {
    if (!need) return
    const known = needs.get(need.id)
    if (!known || known.version < need.version) needs.set(need.id, need)
  }
  const addId = (id: CapabilityId) => add({ id, version: CAPABILITIES[id].since })
  let api: string | undefined
  for (const step of loaded.scenario.steps) {
    const s = step as AnyStep
    if (s.step === 'merchant.start') {
      api = s.api
      if (s.operation && PAYOUT_OPERATIONS.has(s.operation)) addId('payouts')
    }
    if (s.step === 'merchant.action') {
      addId('merchant_action')
      if (s.action && isCapability(s.action)) addId(s.action)
    }
    if (s.step === 'expect.merchant_order') {
      addId('inspect')
      for (const id of inspectCapabilities([s.fields ?? {}, ...(s.any_of ?? [])])) addId(id)
    }
    if (s.step === 'expect.redirect' && s.follow) addId('return_pages')
    // The payer follows what the merchant hands it after an S2S payment (3DS, a redirect).
    if ((s.step === 'payer.3ds' || s.step === 'payer.redirect') && api !== undefined && api !== 'checkout')
      addId('handoff')
  }
  for (const text of (loaded.scenario as { needs?: string[] }).needs ?? []) add(parseNeed(text))
  return [...needs.values()]
}

/** A reason a scenario is not run for this merchant: the need (or flow) it lacks, and why. */
export interface Missing {
  /** `void`, `void@2`, `flow:s2s-card`. */
  need: string
  reason: string
  /** Short: what the run's summary groups the scenarios by. */
  label: string
}

/** Why the scenario does not apply to this profile (undefined: it applies, or no profile was given). */
export function notApplicable(
  loaded: LoadedScenario,
  offered: readonly Flow[] | undefined,
): string | undefined {
  if (!offered) return undefined
  const missing = flowsOf(loaded).filter((f) => !offered.includes(f))
  if (!missing.length) return undefined
  return `not applicable: the scenario needs ${missing.join(', ')}, which the merchant's adapter does not offer (flows: ${offered.join(', ')})`
}

/**
 * Why the scenario is not run for this merchant: the flows it does not offer first (reported as
 * "not applicable"), else what its contract does not declare ("not run: your adapter declares no
 * `void` action"). Undefined: it runs.
 */
export function notRunFor(
  loaded: LoadedScenario,
  merchant: { flows?: readonly string[]; declaration?: Declaration },
): { reason: string; missing: Missing[] } | undefined {
  const flows = notApplicable(loaded, merchant.flows as Flow[] | undefined)
  if (flows) {
    const offered = merchant.flows ?? []
    const missing = flowsOf(loaded)
      .filter((f) => !offered.includes(f))
      .map((f) => ({
        need: `flow:${f}`,
        reason: `the merchant's adapter does not offer ${f} (flows)`,
        label: `flow ${f} not offered (flows)`,
      }))
    return { reason: flows, missing }
  }
  const { declaration } = merchant
  if (!declaration) return undefined
  const missing = needsOf(loaded).flatMap((need) => {
    const why = unmet(need, declaration)
    return why ? [{ need: why.name, reason: why.reason, label: why.label }] : []
  })
  if (!missing.length) return undefined
  return { reason: `not run: ${missing.map((m) => m.reason).join('; ')}`, missing }
}
