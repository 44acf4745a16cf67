import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join, resolve } from 'node:path'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createExpressApp } from '../../src/adapters/express/app.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import type { EngineEvent } from '../../src/core/engine/events.js'
import { transportRefusal } from '../../src/core/engine/gateway.js'
import { parseRuleHeader } from '../../src/core/engine/refusal.js'
import { isRuleId } from '../../src/core/engine/rules.js'
import type { Logger } from '../../src/core/ports/logger.js'
import { declaredSignings } from '../../src/core/signing/declared.js'
import { checkoutSignatures, s2sCardSignatures } from '../../src/core/signatures/index.js'
import { createSandbox } from '../../src/library/create-sandbox.js'
import { createTestGateway, demoConfig, type TestGateway } from '../helpers/engine.js'
import { bodies, MERCHANT, PASSWORD, putAuthorized, putPayment } from '../helpers/payments.js'

/**
 * docs/rules.md#rule-book: every refusal the gateway answers carries a `Sandbox-Rule` header whose
 * anchor exists in docs/rules.md and in the rule table; the platform's body is unchanged. Bad
 * requests are driven across every route and S2S action of the assembly: bad JSON, schema
 * errors, unknown content types, bad hashes, unknown ids, forbidden states, limits, the control
 * guard, hosted pages.
 */

const ROOT = resolve(import.meta.dirname, '../..')
const anchors = new Set(
  [...readFileSync(join(ROOT, 'docs/rules.md'), 'utf8').matchAll(/<a id="([a-z0-9-]+)"><\/a>/g)].map(
    (m) => m[1],
  ),
)

type Answer = Awaited<ReturnType<TestGateway['call']>>

