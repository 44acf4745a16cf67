import type { ScenarioMerchantActionStep, ScenarioMerchantStartStep } from '../../generated/types.js'
import { fail, type ScenarioContext, StepSkipped, settle } from '../context.js'
import { CAPABILITIES, type CapabilityId, declares, unmet } from '../contract.js'
import { type ApiName, findEndpoint, responseSchemaFor, S2S_PATH } from '../endpoints.js'
import { sendToGateway } from '../http.js'
import { interpolate } from '../interpolate.js'
import type { MerchantClient } from '../merchant.js'
import { checkAnswer, checkFields } from '../match.js'
import { checkoutHash, s2sApmHash, s2sCardHash } from '../signing.js'
import { problems } from './assert.js'
import { orderNumber } from './order.js'
import { cardFor, s2sCardFields } from './cards.js'

type Order = { number: string; amount: string; currency: string; description: string }

const PAYOUTS = new Set(['credit', 'CREDIT2CARD'])

/** The kit calls nothing the adapter's contract does not include (profile.ts skips such scenarios first). */
function guard(merchant: MerchantClient, id: CapabilityId) {
  const why = merchant.declaration
    ? unmet({ id, version: CAPABILITIES[id].since }, merchant.declaration)
    : undefined
  if (why) throw new StepSkipped(`not run: ${why.reason}`)
}

/** merchant.start: the merchant (merchant mode) or the kit as the merchant (gateway mode) starts a payment. */
export async function merchantStart(step: ScenarioMerchantStartStep, ctx: ScenarioContext): Promise<unknown> {
  const given = interpolate(step.order, ctx.vars)
  const order: Order = {
    number: given.number ?? `${ctx.loaded.slug}-${ctx.vars.run_id}-${++ctx.orders}`,
    amount: given.amount,
    currency: given.currency,
    description: given.description ?? `Conformance order (${ctx.loaded.slug})`,
  }
  const fields = interpolate((step.fields ?? {}) as Record<string, unknown>, ctx.vars)
  ctx.lastApi = step.api
  ctx.vars.order_number = order.number
  ctx.orderAmounts[order.number] = `${order.amount} ${order.currency}`
  const answer =
    ctx.mode === 'merchant'
      ? await startAtMerchant(step, ctx, order, fields)
      : await startAtGateway(step, ctx, order, fields)
  const body = (answer && typeof answer === 'object' ? answer : {}) as Record<string, unknown>
  const token = remember(ctx, step, order, body)
  // The Checkout session's page token too, so a scenario can pay an earlier session (`payer.card` `token`).
  return { ...body, order, ...(token && body.token === undefined ? { token } : {}) }
}

