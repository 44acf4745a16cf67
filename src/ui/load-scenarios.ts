import type { ControlClient } from './client.js'
import { type Credentials, conformanceSource } from './conformance-source.js'
import type { ScenarioSource } from './scenario-source.js'

/** docs/rules.md#beyond-the-interface / README: the built-in demo merchant's documented credentials. */
const DEMO: Credentials = { merchant_key: 'demo-merchant', password: 'demo-password-0123456789abcdef' }

/**
 * Scenario runs act as the merchant chosen in the console (`M` on the scenarios view), signed
 * with its password. An embedded or --data console knows every configured merchant's; over --url
 * the control API never tells a password, so it comes from --key and --password, or is the
 * documented demo merchant's when the sandbox has that merchant.
 */
export function loadScenarioSource(
  client: ControlClient,
  known?: Credentials | Credentials[],
  controlToken?: string,
): ScenarioSource {
  const list = known === undefined ? [] : Array.isArray(known) ? known : [known]
  const merchant = async (key: string) => (await client.merchants()).find((m) => m.key === key)
  return conformanceSource(
    client.baseUrl,
    async (key) => {
      const chosen = key ? list.find((c) => c.merchant_key === key) : list[0]
      const merchants = await client.merchants()
      // A key the sandbox does not have is the key's fault, said as such (issue 33), not a
      // notification_url "not set" on a merchant that does not exist.
      if (chosen && !merchants.some((m) => m.key === chosen.merchant_key))
        return `The sandbox at ${client.baseUrl} has no merchant "${chosen.merchant_key}" (--key): it has ${merchants.map((m) => m.key).join(', ') || 'none'}. Start the console with --key of one of them.`
      if (chosen) return chosen
      const wanted = key ?? DEMO.merchant_key
      if (wanted === DEMO.merchant_key && merchants.some((m) => m.key === DEMO.merchant_key)) return DEMO
      if (key)
        return `Scenario runs sign as ${key}, whose password this console does not know: start it with --key ${key} --password PASSWORD (the control API never tells a password).`
      return `Scenario runs sign as a merchant: start the console with --key KEY --password PASSWORD (the sandbox has ${merchants
        .map((m) => m.key)
        .join(', ')}).`
    },
    { merchant, ...(controlToken ? { controlToken } : {}) },
  )
}
