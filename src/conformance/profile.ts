import type { SandboxMerchantAdapter } from '../generated/types.js'
import type { LoadedScenario } from './types.js'

/**
 * The merchant's profile (adapter `flows`, docs/conformance.md): the flows a scenario needs, read
 * from its steps, and why a scenario does not apply to a merchant that does not offer one of them.
 */

export type Flow = NonNullable<SandboxMerchantAdapter['flows']>[number]

const PAYOUT_OPERATIONS = new Set(['CREDIT2CARD', 'credit', 'CREDIT2VIRTUAL'])

/** The flows a scenario exercises, in the order of the adapter schema's list. */
export function flowsOf(loaded: LoadedScenario): Flow[] {
  const needed = new Set<Flow>()
  for (const step of loaded.scenario.steps) {
    const s = step as {
      step: string
      api?: string
      hosted_fields?: boolean
      operation?: string
      action?: string
      fields?: Record<string, unknown>
    }
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