/** The rule of a refused answer, checked: the header is there and names an anchor of the rule book. */
function ruleOf(label: string, answer: Answer): string {
  expect(answer.status, `${label}: a user's request is never a 500`).toBeLessThan(500)
  const header = answer.headers['sandbox-rule']
  expect(header, `${label}: HTTP ${answer.status} without Sandbox-Rule`).toBeDefined()
  const refusal = parseRuleHeader(header)
  expect(refusal, `${label}: ${header}`).toBeDefined()
  const rule = refusal?.rule ?? ''
  expect(anchors.has(rule) && isRuleId(rule), `${label}: ${header} names no rule of docs/rules.md`).toBe(true)
  return rule
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()

describe('no refusal leaves the gateway without its rule', () => {
  it('bad bodies, content types and unknown ids on every route of the assembly', async () => {
    const t = createTestGateway(DEFAULT_MODULES, undefined, { checkResponses: false })
    const seen = new Set<string>()
    let refused = 0
    const check = (label: string, answer: Answer) => {
      if (answer.status < 400) return
      refused += 1
      seen.add(ruleOf(label, answer))
    }
    for (const route of t.gateway.routes()) {
      const [method = 'GET', pattern = '/'] = route.split(' ')
      const path = pattern.replace(/:[a-zA-Z]+/g, 'no-such-id')
      check(`${route} (no body)`, await t.call(method, path))
      if (method === 'GET') continue
      check(`${route} {}`, await t.call(method, path, {}))
      check(
        `${route} malformed JSON`,
        await t.call(method, path, '{"a":', { 'content-type': 'application/json' }),
      )
      check(`${route} text/xml`, await t.call(method, path, '<a/>', { 'content-type': 'text/xml' }))
      check(`${route} form`, await t.call(method, path, 'a=b'))
      check(
        `${route} nested too deep`,
        await t.call(method, path, `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`, {
          'content-type': 'application/json',
        }),
      )
      check(
        `${route} over the body limit`,
        await t.call(method, path, 'a=b', { 'content-length': String(2 * 1024 * 1024) }),
      )
    }
    // Every S2S action: an unknown merchant, a known one with nothing else, and a wrong hash.
    for (const [api, path] of [
      ['s2s-card', '/post'],
      ['s2s-apm', '/post-va'],
    ] as const) {
      for (const action of [...declaredSignings(api).keys(), 'NO_SUCH_ACTION']) {
        check(
          `${path} ${action} unknown key`,
          await t.call('POST', path, form({ action, client_key: 'nobody' })),
        )
        check(`${path} ${action} bare`, await t.call('POST', path, form({ action, client_key: MERCHANT })))
        check(
          `${path} ${action} wrong hash`,
          await t.call(
            'POST',
            path,
            form({ action, client_key: MERCHANT, trans_id: 'no-such', hash: 'f'.repeat(32) }),
          ),
        )
      }
    }
    // The control guard: from another origin, as a form, for another host.
    check('guard: cross-origin', await t.call('POST', '/sandbox/reset', {}, { origin: 'https://evil.test' }))
    check('guard: form', await t.call('POST', '/sandbox/reset', 'a=b'))
    check('guard: host', await t.call('GET', '/sandbox/payments', undefined, { host: 'evil.test' }))
    check('path: an encoded slash', await t.call('GET', '/api%2Fv1/session'))
    expect(refused).toBeGreaterThan(300)
    for (const rule of [
      'endpoints',
      'required-fields',
      'request-limits',
      'control-guard',
      'request-paths',
      'not-found',
      'page-token',
    ])
      expect([...seen], rule).toContain(rule)
    // Several hundred requests through the whole assembly: time enough on a loaded machine.
  }, 120_000)
})

describe('the rule of each kind of refusal', () => {
  it('a wrong hash: the formula of the request and the names of its inputs, never a value', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const order = { number: 'o-1', amount: '10.00', currency: 'EUR', description: 'Order o-1' }
    const body = {
      merchant_key: MERCHANT,
      operation: 'purchase',
      order,
      success_url: 'https://shop.test/ok',
      hash: checkoutSignatures.session(order, 'not-the-password'),
    }
    const events: EngineEvent[] = []
    t.gateway.ctx.events.subscribe((e) => events.push(e))
    const answer = await t.call('POST', '/api/v1/session', body)
    expect(answer.status).toBe(400)
    // The platform's body, unchanged.
    expect(answer.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'hash: Hash is not valid.' }],
    })
    expect(answer.headers['sandbox-rule']).toBe(
      'docs/rules.md#checkout-signatures; field=hash; formula=checkout.session',
    )
    const event = events.find((e) => e.type === 'refusal')
    expect(event).toEqual({
      type: 'refusal',
      method: 'POST',
      path: '/api/v1/session',
      merchant_key: MERCHANT,
      status: 400,
      refusal: {
        rule: 'checkout-signatures',
        fields: ['hash'],
        formula: 'checkout.session',
        inputs: ['order.number', 'order.amount', 'order.currency', 'order.description', 'password'],
        row: 'CHECKOUT_HASH_INVALID',
      },
      at: t.clock.now(),
    })
    expect(JSON.stringify(event)).not.toContain(PASSWORD)
  })

  it('an S2S follow-up signed wrongly names Formula 2 over the original payment, with the action', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const payment = putPayment(t, { api: 's2s-card', payer: { payer_email: 'doe@example.com' } })
    const events: EngineEvent[] = []
    t.gateway.ctx.events.subscribe((e) => events.push(e))
    const answer = await t.call(
      'POST',
      '/post',
      form({ action: 'GET_TRANS_STATUS', client_key: MERCHANT, trans_id: payment.id, hash: 'f'.repeat(32) }),
    )
    expect(answer.status).toBe(401)
    expect(answer.headers['sandbox-rule']).toBe(
      'docs/rules.md#s2s-card-formulas; field=hash; formula=s2s-card.formula-2',
    )
    expect(events.find((e) => e.type === 'refusal')).toMatchObject({
      action: 'GET_TRANS_STATUS',
      refusal: { inputs: ['original.payer_email', 'password', 'trans_id', 'original.card_number'] },
    })
    // The right hash is accepted: the refusal was the hash's.
    const right = s2sCardSignatures.transaction('doe@example.com', PASSWORD, payment.id, {
      cardNumber: '4111111111111111',
    })
    const ok = await t.call(
      'POST',
      '/post',
      form({ action: 'GET_TRANS_STATUS', client_key: MERCHANT, trans_id: payment.id, hash: right }),
    )
    expect(ok.headers['sandbox-rule']).toBeUndefined()
  })

  it('field errors: the rule of the refused keyword and every field path', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const session = (order: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      t.call('POST', '/api/v1/session', {
        merchant_key: MERCHANT,
        operation: 'purchase',
        order: { number: 'o-1', currency: 'EUR', description: 'd', ...order },
        success_url: 'https://shop.test/ok',
        hash: 'x',
        ...extra,
      })
    expect((await session({ amount: '1234,50' })).headers['sandbox-rule']).toBe(
      'docs/rules.md#amounts; field=order.amount',
    )
    expect((await session({ amount: 10 })).headers['sandbox-rule']).toBe(
      'docs/rules.md#amounts; field=order.amount',
    )
    expect((await session({ amount: '10.00' }, { session_expiry: 1800 })).headers['sandbox-rule']).toBe(
      'docs/rules.md#session-expiry; field=session_expiry',
    )
    expect((await session({ amount: '10.00' }, { req_token: 'maybe' })).headers['sandbox-rule']).toBe(
      'docs/rules.md#booleans; field=req_token',
    )
    const update = await t.call(
      'PUT',
      '/api/v1/session/update',
      { order_amount: '1.00', shop: 1 },
      { token: 'x' },
    )
    expect(update.headers['sandbox-rule']).toBe('docs/rules.md#token-header')
    const missing = await t.call('POST', '/api/v1/payment/status', {
      merchant_key: MERCHANT,
      payment_id: 'p',
    })
    expect(missing.headers['sandbox-rule']).toBe('docs/rules.md#required-fields; field=hash')
    const flag = await t.call(
      'POST',
      '/post',
      form({ action: 'SALE', client_key: MERCHANT, recurring_init: 'false' }),
    )
    expect(flag.headers['sandbox-rule']).toMatch(/^docs\/rules\.md#required-fields; field=/)
    expect(flag.headers['sandbox-rule']).toContain('field=recurring_init')
  })

  it('an unknown merchant, and a field the request does not take', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const payment = putPayment(t, { api: 's2s-card' })
    const unknown = await t.call(
      'POST',
      '/post',
      form({ action: 'GET_TRANS_STATUS', client_key: 'nobody', trans_id: payment.id, hash: 'f'.repeat(32) }),
    )
    expect(unknown.headers['sandbox-rule']).toBe('docs/rules.md#credentials')
    const order = { number: 'o-1', amount: '10.00', currency: 'EUR', description: 'd' }
    const nested = await t.call('POST', '/api/v1/payment/card/credit', {
      merchant_key: MERCHANT,
      order,
      card_number: '4601541833776519',
      hash: 'x',
    })
    expect(nested.headers['sandbox-rule']).toBe(
      'docs/rules.md#required-fields; field=order_id; field=order_amount; field=order_currency; field=order_description',
    )
    const created = await t.call('POST', '/api/v1/session/token', {
      merchant_key: MERCHANT,
      operation: 'purchase',
      order,
      return_url: 'https://shop.test/back',
      hash: checkoutSignatures.session(order, PASSWORD),
    })
    const token = String(created.body.token)
    const update = await t.call('PUT', '/api/v1/session/update', { order_amount: '5.00', shop: 1 }, { token })
    expect(update.headers['sandbox-rule']).toBe('docs/rules.md#unexpected-fields; field=shop')
  })

  it('a state that forbids the action: its rule, and the row of the state table in the refusal', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const events: EngineEvent[] = []
    t.gateway.ctx.events.subscribe((e) => events.push(e))
    const held = putAuthorized(t)
    const voided = await t.call('POST', '/api/v1/payment/void', bodies.void(held.id))
    expect(voided.status).toBe(400)
    expect(voided.headers['sandbox-rule']).toBe('docs/rules.md#void')
    const settled = putPayment(t)
    const above = await t.call('POST', '/api/v1/payment/refund', bodies.refund(settled.id, '20.00'))
    expect(above.headers['sandbox-rule']).toBe('docs/rules.md#refunds; field=amount')
    const capture = await t.call(
      'POST',
      '/api/v1/payment/capture',
      bodies.capture(putAuthorized(t).id, '99.00'),
    )
    expect(capture.headers['sandbox-rule']).toBe('docs/rules.md#capture; field=amount')
    const refusals = events.flatMap((e) => (e.type === 'refusal' ? [e.refusal] : []))
    expect(refusals.map((r) => r.transition)).toEqual([
      'void-pending',
      'refund-above-left',
      'capture-above-authorized',
    ])
    expect(refusals.map((r) => r.row)).toEqual([
      'CHECKOUT_VOID_NOT_ALLOWED',
      'PLATFORM_REFUND_ABOVE_PAYMENT',
      'PLATFORM_CAPTURE_ABOVE_AUTH',
    ])
    const unknown = await t.call('POST', '/api/v1/payment/void', bodies.void('no-such-payment'))
    expect(unknown.headers['sandbox-rule']).toBe('docs/rules.md#not-found')
  })

  it('hosted pages: a page the sandbox does not hold, and a card form with problems', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    expect((await t.call('GET', '/auth/no-such-token')).headers['sandbox-rule']).toBe(
      'docs/rules.md#page-token',
    )
    const order = { number: 'o-2', amount: '10.00', currency: 'EUR', description: 'Order o-2' }
    const created = await t.call('POST', '/api/v1/session', {
      merchant_key: MERCHANT,
      operation: 'purchase',
      order,
      success_url: 'https://shop.test/ok',
      hash: checkoutSignatures.session(order, PASSWORD),
    })
    const token = String(created.body.redirect_url).split('/auth/')[1]
    const page = await t.call('POST', `/auth/${token}/pay`, form({ card_number: '4111111111111112' }))
    expect(page.status).toBe(422)
    expect(page.headers['sandbox-rule']).toMatch(/^docs\/rules\.md#(card-data|required-fields); field=card_/)
  })

  it('the log line of a refusal names the rule, not the values', async () => {
    const lines: { message: string; fields?: Record<string, unknown> }[] = []
    const logger: Logger = {
      info: (message, fields) => lines.push({ message, ...(fields ? { fields } : {}) }),
      warn: (message, fields) => lines.push({ message, ...(fields ? { fields } : {}) }),
      error: (message, fields) => lines.push({ message, ...(fields ? { fields } : {}) }),
    }
    const t = createTestGateway(DEFAULT_MODULES)
    Object.assign(t.gateway.ctx, { logger })
    await t.call(
      'POST',
      '/post',
      form({ action: 'SALE', client_key: 'nobody', card_number: '4111111111111111' }),
    )
    const line = lines.find((l) => l.message === 'request refused')
    expect(line?.fields).toMatchObject({ method: 'POST', path: '/post', action: 'SALE', status: 400 })
    expect(String(line?.fields?.rule)).toMatch(/^docs\/rules\.md#/)
    expect(JSON.stringify(lines)).not.toContain('4111111111111111')
  })
})

