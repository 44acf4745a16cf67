import type { ScenarioCallbackSelector } from '../../generated/types.js'
import type { CallbackRecord } from '../callback-channel.js'
import { fail } from '../context.js'

/** `sale/settled (success)`: how a report names a callback. */
export const describeCallback = (r: CallbackRecord): string => {
  const f = r.fields
  const what =
    f.order_status !== undefined
      ? `${f.type}/${f.order_status} (${f.status})`
      : `${f.action} ${f.result} ${f.status ?? ''}`
  return `#${r.index} ${what.trim()}${r.source === 'gateway' ? '' : ` [${r.source}]`}`
}

const SELECTOR_KEYS = ['type', 'order_status', 'action', 'status'] as const

/**
 * The callback a selector names: `index` among the gateway's callbacks, else the latest one (of
 * the given sources) whose fields match every given value.
 */
export function selectCallback(
  log: CallbackRecord[],
  selector: ScenarioCallbackSelector | undefined,
  sources: CallbackRecord['source'][] = ['gateway'],
): CallbackRecord {
  const fromGateway = log.filter((r) => r.source === 'gateway')
  if (selector?.index !== undefined) {
    return (
      fromGateway[selector.index] ??
      fail(
        `there is no callback #${selector.index}: the gateway made ${fromGateway.length} (${fromGateway.map(describeCallback).join(', ') || 'none'})`,
      )
    )
  }
  const matches = log.filter(
    (r) =>
      sources.includes(r.source) &&
      SELECTOR_KEYS.every((k) => selector?.[k] === undefined || r.fields[k] === selector[k]),
  )
  return (
    matches.at(-1) ??
    fail(
      `no callback matches ${JSON.stringify(selector ?? {})}; callbacks so far: ${log.map(describeCallback).join(', ') || 'none'}`,
    )
  )
}