function remember(
  ctx: ScenarioContext,
  step: ScenarioMerchantStartStep,
  order: Order,
  body: Record<string, unknown>,
): string | undefined {
  ctx.vars.order_number = order.number
  for (const name of ['payment_id', 'trans_id', 'redirect_url'])
    if (typeof body[name] === 'string') ctx.vars[name] = body[name]
  const token =
    typeof body.token === 'string'
      ? body.token
      : typeof body.redirect_url === 'string'
        ? /\/auth\/([^/?#]+)/.exec(body.redirect_url)?.[1]
        : undefined
  if (token && step.api === 'checkout') {
    ctx.vars.token = token
    ctx.sessions.push({ token, operation: step.operation ?? 'purchase' })
    return token
  }
  return undefined
}

async function startAtMerchant(
  step: ScenarioMerchantStartStep,
  ctx: ScenarioContext,
  order: Order,
  fields: Record<string, unknown>,
): Promise<unknown> {
  const merchant = ctx.merchant ?? fail('no merchant adapter: run with --merchant merchant.json')
  const flow = step.api === 'checkout' && step.hosted_fields ? 'hpf' : step.api
  if (step.operation && PAYOUTS.has(step.operation)) guard(merchant, 'payouts')
  const card = cardFor(step.outcome, step.card)
  const payload: Record<string, unknown> = {
    gateway_url: ctx.gatewayUrl,
    scenario: ctx.loaded.slug,
    flow,
    operation: step.operation ?? (step.api === 'checkout' ? 'purchase' : 'SALE'),
    order,
    ...(step.api === 'checkout' ? { methods: step.methods ?? ['card'] } : {}),
    auth: fields.auth === true || fields.auth === 'Y',
    recurring_init: fields.recurring_init === true || fields.recurring_init === 'Y',
    req_token: fields.req_token === true || fields.req_token === 'Y',
    ...(card && (flow === 's2s-card' || flow === 'hpf' || step.operation === 'credit')
      ? {
          card: {
            number: card.number,
            exp_month: card.exp_month,
            exp_year: card.exp_year,
            cvv2: card.cvv ?? '123',
          },
        }
      : {}),
    ...(flow === 's2s-apm'
      ? {
          brand: interpolate(step.brand ?? 'vcard', ctx.vars),
          identifier: interpolate(step.identifier ?? 'success@gmail.com', ctx.vars),
        }
      : {}),
    return_url_base: ctx.returnUrl,
  }
  ctx.asked = {
    ...ctx.asked,
    [order.number]: {
      flags: {
        auth: payload.auth === true,
        recurring_init: payload.recurring_init === true,
        req_token: payload.req_token === true,
      },
      amounts: [...(ctx.asked?.[order.number]?.amounts ?? []), `${order.amount} ${order.currency}`],
    },
  }
  const answer = await merchant.startPayment(payload, ctx.holdMs)
  if (answer.request) ctx.request = answer.request
  const handed = (answer.body && typeof answer.body === 'object' ? answer.body : {}) as Record<
    string,
    unknown
  >
  // Contract 1 hands over redirect_url alone: the kit reads redirect_method and redirect_params
  // only from an adapter that declares them (docs/conformance.md, The merchant contract).
  ctx.handoff = {
    redirect_url: handed.redirect_url,
    status: handed.status,
    ...(declares(merchant.declaration, 'handoff')
      ? { redirect_method: handed.redirect_method, redirect_params: handed.redirect_params }
      : {}),
  }
  const told = { ...ctx.told }
  if (typeof handed.status === 'string') told[order.number] = handed.status
  else delete told[order.number]
  ctx.told = told
  ctx.hooks.push(
    `start_payment (${payload.flow} ${payload.operation}) → HTTP ${answer.status} ${answer.text.slice(0, 200)}`,
  )
  await settle(ctx)
  if (answer.status < 200 || answer.status > 299)
    fail(`the merchant's start_payment hook answered HTTP ${answer.status}: ${answer.text.slice(0, 500)}`)
  if (!answer.body || typeof answer.body !== 'object')
    fail(`the merchant's start_payment hook did not answer a JSON object: ${answer.text.slice(0, 200)}`)
  problems('the merchant answered', [
    ...checkFields(answer.body, interpolate(step.expect?.fields ?? {}, ctx.vars)),
    ...(step.expect?.present ?? []).flatMap((p) => checkFields(answer.body, { [p]: { $exists: true } })),
  ])
  return answer.body
}

async function startAtGateway(
  step: ScenarioMerchantStartStep,
  ctx: ScenarioContext,
  order: Order,
  fields: Record<string, unknown>,
): Promise<unknown> {
  const { merchant_key: key, password } = ctx.credentials
  const api = step.api as ApiName
  let answer: Awaited<ReturnType<typeof sendToGateway>>
  let path: string
  let action: string | undefined
  if (api === 'checkout') {
    path = step.hosted_fields ? '/api/v1/session/token' : '/api/v1/session'
    const body: Record<string, unknown> = {
      merchant_key: key,
      operation: step.operation ?? 'purchase',
      methods: step.methods ?? ['card'],
      order,
      success_url: `${ctx.returnUrl}/success`,
      cancel_url: `${ctx.returnUrl}/cancel`,
      error_url: `${ctx.returnUrl}/error`,
      expiry_url: `${ctx.returnUrl}/expiry`,
      // docs/rules.md#hosted-payment-fields: the session-token request carries return_url (the payer comes back after 3DS).
      ...(step.hosted_fields ? { return_url: `${ctx.returnUrl}/return` } : {}),
      ...fields,
    }
    body.hash ??= checkoutHash(path, body, password)
    answer = await sendToGateway(ctx, { method: 'POST', path, json: body })
  } else {
    action = step.operation ?? 'SALE'
    path = S2S_PATH[api]
    const base = {
      action,
      client_key: key,
      order_id: order.number,
      order_amount: order.amount,
      order_currency: order.currency,
      order_description: order.description,
    }
    let body: Record<string, unknown>
    if (api === 's2s-card') {
      const card = cardFor(step.outcome ?? 'success', step.card)
      body = {
        ...base,
        ...(card ? s2sCardFields(card) : {}),
        term_url_3ds: `${ctx.returnUrl}/3ds`,
        ...fields,
      }
      body.hash ??= s2sCardHash(action, body, password, ctx.memory)
    } else {
      body = {
        ...base,
        brand: interpolate(step.brand ?? 'vcard', ctx.vars),
        identifier: interpolate(step.identifier ?? 'success@gmail.com', ctx.vars),
        payer_ip: '203.0.113.10',
        return_url: `${ctx.returnUrl}/apm`,
        ...fields,
      }
      body.hash ??= s2sApmHash(action, body, password)
    }
    if (ctx.callbackUrl) body.callback_url ??= ctx.callbackUrl
    answer = await sendToGateway(ctx, { method: 'POST', path, form: body })
    ctx.memory.learn(body, answer.body)
  }
  await settle(ctx)
  const endpoint = findEndpoint(api, { path, ...(action ? { action } : {}) })
  problems(
    `the gateway's answer to ${action ?? path}`,
    checkAnswer(answer, interpolate(step.expect, ctx.vars), responseSchemaFor(endpoint, path)),
  )
  return answer.body
}

/** merchant.action: the merchant's back office acts on an order through the gateway. */
export async function merchantAction(
  step: ScenarioMerchantActionStep,
  ctx: ScenarioContext,
): Promise<unknown> {
  if (ctx.mode !== 'merchant')
    throw new StepSkipped('merchant.action drives a merchant integration (merchant mode)', false)
  const merchant = ctx.merchant ?? fail('no merchant adapter')
  if (!merchant.hasAction) throw new StepSkipped('not run: your adapter declares no `merchant_action` hook')
  if (Object.hasOwn(CAPABILITIES, step.action)) guard(merchant, step.action as CapabilityId)
  const orderId = orderNumber(step.order_number, ctx)
  const answer = await merchant.action(
    {
      gateway_url: ctx.gatewayUrl,
      scenario: ctx.loaded.slug,
      action: step.action,
      order_id: orderId,
      ...(step.amount ? { amount: interpolate(step.amount, ctx.vars) } : {}),
    },
    ctx.holdMs,
  )
  if (answer.request) ctx.request = answer.request
  ctx.hooks.push(
    `merchant_action ${step.action}${step.amount ? ` ${interpolate(step.amount, ctx.vars)}` : ''} → HTTP ${answer.status} ${answer.text.slice(0, 200)}`,
  )
  await settle(ctx)
  if (answer.status < 200 || answer.status > 299)
    fail(`the merchant's merchant_action hook answered HTTP ${answer.status}: ${answer.text.slice(0, 500)}`)
  problems(
    `the merchant's answer to ${step.action}`,
    checkFields(answer.body, interpolate(step.expect?.fields ?? {}, ctx.vars)),
  )
  return answer.body
}
