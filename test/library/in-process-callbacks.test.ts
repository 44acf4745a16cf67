import { afterEach, describe, expect, it } from 'vitest'
import { createInProcessTransport } from '../../src/adapters/transport/in-process-transport.js'
import { createSandbox, type MerchantHandler, type Sandbox, signatures } from '../../src/index.js'
import { demoConfig } from '../helpers/engine.js'
import { card, createSession, KEY, PASSWORD } from './helpers.js'

let sandbox: Sandbox | undefined
afterEach(() => sandbox?.close())

async function withMerchant(handler: MerchantHandler): Promise<Sandbox> {
  sandbox = await createSandbox({ seed: 'in-process', onCallback: handler })
  return sandbox
}

const payOne = async (s: Sandbox, number: string, expiry = '01/2030') =>
  s.payer.payCheckout(await createSession(s, number), card(expiry))

describe('callbacks delivered in-process to the merchant handler', () => {
  // docs/rules.md#callback-format: "Sent as `POST`, `application/x-www-form-urlencoded; charset=utf-8`"; destination: the
  // merchant's `notification_url`; "Acknowledgement: Checkout: any 2xx".
  it('hands the handler the Request it would get over HTTP, and a 2xx acknowledges it', async () => {
    const seen: { method: string; url: string; type: string | null; fields: URLSearchParams }[] = []
    const s = await withMerchant(async (request) => {
      seen.push({
        method: request.method,
        url: request.url,
        type: request.headers.get('content-type'),
        fields: new URLSearchParams(await request.text()),
      })
      return new Response(null, { status: 204 })
    })
    const paid = await payOne(s, 'o-shape')
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: 'http://localhost:3000/payment/callback',
      type: 'application/x-www-form-urlencoded; charset=utf-8',
    })
    expect(seen[0]?.fields.get('id')).toBe(paid.payment_id)
    expect(s.callbacks({ payment_id: paid.payment_id })).toMatchObject([
      { state: 'acknowledged', attempts: [{ status: 204, acknowledged: true }] },
    ])
  })

  // docs/rules.md#retries: "Retries (sandbox): after 1 min, 5 min, 15 min, 1 h, 6 h, 24 h of sandbox time"
  it('retries a refused callback on the sandbox clock', async () => {
    let answer = 500
    const s = await withMerchant(() => new Response('busy', { status: answer }))
    const paid = await payOne(s, 'o-retry')
    const [first] = s.callbacks({ payment_id: paid.payment_id })
    expect(first).toMatchObject({ state: 'retrying', next_attempt_at: s.clock.now() + 60_000 })
    answer = 200
    await s.clock.advance(59)
    expect(s.callbacks()[0]?.attempts).toHaveLength(1)
    await s.clock.advance(1)
    expect(s.callbacks()[0]).toMatchObject({
      state: 'acknowledged',
      attempts: [{ status: 500 }, { status: 200 }],
    })
  })

  it('records a handler that throws or answers nothing as a failed attempt, saying why', async () => {
    let calls = 0
    const s = await withMerchant((() => {
      calls++
      if (calls === 1) throw new Error('merchant bug')
      return undefined
    }) as unknown as MerchantHandler)
    await payOne(s, 'o-throw')
    await s.clock.advance(60)
    const attempts = s.callbacks()[0]?.attempts ?? []
    expect(attempts.map((a) => a.acknowledged)).toEqual([false, false])
    expect(attempts[0]?.error).toBe('merchant bug')
    expect(attempts[1]?.error).toMatch(/answered nothing \(undefined\); answer a Response/)
  })

  // docs/rules.md#acknowledgement: "a time-out (10 s) ... is a failed attempt" (config callbacks.timeout_seconds)
  it('fails an attempt the handler never answers, and tells the handler through request.signal', async () => {
    let aborted = false
    // A merchant that hangs still holds its request (undici follows the signal weakly).
    const hanging: Request[] = []
    const config = { ...demoConfig(), callbacks: { timeout_seconds: 0.2 } }
    sandbox = await createSandbox({
      config,
      onCallback: (request) =>
        new Promise<Response>(() => {
          hanging.push(request)
          request.signal.addEventListener('abort', () => {
            aborted = true
          })
        }),
    })
    await payOne(sandbox, 'o-hang')
    expect(sandbox.callbacks()[0]).toMatchObject({
      state: 'retrying',
      attempts: [{ acknowledged: false, error: 'Timed out after 200 ms' }],
    })
    // AbortSignal.timeout fires on its own timer, beside the attempt's: give it its turn.
    await expect.poll(() => aborted).toBe(true)
  })

  it("takes a merchant app's fetch-style handler and {status, body} answers", async () => {
    const paths: string[] = []
    // A merchant app routing by path, as a fetch-style server (Hono, Remix, Next route handlers) does.
    const app = async (request: Request) => {
      const { pathname } = new URL(request.url)
      paths.push(pathname)
      return pathname === '/payment/callback' ? new Response('OK') : new Response('no route', { status: 404 })
    }
    const s = await withMerchant(app)
    await payOne(s, 'o-app')
    expect(paths).toEqual(['/payment/callback'])
    expect(s.callbacks()[0]?.state).toBe('acknowledged')
    const transport = createInProcessTransport(() => ({ status: 202, body: 'accepted' }))
    const request = {
      url: 'http://shop.test/cb',
      method: 'POST' as const,
      headers: {},
      body: 'a=1',
      timeoutMs: 1000,
    }
    expect(await transport.send(request)).toEqual({ status: 202, body: 'accepted' })
  })

  // docs/rules.md#callbacks: "Callbacks of one payment are delivered in order"
  it('delivers the 3DS waiting callback before the sale it ends in', async () => {
    const types: string[] = []
    const s = await withMerchant(async (request) => {
      types.push(new URLSearchParams(await request.text()).get('type') ?? '')
      return new Response('OK')
    })
    const three = await payOne(s, 'o-3ds', '05/2030')
    await s.payer.passThreeDs(three.payment_id)
    expect(types).toEqual(['3ds', 'sale'])
  })
})

