import { sameSignature } from '../../core/signatures/index.js'
import type {
  ScenarioEndpoint,
  ScenarioExpectMerchantOrderStep,
  ScenarioExpectMerchantRequestStep,
  ScenarioExpectNoMerchantRequestStep,
} from '../../generated/types.js'
import { fail, type ScenarioContext, StepSkipped, settle } from '../context.js'
import { type ApiName, apiOfPath, findEndpoint } from '../endpoints.js'
import { interpolate } from '../interpolate.js'
import { checkFields, schemaProblems } from '../match.js'
import type { HostedGateway, ObservedRequest } from '../sandbox-host.js'
import { expectedHash, PaymentMemory } from '../signing.js'
import {
  captureNote,
  changedWithoutCallbackNote,
  lastCallbackNote,
  orderLookupNote,
  pickedPaymentNote,
  earlierPaymentNote,
  refusedRefundNote,
  repeatedCallbackNote,
} from '../booking-source.js'
import { acceptedAnswer } from '../fault-outcomes.js'
import { bookedView, describeRequest, showView } from '../observations.js'
import { payerReturnNote } from '../payer-return.js'
import { refundedOnFinancialDayNote } from '../financial-day-note.js'
import { declinedPayoutNote } from '../payout-note.js'
import { orderNumber } from './order.js'

const merchantOnly = (ctx: ScenarioContext, kind: string): HostedGateway => {
  if (ctx.mode !== 'merchant' || !ctx.hosted)
    throw new StepSkipped(`${kind} observes a merchant integration (merchant mode)`, false)
  return ctx.hosted
}

const describe = (r: ObservedRequest) =>
  `${r.method} ${r.path}${typeof r.body?.action === 'string' ? ` ${r.body.action}` : ''} (HTTP ${r.answer.status})`

function matches(r: ObservedRequest, endpoint: ScenarioEndpoint | undefined, api?: string): boolean {
  if (!endpoint) return true
  if (endpoint.method && r.method !== endpoint.method) return false
  if (endpoint.path && r.path !== endpoint.path) return false
  if (endpoint.action && r.body?.action !== endpoint.action) return false
  if (api && !endpoint.path && apiOfPath(r.path) !== api && !(api === 's2s-card' && r.path === '/v2/post'))
    return false
  return true
}

/** What the kit knows of the merchant's S2S payments, to check the signatures of their follow-ups. */
function memoryOf(hosted: HostedGateway): PaymentMemory {
  const memory = new PaymentMemory()
  for (const r of hosted.requests) {
    if (!r.body) continue
    if (typeof r.body.action === 'string' && r.body.action.startsWith('RECURRING_'))
      memory.learnRecurring(r.body, r.answer.json)
    else memory.learn(r.body, r.answer.json)
  }
  return memory
}

async function waitFor(hosted: HostedGateway, find: () => ObservedRequest | undefined, ms: number) {
  const deadline = Date.now() + ms
  for (;;) {
    const found = find()
    if (found || Date.now() >= deadline) return found
    await new Promise((r) => setTimeout(r, 20))
    await hosted.idle()
  }
}

/** expect.merchant_request: the merchant's next request to this endpoint is valid and signed. */
export async function expectMerchantRequest(
  step: ScenarioExpectMerchantRequestStep,
  ctx: ScenarioContext,
): Promise<unknown> {
  const hosted = merchantOnly(ctx, 'expect.merchant_request')
  await settle(ctx)
  // Of the merchant's requests to this endpoint, the first that has the fields asked for (a
  // callback's status lookup does not hide the back office's lookup by order), else the first.
  const wanted = interpolate(step.fields ?? {}, ctx.vars)
  const open = () => hosted.requests.filter((r) => !r.consumed && matches(r, step.endpoint, step.api))
  const found = await waitFor(
    hosted,
    () => open().find((r) => !!r.body && checkFields(r.body, wanted).length === 0) ?? open()[0],
    (step.within_seconds ?? 5) * 1000,
  )
  const where = step.endpoint.path ?? `action ${step.endpoint.action}`
  if (!found) {
    const others = hosted.requests.filter((r) => !r.consumed)
    // The back office's last action, when it answered that it sent nothing (`"sent": false` and
    // its reason, docs/conformance.md merchant_action): the cause, in the merchant's own words.
    const last = ctx.hooks.at(-1)
    const hook = last?.startsWith('merchant_action ') && /"sent"\s*:\s*false/.test(last) ? last : undefined
    const voids = step.endpoint.path === '/api/v1/payment/void' || step.endpoint.action === 'VOID'
    const refunded = voids ? refundedOnFinancialDayNote(ctx) : undefined
    fail(
      `the merchant sent no request to ${step.endpoint.method ?? 'POST'} ${where}${hook ? `: its ${hook.replace(/ → /, ' answered ')}` : ''}${refunded ? `: ${refunded}` : ''}; it sent ${others.length ? others.map(describe).join(', ') : 'nothing'} since the last matched one`,
    )
  }
  const request = found as ObservedRequest
  request.consumed = true
  if (step.signature === 'invalid' || (step as { accepted?: boolean }).accepted === false)
    request.expectedRefusal = true
  ctx.request = {
    method: request.method,
    url: hosted.baseUrl + request.path,
    headers: pick(request.headers),
    body: request.text,
  }
  if (!request.body)
    fail(
      `the merchant's ${describe(request)} body could not be parsed (content-type ${request.headers['content-type'] ?? 'none'})`,
    )
  const body = request.body as Record<string, unknown>
  const api = (step.api ?? apiOfPath(request.path)) as ApiName
  const action = typeof body.action === 'string' ? body.action : undefined
  const endpoint = findEndpoint(api, { path: request.path, ...(action ? { action } : {}) })
  const schema = step.schema ?? endpoint?.request
  const found2: string[] = []
  if (schema)
    found2.push(
      ...schemaProblems(
        schema,
        dropEmpty(body, api !== 'checkout'),
        api === 'checkout' ? 'dot' : 'bracket',
      ).map((p) => `does not match ${schema}: ${p}`),
    )
  found2.push(
    ...signatureProblems(
      step.signature ?? 'valid',
      api,
      request,
      body,
      ctx.credentials.password,
      memoryOf(hosted),
    ),
  )
  found2.push(...checkFields(body, interpolate(step.fields ?? {}, ctx.vars)))
  if (step.accepted && !acceptedAnswer(request))
    found2.push(`the gateway refused it (HTTP ${request.answer.status}, its answer above)`)
  // The first problem leads the headline; every problem follows.
  if (found2.length)
    fail(`the merchant's ${describeRequest(request)}: ${found2[0]}\n  - ${found2.join('\n  - ')}`)
  return { ...body, __response: request.answer.json ?? request.answer.text }
}

