import { fail, type ScenarioContext, StepSkipped } from '../context.js'
import { CAPABILITIES, declares } from '../contract.js'
import { payerWaitMs } from '../merchant.js'
import type { ObservedRequest } from '../sandbox-host.js'

/**
 * The payer follows the merchant (docs/conformance.md, start_payment): in merchant mode the kit's
 * payer goes where the merchant's start_payment hook says it sends its payer (`redirect_url`,
 * and for S2S `redirect_method` and `redirect_params`), never straight to the gateway. What the
 * merchant hands over is compared with the gateway's own answer, field by field, and then the
 * payer actually opens it.
 */

type Params = Record<string, string>

/** `{MD: "…"}` or `[{name: "MD", value: "…"}]` (v2) → `{MD: "…"}`. */
function paramsOf(value: unknown): Params | undefined {
  if (value === undefined || value === null || value === '') return undefined
  if (Array.isArray(value))
    return Object.fromEntries(
      value
        .filter((p): p is { name: unknown; value: unknown } => !!p && typeof p === 'object' && 'name' in p)
        .map((p) => [String(p.name), String(p.value ?? '')]),
    )
  if (typeof value === 'object')
    return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, String(v ?? '')]))
  return undefined
}

/** The gateway's answer that sent a payer somewhere: the merchant's latest payment request with a redirect_url. */
function gatewayRedirect(ctx: ScenarioContext): ObservedRequest | undefined {
  return ctx.hosted?.requests
    .filter((r) => {
      const json = r.answer.json as Record<string, unknown> | undefined
      return !!json && typeof json === 'object' && typeof json.redirect_url === 'string'
    })
    .at(-1)
}

/** `, and result "redirect" (3DS): the payment waits for its payer, it is not declined`. */
function waitingNote(answer: Record<string, unknown>): string {
  const result = typeof answer.result === 'string' ? answer.result : undefined
  if (result?.toLowerCase() !== 'redirect') return ''
  const step = String(answer.status ?? '').toLowerCase() === 'redirect' ? 'a redirect' : '3DS'
  return ` and result ${JSON.stringify(result)} (${step}): the payment waits for its payer, it is not declined`
}

/** `; it tells its frontend status "declined"`, when the merchant's start_payment answer says so. */
function declinedNote(ctx: ScenarioContext): string {
  const status = ctx.handoff?.status
  return typeof status === 'string' && /^declined?$/i.test(status)
    ? `; it tells its frontend status ${JSON.stringify(status)}`
    : ''
}

/** Checks what the merchant hands its payer against the gateway's answer, then opens it. */
export async function followMerchant(ctx: ScenarioContext): Promise<void> {
  if (ctx.mode !== 'merchant' || !ctx.hosted) return
  const source = gatewayRedirect(ctx)
  if (!source) return
  const answer = source.answer.json as Record<string, unknown>
  const handed = ctx.handoff ?? {}
  const api = ctx.lastApi ?? 'checkout'
  // An S2S payer follows redirect_method and redirect_params, which only contract 2 hands over.
  if (api !== 'checkout' && !declares(ctx.merchant?.declaration, 'handoff'))
    throw new StepSkipped(`not run: your adapter declares no ${CAPABILITIES.handoff.what}`)
  const url = String(answer.redirect_url)
  const where = `the gateway answered its ${source.method} ${source.path}${typeof source.body?.action === 'string' ? ` ${source.body.action}` : ''} with redirect_url ${url}`
  if (typeof handed.redirect_url !== 'string' || !handed.redirect_url)
    fail(
      `the merchant hands its payer no redirect_url (its start_payment answer has none${declinedNote(ctx)}), but ${where}${waitingNote(answer)}: the payer has nowhere to go`,
      'Events',
    )
  const problems: string[] = []
  if (handed.redirect_url !== url)
    problems.push(`redirect_url: the merchant sends its payer to ${handed.redirect_url}, not to ${url}`)
  const method = String(handed.redirect_method ?? 'GET').toUpperCase()
  const wanted = api === 'checkout' ? 'GET' : String(answer.redirect_method ?? 'GET').toUpperCase()
  if (method !== wanted)
    problems.push(
      `redirect_method: the merchant sends its payer with ${method}${handed.redirect_method === undefined ? ' (it reported no redirect_method: a link or a browser redirect is a GET)' : ''}, where the gateway's redirect_method is ${wanted}`,
    )
  const gatewayParams = paramsOf(answer.redirect_params) ?? {}
  const handedParams = paramsOf(handed.redirect_params) ?? {}
  const missing = Object.keys(gatewayParams).filter((k) => !(k in handedParams))
  const changed = Object.keys(gatewayParams).filter(
    (k) => k in handedParams && handedParams[k] !== gatewayParams[k],
  )
  if (missing.length)
    problems.push(
      `redirect_params: the merchant drops ${missing.join(', ')}, which the gateway's redirect_params carry`,
    )
  if (changed.length)
    problems.push(
      `redirect_params: the merchant changes ${changed.join(', ')} (${changed.map((k) => `${JSON.stringify(handedParams[k])} for ${JSON.stringify(gatewayParams[k])}`).join(', ')})`,
    )
  if (problems.length)
    fail(
      `the payer follows the merchant: ${problems.join('; ')}\n  (${where}; the payer's browser must be sent there with the redirect_method and every redirect_params field as the gateway answered them: docs/conformance.md, start_payment)`,
      'Events',
    )
  // S2S: the payer opens what the merchant handed it, as a browser would (a Checkout payer is
  // already on the hosted page the merchant's redirect_url names: payer.card paid there).
  if (api === 'checkout') return
  const body = method === 'GET' ? undefined : new URLSearchParams(handedParams).toString()
  let opened: Response
  try {
    opened = await fetch(handed.redirect_url as string, {
      method,
      redirect: 'manual',
      ...(body !== undefined
        ? { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }
        : {}),
      signal: AbortSignal.timeout(payerWaitMs(ctx.merchant, 15_000)),
    })
    await opened.arrayBuffer()
  } catch (error) {
    return fail(
      `the payer could not open ${method} ${handed.redirect_url}, which the merchant handed it: ${(error as Error).message}`,
      'Events',
    )
  }
  if (opened.status >= 400)
    fail(
      `the payer opened ${method} ${handed.redirect_url}, which the merchant handed it, and got HTTP ${opened.status}`,
      'Events',
    )
}
