import type { ControlClient } from './client.js'
import { type Credentials, conformanceSource } from './conformance-source.js'
import type { ScenarioSource } from './scenario-source.js'

/** decisions.md §6 / README: the built-in demo merchant's documented credentials. */
const DEMO: Credentials = { merchant_key: 'demo-merchant', password: 'demo-password-0123456789abcdef' }

/**
 * Scenario runs act as one merchant, signed with its password. An embedded or --data console knows
 * the configuration; over --url the control API never tells a password, so it comes from --key
 * and --password, or is the documented demo merchant's when the sandbox has that merchant.
 */
export function loadScenarioSource(client: ControlClient, known?: Credentials): ScenarioSource {
  return conformanceSource(client.baseUrl, async () => {
    if (known) return known
    const merchants = await client.merchants()
    if (merchants.some((m) => m.key === DEMO.merchant_key)) return DEMO
    return `Scenario runs sign as a merchant: start the console with --key KEY --password PASSWORD (the sandbox has ${merchants
      .map((m) => m.key)
      .join(', ')}).`
  })
}
