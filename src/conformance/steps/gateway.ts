import type { ScenarioGatewayCallStep } from '../../generated/types.js'
import { fail, type ScenarioContext, StepSkipped, settle } from '../context.js'
import { type ApiName, findEndpoint, responseSchemaFor, S2S_PATH } from '../endpoints.js'
import { type HttpAnswer, sendToGateway } from '../http.js'
import { interpolate } from '../interpolate.js'
import { checkAnswer } from '../match.js'
import { ruleHeader } from '../../core/engine/refusal.js'
import { RULES } from '../../core/engine/rules.js'
import { checkoutHash, s2sApmHash, s2sCardHash, UnsignableError } from '../signing.js'
import { describeRequest } from '../observations.js'
import { KIT_REQUEST_HEADER } from '../sandbox-host.js'
import { problems } from './assert.js'

const PAYMENT_ACTIONS = new Set(['SALE', 'AUTH', 'DEBIT', 'CARD2CARD', 'CREDIT2CARD'])
const RECURRING_ACTIONS = new Set(['RECURRING_SALE', 'RECURRING_DEBIT'])

/** gateway.call: the kit, as the merchant, sends one request and judges the answer. */
export async function gatewayCall(step: ScenarioGatewayCallStep, ctx: ScenarioContext): Promise<unknown> {
  const asThirdParty = ctx.mode === 'merchant' && step.in_merchant_mode === true
  if (ctx.mode === 'merchant' && !asThirdParty)
    throw new StepSkipped('gateway.call checks a gateway (gateway mode)', false)
  const method = step.method ?? 'POST'
  const headers = {
    ...(interpolate(step.headers ?? {}, ctx.vars) as Record<string, string>),
    // Merchant mode: the kit's own request is not one the merchant sent (the request log skips it).
    ...(asThirdParty ? { [KIT_REQUEST_HEADER]: '1' } : {}),
  }
  const given = interpolate((step.body ?? {}) as Record<string, unknown>, ctx.vars)
  const { merchant_key: key, password } = ctx.credentials

  if (step.api === 'sandbox') {
    if (!ctx.hosted && !ctx.controlApi)
      throw new StepSkipped('skipped: the control API under /sandbox exists on a paysandbox only')
    const path = interpolate(step.path ?? '/', ctx.vars)
    const answer = await sendToGateway(ctx, {
      method,
      path,
      headers,
      ...(method === 'GET' ? {} : { json: given }),
    })
    await settle(ctx)
    problems(
      `the answer to ${method} ${path}`,
      judged(answer, checkAnswer(answer, interpolate(step.expect, ctx.vars), undefined)),
    )
    return answer.body
  }

  const api = step.api as ApiName
  if (api === 'checkout') {
    const path = interpolate(step.path ?? '/', ctx.vars)
    const body = { ...given }
    if (step.sign !== false && !('merchant_key' in body) && needsKey(path)) body.merchant_key = key
    if (step.sign !== false && !('hash' in body)) {
      const hash = checkoutHash(path, body, password)
      if (hash) body.hash = hash
    }
    const answer = await sendToGateway(ctx, { method, path, headers, json: body })
    if (asThirdParty) ctx.kitRequests.push(describeKitRequest(method, path, body, answer))
    await settle(ctx)
    const schema = responseSchemaFor(findEndpoint(api, { path }), path)
    problems(
      `the answer to ${method} ${path}`,
      judged(answer, checkAnswer(answer, interpolate(step.expect, ctx.vars), schema)),
    )
    return answer.body
  }

  const action = interpolate(step.action ?? '', ctx.vars)
  const path = step.path ? interpolate(step.path, ctx.vars) : S2S_PATH[api]
  const body: Record<string, unknown> = { action, ...given }
  if (step.sign !== false && !('client_key' in body)) body.client_key = key
  if (step.sign !== false && !('hash' in body)) {
    let hash: string | undefined
    try {
      hash =
        api === 's2s-card'
          ? s2sCardHash(action, body, password, ctx.memory)
          : s2sApmHash(action, body, password)
    } catch (error) {
      if (error instanceof UnsignableError) fail(error.message)
      throw error
    }
    if (hash) body.hash = hash
  }
  if (
    ctx.callbackUrl &&
    (PAYMENT_ACTIONS.has(action) || RECURRING_ACTIONS.has(action)) &&
    step.sign !== false
  )
    body.callback_url ??= ctx.callbackUrl
  const answer = await sendToGateway(ctx, { method, path, headers, form: body })
  if (asThirdParty) ctx.kitRequests.push(describeKitRequest(method, path, body, answer))
  if (PAYMENT_ACTIONS.has(action) || (api === 's2s-apm' && action !== 'CREDITVOID'))
    ctx.memory.learn(body, answer.body)
  if (RECURRING_ACTIONS.has(action)) ctx.memory.learnRecurring(body, answer.body)
  await settle(ctx)
  const schema = responseSchemaFor(findEndpoint(api, { action }), path)
  problems(
    `the answer to ${action}`,
    judged(answer, checkAnswer(answer, interpolate(step.expect, ctx.vars), schema)),
  )
  return answer.body
}

/** The problems of an answer, and the rule the gateway named when it refused it (docs/rules.md#rule-book). */
const judged = ({ refusal }: HttpAnswer, found: string[]): string[] =>
  found.length && refusal
    ? [
        ...found,
        `the gateway's rule: ${ruleHeader(refusal)} (${RULES[refusal.rule].title}: ${RULES[refusal.rule].says})`,
      ]
    : found

/** Endpoints authenticated by the `Token` header carry no merchant_key. */
const needsKey = (path: string) =>
  !path.startsWith('/api/v1/processing/') && path !== '/api/v1/session/update'

/** A request the kit sent with the merchant's key, described as the merchant's own are. */
function describeKitRequest(
  method: string,
  path: string,
  body: Record<string, unknown>,
  answer: { status: number; body: unknown; text: string },
): string {
  return describeRequest({
    seq: 0,
    method,
    path,
    headers: {},
    text: '',
    body,
    answer: { status: answer.status, text: answer.text, json: answer.body },
    consumed: true,
  })
}
