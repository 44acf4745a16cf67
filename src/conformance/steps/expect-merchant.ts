import { sameSignature } from '../../core/signatures/index.js'
import type {
  ScenarioEndpoint,
  ScenarioFieldMatch,
  ScenarioExpectMerchantRequestStep,
  ScenarioExpectNoMerchantRequestStep,
} from '../../generated/types.js'
import { fail, type ScenarioContext, StepSkipped, settle } from '../context.js'
import { type ApiName, apiOfPath, findEndpoint } from '../endpoints.js'
import { interpolate } from '../interpolate.js'
import { checkFields, schemaProblems } from '../match.js'
import type { HostedGateway, ObservedRequest } from '../sandbox-host.js'
import { hashOf, PaymentMemory } from '../signing.js'
import { acceptedAnswer } from '../fault-outcomes.js'
import { describeRequest } from '../observations.js'
import { refundedOnFinancialDayNote } from '../financial-day-note.js'

export const merchantOnly = (ctx: ScenarioContext, kind: string): HostedGateway => {
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

type Alternative = { api?: string; endpoint: ScenarioEndpoint; fields: ScenarioFieldMatch; name?: string }

/** The step's acceptable alternatives: its `any_of`, or its one endpoint and fields. */
function alternativesOf(step: ScenarioExpectMerchantRequestStep): Alternative[] {
  if (step.any_of) return step.any_of.map((a) => ({ ...a, fields: a.fields ?? {} }))
  return [
    {
      ...(step.api ? { api: step.api } : {}),
      endpoint: step.endpoint as ScenarioEndpoint,
      fields: step.fields ?? {},
    },
  ]
}

/** The request's fields against its alternative, or, with several, why it is none of them. */
function fieldProblems(request: ObservedRequest, body: Record<string, unknown>, alternatives: Alternative[]) {
  const candidates = alternatives.filter((a) => matches(request, a.endpoint, a.api))
  const each = candidates.map((a) => ({ a, problems: checkFields(body, a.fields) }))
  if (each.some((e) => !e.problems.length)) return []
  if (each.length === 1) return each[0]?.problems ?? []
  return [
    `it is none of the acceptable alternatives: ${each.map((e, i) => `${e.a.name ?? `(${i + 1})`}: ${e.problems.join('; ')}`).join(' | ')}`,
  ]
}

/** expect.merchant_request: the merchant's next request to this endpoint (or one of the alternatives) is valid and signed. */
export async function expectMerchantRequest(
  step: ScenarioExpectMerchantRequestStep,
  ctx: ScenarioContext,
): Promise<unknown> {
  const hosted = merchantOnly(ctx, 'expect.merchant_request')
  await settle(ctx)
  // The acceptable alternatives (`any_of`), or the one endpoint. Of the merchant's requests to
  // them, the first that has an alternative's fields (a callback's status lookup does not hide
  // the back office's lookup by order), else the first.
  const alternatives = alternativesOf(step).map((a) => ({
    ...a,
    fields: interpolate(a.fields ?? {}, ctx.vars),
  }))
  const fits = (r: ObservedRequest) =>
    alternatives.find(
      (a) => matches(r, a.endpoint, a.api) && !!r.body && !checkFields(r.body, a.fields).length,
    )
  const open = () =>
    hosted.requests.filter((r) => !r.consumed && alternatives.some((a) => matches(r, a.endpoint, a.api)))
  const found = await waitFor(
    hosted,
    () => open().find((r) => fits(r)) ?? open()[0],
    (step.within_seconds ?? 5) * 1000,
  )
  if (!found) {
    const others = hosted.requests.filter((r) => !r.consumed)
    // The back office's last action, when it answered that it sent nothing (`"sent": false` and
    // its reason, docs/conformance.md merchant_action): the cause, in the merchant's own words.
    const last = ctx.hooks.at(-1)
    const hook = last?.startsWith('merchant_action ') && /"sent"\s*:\s*false/.test(last) ? last : undefined
    const where = alternatives
      .map((a) => `${a.endpoint.method ?? 'POST'} ${a.endpoint.path ?? `action ${a.endpoint.action}`}`)
      .filter((w, i, all) => all.indexOf(w) === i)
      .join(' or ')
    // A VOID expected and not sent: a refund on the capture's financial day is named as the cause.
    const voids = alternatives.some(
      (a) => a.endpoint.path === '/api/v1/payment/void' || a.endpoint.action === 'VOID',
    )
    const refunded = voids ? refundedOnFinancialDayNote(ctx) : undefined
    fail(
      `the merchant sent no request to ${where}${hook ? `: its ${hook.replace(/ → /, ' answered ')}` : ''}${refunded ? `: ${refunded}` : ''}; it sent ${others.length ? others.map(describe).join(', ') : 'nothing'} since the last matched one`,
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
  const chosen =
    fits(request) ?? (alternatives.find((a) => matches(request, a.endpoint, a.api)) as Alternative)
  const api = (chosen.api ?? apiOfPath(request.path)) as ApiName
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
  found2.push(...fieldProblems(request, body, alternatives))
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
  const hash = hashOf(
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
