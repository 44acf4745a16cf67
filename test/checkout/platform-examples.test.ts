import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { checkoutSessionModule } from '../../src/core/checkout/module.js'
import { checkoutOperationsModule } from '../../src/core/checkout/operations/module.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { hostedPagesModule } from '../../src/pages/module.js'
import { createTestGateway, type TestGateway } from '../helpers/engine.js'
import { configWith, DEMO } from './session-helpers.js'

// docs/rules.md follows the platform's documents; this suite replays the
// examples those documents show (request bodies and the answers they print), written down in
// fixtures/platform/checkout-examples.json with the source of each.

interface Example {
  name: string
  source: string
  given?: 'settled-payment' | 'collected-hpf-session'
  request: {
    path: string
    sign?: 'session' | 'amount-operation' | 'payment-operation' | 'credit'
    token?: string
    body: Record<string, unknown>
  }
  answer: {
    status: number
    exact?: Record<string, unknown>
    match?: Record<string, unknown>
    keys?: string[]
    warnings?: string[]
  }
}

const examples = (
  JSON.parse(
    readFileSync(new URL('../../fixtures/platform/checkout-examples.json', import.meta.url), 'utf8'),
  ) as {
    examples: Example[]
  }
).examples

const setup = () =>
  createTestGateway(
    [checkoutSessionModule, checkoutOperationsModule, hostedPagesModule],
    configWith([{ id: 'demo-mid' }]),
  )

const ORDER = { number: 'given-1', amount: '100.99', currency: 'USD', description: 'Important gift' }

/** A Hosted Payment Fields session whose fields have sent the test card (docs/rules.md#test-cards: 01 succeeds). */
async function collectedSession(t: TestGateway): Promise<string> {
  const created = await t.call('POST', '/api/v1/session/token', {
    merchant_key: DEMO.key,
    operation: 'purchase',
    methods: ['card'],
    order: ORDER,
    return_url: 'https://example.domain.com/return',
    hash: checkoutSignatures.session(ORDER, DEMO.password),
  })
  const token = String(created.body.token)
  const card = {
    card_number: '4111111111111111',
    card_exp_month: '01',
    card_exp_year: '2038',
    card_cvv2: '123',
  }
  const collected = await t.call('POST', `/sdk/hosted-fields/${token}/collect`, card)
  if (collected.status !== 200) throw new Error(collected.raw)
  return token
}

async function settledPayment(t: TestGateway): Promise<string> {
  const token = await collectedSession(t)
  const paid = await t.call(
    'POST',
    '/api/v1/processing/purchase/card',
    { with_hosted_fields: true, name: 'John Doe' },
    { Token: token },
  )
  if (paid.status !== 200) throw new Error(paid.raw)
  return String(paid.body.payment_id)
}

/** `<merchant_key>`, `<payment_id>`, `<token>` in a fixture value, replaced by this run's values. */
function fill(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') return vars[value] ?? value
  if (Array.isArray(value)) return value.map((v) => fill(v, vars))
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)]))
  return value
}

function sign(kind: Example['request']['sign'], body: Record<string, unknown>): string | undefined {
  const order = body.order as Record<string, string> | undefined
  if (kind === 'session' && order) return checkoutSignatures.session(order, DEMO.password)
  if (kind === 'amount-operation')
    return checkoutSignatures.amountOperation(String(body.payment_id), body.amount as string, DEMO.password)
  if (kind === 'payment-operation')
    return checkoutSignatures.paymentOperation(String(body.payment_id), DEMO.password)
  if (kind === 'credit')
    return checkoutSignatures.credit(
      body as { order_id: string; order_amount: string; order_currency: string; order_description: string },
      DEMO.password,
    )
  return undefined
}

const PATTERNS: Record<string, RegExp> = {
  '<uuid>': /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  '<token>': /^[0-9A-Za-z]{16,}$/,
  '<url>': /^https?:\/\/\S+$/,
  '<date>': /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/,
  '<any>': /^[\s\S]*$/,
}

/** The documented shape: special strings as patterns, everything else as written. */
function expected(value: unknown): unknown {
  if (typeof value === 'string' && PATTERNS[value]) return expect.stringMatching(PATTERNS[value])
  if (Array.isArray(value)) return value.map(expected)
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expected(v)]))
  return value
}

describe("the platform's documented Checkout examples, replayed", () => {
  it.each(examples.map((e) => [e.name, e] as const))('%s', async (_name, example) => {
    const t = setup()
    const vars: Record<string, string> = { '<merchant_key>': DEMO.key }
    if (example.given === 'settled-payment') vars['<payment_id>'] = await settledPayment(t)
    if (example.given === 'collected-hpf-session') vars['<token>'] = await collectedSession(t)
    const body = fill(example.request.body, vars) as Record<string, unknown>
    const hash = sign(example.request.sign, body)
    if (hash) body.hash = hash
    const token = example.request.token ? String(fill(example.request.token, vars)) : undefined
    const response = await t.gateway.handle({
      method: 'POST',
      path: example.request.path,
      query: {},
      headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
      body: new TextEncoder().encode(JSON.stringify(body)),
    })
    const answer = JSON.parse(response.body) as Record<string, unknown>
    expect({ status: response.status, answer }, example.source).toMatchObject({
      status: example.answer.status,
      ...(example.answer.match ? { answer: expected(fill(example.answer.match, vars)) } : {}),
    })
    if (example.answer.exact) expect(answer).toEqual(expected(fill(example.answer.exact, vars)))
    if (example.answer.keys) expect(Object.keys(answer)).toEqual(example.answer.keys)
    if (example.answer.warnings)
      expect((response.warnings ?? []).map((w) => w.split(':', 1)[0])).toEqual(example.answer.warnings)
  })
})