function signatureProblems(
  expected: 'valid' | 'invalid' | 'any',
  api: ApiName,
  request: ObservedRequest,
  body: Record<string, unknown>,
  password: string,
  memory: PaymentMemory,
): string[] {
  if (expected === 'any') return []
  const hash = expectedHash(
    api,
    { path: request.path, ...(typeof body.action === 'string' ? { action: body.action } : {}) },
    body,
    password,
    memory,
  )
  if (hash === undefined) {
    // Token-authenticated endpoints (Hosted Payment Fields, session update) carry no hash.
    return request.path.startsWith('/api/v1/processing/') || request.path === '/api/v1/session/update'
      ? request.headers.token
        ? []
        : ['the Token header is missing (Authentication 2)']
      : []
  }
  const ok = sameSignature(hash, body.hash)
  if (expected === 'valid' && !ok)
    return [
      `hash is not valid: expected ${hash} (docs/rules.md#signatures, signed with the adapter's password), got ${JSON.stringify(body.hash ?? null)}`,
    ]
  if (expected === 'invalid' && ok)
    return ['hash is valid, but this scenario expects the merchant to send a wrong one']
  return []
}

/** The gateway drops empty S2S form values before validating (request-validation.ts); so does the check. */
function dropEmpty(body: Record<string, unknown>, form: boolean): Record<string, unknown> {
  if (!form) return body
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== ''))
}

const pick = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([k]) => k === 'content-type' || k === 'token'))

/** expect.no_merchant_request: the merchant sent nothing (to this endpoint) beyond what was matched. */
export async function expectNoMerchantRequest(
  step: ScenarioExpectNoMerchantRequestStep,
  ctx: ScenarioContext,
): Promise<unknown> {
  const hosted = merchantOnly(ctx, 'expect.no_merchant_request')
  await settle(ctx)
  const extra = hosted.requests.filter((r) => !r.consumed && matches(r, step.endpoint))
  if (extra.length) fail(`the merchant sent ${extra.map(describe).join(', ')}, and no request was expected`)
  return {}
}

/** expect.merchant_order: the merchant's own view of the order (adapter `inspect`). */
export async function expectMerchantOrder(
  step: ScenarioExpectMerchantOrderStep,
  ctx: ScenarioContext,
): Promise<unknown> {
  merchantOnly(ctx, 'expect.merchant_order')
  const merchant = ctx.merchant ?? fail('no merchant adapter')
  if (!merchant.hasInspect)
    fail('the merchant adapter has no inspect hook (docs/conformance.md): this expectation cannot be checked')
  await settle(ctx)
  const orderId = orderNumber(step.order_number, ctx)
  const answer = await merchant.inspect(orderId)
  if (answer.request) ctx.request = answer.request
  if (answer.status < 200 || answer.status > 299 || !answer.body || typeof answer.body !== 'object')
    fail(
      `the merchant's inspect hook answered HTTP ${answer.status} for order ${orderId}: ${answer.text.slice(0, 300)}`,
    )
  // The headline is the first wrong ledger value; the whole view and every difference follow.
  const wrong = checkFields(answer.body, interpolate(step.fields, ctx.vars))
  // Where the wrong value came from, when the kit saw it: a lookup by order_id without size; a
  // payment picked wrongly from a lookup with size; an earlier payment of the order kept; a refund booked from a refused or unanswered
  // request; a partial capture booked as the order's amount; a callback booked twice; for a wrong
  // state, the last report about the order the merchant acknowledged.
  const stateWrong = wrong.some((w) => w.startsWith('$.state:'))
  const source = wrong.length
    ? (payerReturnNote(ctx, orderId, wrong) ??
      declinedPayoutNote(ctx, orderId, wrong) ??
      orderLookupNote(ctx, orderId, answer.body) ??
      pickedPaymentNote(ctx, orderId, wrong) ??
      earlierPaymentNote(ctx, orderId, wrong) ??
      refusedRefundNote(ctx, orderId, wrong) ??
      captureNote(ctx, orderId, wrong) ??
      repeatedCallbackNote(ctx, orderId) ??
      (stateWrong
        ? (changedWithoutCallbackNote(ctx, orderId, wrong) ?? lastCallbackNote(ctx, orderId))
        : undefined))
    : undefined
  if (wrong.length)
    fail(
      `the merchant booked order ${orderId} wrongly: ${wrong[0]}${source ? `: ${source}` : ''}\n  its inspect hook shows it as ${showView(bookedView(answer.body))}:\n  - ${wrong.join('\n  - ')}`,
    )
  return answer.body
}
