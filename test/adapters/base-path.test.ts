import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { normalizeBasePath, withBasePath } from '../../src/adapters/base-path/base-path.js'
import { normalisePath, PATH_OUTSIDE } from '../../src/core/engine/path.js'
import { type RunningSandbox, serve } from '../../src/adapters/serve.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import { checkoutSignatures, s2sApmSignatures, s2sCardSignatures } from '../../src/core/signatures/index.js'
import { createSandbox } from '../../src/library/create-sandbox.js'

/**
 * docs/rules.md#base-path: "An optional base path (`--base-path /payment`) serves everything under a
 * prefix, as white-label deployments do (new)"; issue 13 point 4: `/payment/post`,
 * `/payment/api/v1/session`, hosted pages and control API included, in `serve` and the library.
 */
const KEY = 'demo-merchant'
const PASSWORD = 'demo-password-0123456789abcdef'
const fixture = (path: string) =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'payloads', path), 'utf8'),
  ) as Record<string, unknown>

function saleForm(orderId: string): URLSearchParams {
  const body: Record<string, unknown> = {
    ...fixture('s2s-card/sale-request.basic.json'),
    client_key: KEY,
    order_id: orderId,
  }
  const hash = s2sCardSignatures.payment(String(body.payer_email), PASSWORD, {
    cardNumber: String(body.card_number),
  })
  return new URLSearchParams(
    Object.entries({ ...body, hash }).filter((e): e is [string, string] => typeof e[1] === 'string'),
  )
}

function sessionBody() {
  const body: Record<string, unknown> = {
    ...fixture('checkout/session-request.minimal.json'),
    merchant_key: KEY,
  }
  const order = body.order as { number: string; amount: string; currency: string; description: string }
  return JSON.stringify({ ...body, hash: checkoutSignatures.session(order, PASSWORD) })
}

describe('base path helpers', () => {
  it('normalizes the prefix and strips it, leaving other paths outside', () => {
    expect(normalizeBasePath('payment/')).toBe('/payment')
    expect(normalizeBasePath('/')).toBe('')
    expect(() => normalizeBasePath('/pay ment')).toThrow(TypeError)
    // The engine takes the prefix off once it has normalised the path (core/engine/path.ts).
    expect(normalisePath('/payment/post', '/payment')).toBe('/post')
    expect(normalisePath('/payment//post/', '/payment')).toBe('/post')
    expect(normalisePath('/payment', '/payment')).toBe('/')
    expect(normalisePath('/paymentx/post', '/payment')).toBe(PATH_OUTSIDE)
    expect(normalisePath('/post', '/payment')).toBe(PATH_OUTSIDE)
    expect(normalisePath('/payment/../sandbox/reset', '/payment')).toBe(PATH_OUTSIDE)
    expect(withBasePath('http://127.0.0.1:8080/', '/payment')).toBe('http://127.0.0.1:8080/payment')
    expect(withBasePath('https://gw.test/payment', '/payment')).toBe('https://gw.test/payment')
  })
})

describe('serve --base-path /payment', () => {
  let sandbox: RunningSandbox | undefined
  afterEach(async () => {
    await sandbox?.close()
    sandbox = undefined
  })

  it('serves every API, the hosted page and the control API under the prefix, and nothing outside it', async () => {
    sandbox = await serve({ port: 0, logger: silentLogger, basePath: '/payment' })
    const origin = sandbox.baseUrl.replace(/\/payment$/, '')
    expect(sandbox.baseUrl).toBe(`http://localhost:${sandbox.port}/payment`)

    // S2S CARD at /payment/post and /payment/v2/post
    const sale = await fetch(`${origin}/payment/post`, { method: 'POST', body: saleForm('BP-1') })
    expect(sale.status).toBe(200)
    const saleBody = (await sale.json()) as Record<string, unknown>
    expect(saleBody).toMatchObject({ action: 'SALE', result: 'SUCCESS' })
    const v2 = await fetch(`${origin}/payment/v2/post`, { method: 'POST', body: saleForm('BP-2') })
    expect(((await v2.json()) as Record<string, unknown>).result).toBe('SUCCESS')

    // S2S APM at /payment/post-va
    const apm: Record<string, unknown> = { ...fixture('s2s-apm/sale-request.basic.json'), client_key: KEY }
    const apmHash = s2sApmSignatures.payment(
      String(apm.identifier),
      String(apm.order_id),
      String(apm.order_amount),
      String(apm.order_currency),
      PASSWORD,
    )
    const apmForm = new URLSearchParams(
      Object.entries({ ...apm, hash: apmHash }).filter(
        (e): e is [string, string] => typeof e[1] === 'string',
      ),
    )
    const apmAnswer = await fetch(`${origin}/payment/post-va`, { method: 'POST', body: apmForm })
    expect(((await apmAnswer.json()) as Record<string, unknown>).action).toBe('SALE')

    // Checkout at /payment/api/v1/session; the hosted page URL carries the prefix and answers
    const session = await fetch(`${origin}/payment/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: sessionBody(),
    })
    expect(session.status).toBe(200)
    const { redirect_url } = (await session.json()) as { redirect_url: string }
    expect(redirect_url.startsWith(`${origin}/payment/auth/`)).toBe(true)
    const page = await fetch(redirect_url)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/text\/html/)
    const html = await page.text()
    expect(html).toContain('/payment/')

    // control API under the prefix
    expect((await fetch(`${origin}/payment/sandbox/health`)).status).toBe(200)
    const payment = await fetch(`${origin}/payment/sandbox/payments/${String(saleBody.trans_id)}`)
    expect(payment.status).toBe(200)

    // nothing outside the prefix
    expect((await fetch(`${origin}/post`, { method: 'POST', body: saleForm('BP-3') })).status).toBe(404)
    expect((await fetch(`${origin}/sandbox/health`)).status).toBe(404)
    expect((await fetch(`${origin}/paymentx/post`, { method: 'POST', body: saleForm('BP-4') })).status).toBe(
      404,
    )
  })
})

describe('library under a base path', () => {
  it('listen({ basePath }) answers under the prefix, and fetch/handlers take a base URL with a path', async () => {
    const sandbox = await createSandbox()
    try {
      const listening = await sandbox.listen({ basePath: '/payment' })
      expect(listening.url).toMatch(/\/payment$/)
      expect(sandbox.baseUrl).toBe(listening.url)
      const r = await fetch(`${listening.url}/post`, { method: 'POST', body: saleForm('LIB-1') })
      expect(((await r.json()) as Record<string, unknown>).result).toBe('SUCCESS')
      const outside = await fetch(listening.url.replace(/\/payment$/, '/post'), {
        method: 'POST',
        body: saleForm('LIB-2'),
      })
      expect(outside.status).toBe(404)
    } finally {
      await sandbox.close()
    }

    const inProcess = await createSandbox({ baseUrl: 'https://gw.test/payment' })
    try {
      const session = await inProcess.fetch('https://gw.test/payment/api/v1/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: sessionBody(),
      })
      const { redirect_url } = (await session.json()) as { redirect_url: string }
      expect(redirect_url.startsWith('https://gw.test/payment/auth/')).toBe(true)
      expect((await inProcess.fetch(redirect_url)).status).toBe(200)
    } finally {
      await inProcess.close()
    }
  })
})
