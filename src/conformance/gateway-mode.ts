import type { GatewayTarget } from './scenario-context.js'

/** The external gateway cannot be reached at all: an infrastructure error (exit 3). */
export class GatewayUnreachable extends Error {}

/**
 * `--gateway URL --key K --password P`: the gateway-facing scenarios run against that gateway.
 * A paysandbox (it answers GET /sandbox/health) also lets the kit act as the payer (Hosted Payment
 * Fields, APM control) and move the clock; against any other gateway, steps that need those are
 * reported skipped ("needs payer control"), never passed.
 */
export async function probeGateway(
  url: string,
  credentials: GatewayTarget['credentials'],
  controlToken?: string,
): Promise<GatewayTarget> {
  const base = url.replace(/\/+$/, '')
  let health: Response
  try {
    health = await fetch(`${base}/sandbox/health`, { signal: AbortSignal.timeout(5000) })
    await health.arrayBuffer()
  } catch (error) {
    const cause = (error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message
    throw new GatewayUnreachable(`the gateway at ${base} cannot be reached (${cause})`)
  }
  return {
    url: base,
    credentials,
    paysandbox: health.status === 200,
    ...(controlToken ? { controlToken } : {}),
  }
}