describe('S2S CARD callbacks in-process', () => {
  const sale = (email: string) =>
    new URLSearchParams({
      action: 'SALE',
      client_key: KEY,
      order_id: 'S2S-1',
      order_amount: '10.00',
      order_currency: 'USD',
      order_description: 'Tickets',
      card_number: '4111111111111111',
      card_exp_month: '01',
      card_exp_year: '2030',
      card_cvv2: '123',
      payer_first_name: 'John',
      payer_last_name: 'Doe',
      payer_email: email,
      payer_phone: '2125550100',
      payer_ip: '203.0.113.10',
      term_url_3ds: 'https://shop.test/3ds',
      hash: signatures.s2sCard.payment(email, PASSWORD, { cardNumber: '4111111111111111' }),
    })

  // docs/rules.md#acknowledgement: "S2S: body `OK`. Anything else ... is a failed attempt."
  it('acknowledges only the body OK, and the callback verifies with the original payer and card', async () => {
    const bodies: string[] = []
    let answer = 'fine'
    const s = await withMerchant(async (request) => {
      bodies.push(await request.text())
      return new Response(answer)
    })
    const response = await s.fetch(`${s.baseUrl}/post`, { method: 'POST', body: sale('doe@example.com') })
    expect(await response.json()).toMatchObject({ action: 'SALE', result: 'SUCCESS' })
    await s.idle()
    expect(s.callbacks()[0]?.state).toBe('retrying')
    answer = 'OK\n'
    await s.clock.advance(60)
    expect(s.callbacks()[0]?.state).toBe('acknowledged')
    const payment = { payerEmail: 'doe@example.com', card: { cardNumber: '4111111111111111' } }
    expect(signatures.verifyCallback(bodies[0] as string, PASSWORD, 's2s-card', payment)).toBe(true)
    const other = { ...payment, payerEmail: 'someone@example.com' }
    expect(signatures.verifyCallback(bodies[0] as string, PASSWORD, 's2s-card', other)).toBe(false)
  })
})
