import type { EngineContext } from '../engine/context.js'
import type { StoredCard, ThreeDsData } from '../engine/model.js'

/** A challenge is pending: the payer is sent to the sandbox's ACS page. */
export const startThreeDs = (): ThreeDsData => ({
  required: true,
  authenticationFlow: 'challenge',
  attributes: {},
})

/** Electronic commerce indicators of an authenticated and a failed challenge, per scheme. */
const ECI: Record<string, { pass: string; fail: string }> = {
  visa: { pass: '05', fail: '07' },
  mastercard: { pass: '02', fail: '00' },
}

/**
 * The platform's own 3DS collector result (Events, 3DS attributes: "otherwise filled by the
 * platform's collector"): the ids come from ctx.ids, so seeded runs answer the same values.
 */
export function finishThreeDs(
  ctx: EngineContext,
  data: ThreeDsData | undefined,
  card: StoredCard | undefined,
  outcome: 'pass' | 'fail',
): ThreeDsData {
  const eci = ECI[card?.brand ?? ''] ?? { pass: '05', fail: '07' }
  const pass = outcome === 'pass'
  return {
    ...(data ?? startThreeDs()),
    outcome,
    attributes: {
      threeDSServerTransID: ctx.ids.uuid(),
      dsTransID: ctx.ids.uuid(),
      acsTransID: ctx.ids.uuid(),
      transStatus: pass ? 'Y' : 'N',
      ...(pass ? {} : { transStatusReason: '01' }),
      eci: pass ? eci.pass : eci.fail,
      protocolVersion: '2.2.0',
      authenticationFlow: data?.authenticationFlow ?? 'challenge',
    },
  }
}