describe('every adapter writes the header as the gateway gives it', () => {
  it('express and the fetch translation (sandbox.fetch)', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const express = await request(createExpressApp(t.gateway))
      .post('/post')
      .type('form')
      .send(form({ action: 'SALE', client_key: 'nobody' }))
    expect(express.headers['sandbox-rule']).toMatch(/^docs\/rules\.md#/)
    const sandbox = await createSandbox({ config: demoConfig() })
    try {
      const answer = await sandbox.fetch(`${sandbox.baseUrl}/api/v1/payment/void`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ merchant_key: MERCHANT, payment_id: 'p' }),
      })
      expect(answer.headers.get('sandbox-rule')).toBe('docs/rules.md#required-fields; field=hash')
    } finally {
      await sandbox.close()
    }
  })

  it("the HTTP server's own refusals of a request it cannot read", async () => {
    expect(transportRefusal('REQUEST_HEAD_INVALID').headers['sandbox-rule']).toBe(
      'docs/rules.md#request-limits',
    )
    const sandbox = await createSandbox({ config: demoConfig() })
    try {
      const { port } = await sandbox.listen()
      const text = await new Promise<string>((done) => {
        let got = ''
        const socket = connect(port, '127.0.0.1', () => socket.write('HELLO THERE\r\n\r\n'))
        socket.on('data', (chunk: Buffer) => {
          got += chunk.toString('utf8')
        })
        socket.on('close', () => done(got))
        socket.on('error', () => done(got))
      })
      expect(text).toMatch(/^HTTP\/1\.1 400 /)
      expect(text).toMatch(/\r\nsandbox-rule: docs\/rules\.md#request-limits\r\n/)
    } finally {
      await sandbox.close()
    }
  })
})
