import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { verifyCallback } from '../../src/library/signatures.js'
import { checkoutSignatures, s2sCardSignatures } from '../../src/core/signatures/index.js'
import type { MerchantClient } from '../../src/conformance/merchant.js'

/**
 * A deliberately small merchant integration for the runner's own tests: it creates sessions and
 * S2S SALEs as told, verifies callbacks, and shows its orders. `flaws` switch on one mistake each.
 */
export interface Flaws {
  /** Signs the session with a wrong password. */
  badHash?: boolean
  /** Acknowledges every callback, forged or not. */
  trustsEveryCallback?: boolean
  /** Counts a duplicate callback again. */
  countsDuplicates?: boolean
  /**
   * An S2S SALE whose answer never came is sent again: `blindly`, or `after-lookup` (only when
   * GET_TRANS_STATUS_BY_ORDER answers 101000, nothing taken). Without it the fake answers `pending`.
   */
  resendsUnanswered?: 'blindly' | 'after-lookup'
  /** Tells its payer the payment failed, whatever the gateway answered. */
  tellsFailed?: boolean
}

export const CREDENTIALS = { merchant_key: 'fake-merchant', password: 'fake-password-0123456789' }

interface Order {
  order_id: string
  amount: string
  state: string
  callbacks_processed: number
  payment_id?: string
  seen: Set<string>
}

export async function startFakeMerchant(
  flaws: Flaws = {},
): Promise<{ client: MerchantClient; close(): Promise<void>; orders: Map<string, Order> }> {
  const orders = new Map<string, Order>()
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    const url = new URL(req.url ?? '/', 'http://x')
    if (url.pathname === '/test/start') return json(200, await start(JSON.parse(text)))
    if (url.pathname === '/test/action') return json(200, await action(JSON.parse(text)))
    if (url.pathname === '/cb') return callback(text, res)
    const order = orders.get(decodeURIComponent(url.pathname.replace('/orders/', '')))
    if (order) {
      const took = order.state === 'paid' || order.state === 'refunded'
      return json(200, {
        order_id: order.order_id,
        state: order.state,
        amount_paid: took ? order.amount : '0.00',
        amount_refunded: order.state === 'refunded' ? order.amount : '0.00',
        payments_count: took ? 1 : 0,
        callbacks_processed: order.callbacks_processed,
      })
    }
    json(404, { error: 'no such order' })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const password = flaws.badHash ? 'not-the-password' : CREDENTIALS.password

  async function start(p: {
    gateway_url: string
    flow: string
    order: { number: string; amount: string; currency: string; description: string }
    card?: { number: string; exp_month: string; exp_year: string; cvv2: string }
  }) {
    orders.set(p.order.number, {
      order_id: p.order.number,
      amount: p.order.amount,
      state: 'new',
      callbacks_processed: 0,
      seen: new Set(),
    })
    if (p.flow === 's2s-card' && p.card) {
      const body = new URLSearchParams({
        action: 'SALE',
        client_key: CREDENTIALS.merchant_key,
        order_id: p.order.number,
        order_amount: p.order.amount,
        order_currency: p.order.currency,
        order_description: p.order.description,
        card_number: p.card.number,
        card_exp_month: p.card.exp_month,
        card_exp_year: p.card.exp_year,
        card_cvv2: p.card.cvv2,
        payer_first_name: 'A',
        payer_last_name: 'B',
        payer_email: 'a@b.example',
        payer_phone: '123456',
        payer_ip: '203.0.113.1',
        term_url_3ds: `${base}/back`,
        hash: s2sCardSignatures.payment('a@b.example', password, { cardNumber: p.card.number }),
      })
      const post = async (form: URLSearchParams): Promise<Record<string, unknown> | undefined> => {
        try {
          const r = await fetch(`${p.gateway_url}/post`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: form,
          })
          return r.ok || r.status < 500 ? ((await r.json()) as Record<string, unknown>) : undefined
        } catch {
          return undefined
        }
      }
      let answer = await post(body)
      if (!answer && flaws.resendsUnanswered === 'after-lookup') {
        const lookup = await post(
          new URLSearchParams({
            action: 'GET_TRANS_STATUS_BY_ORDER',
            client_key: CREDENTIALS.merchant_key,
            order_id: p.order.number,
            hash: s2sCardSignatures.byOrder('a@b.example', password, p.order.number, {
              cardNumber: p.card.number,
            }),
          }),
        )
        answer = String(lookup?.error_code) === '101000' ? await post(body) : lookup
      } else if (!answer && flaws.resendsUnanswered === 'blindly') answer = await post(body)
      const told = answer ?? { status: 'pending' }
      return flaws.tellsFailed ? { ...told, status: 'failed' } : told
    }
    const session = {
      merchant_key: CREDENTIALS.merchant_key,
      operation: 'purchase',
      methods: ['card'],
      order: p.order,
      success_url: `${base}/ok`,
      cancel_url: `${base}/cancel`,
      hash: checkoutSignatures.session(p.order, password),
    }
    const r = await fetch(`${p.gateway_url}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(session),
    })
    return r.json()
  }

  async function action(p: { gateway_url: string; action: string; order_id: string; amount?: string }) {
    const paymentId = orders.get(p.order_id)?.payment_id ?? ''
    const body: Record<string, string> = { merchant_key: CREDENTIALS.merchant_key, payment_id: paymentId }
    if (p.amount) body.amount = p.amount
    const path = p.action === 'status' ? 'status' : p.action
    body.hash =
      p.action === 'refund' || p.action === 'capture'
        ? checkoutSignatures.amountOperation(paymentId, p.amount, password)
        : checkoutSignatures.paymentOperation(paymentId, password)
    const r = await fetch(`${p.gateway_url}/api/v1/payment/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return r.json()
  }

  function callback(text: string, res: import('node:http').ServerResponse) {
    const fields = Object.fromEntries(new URLSearchParams(text))
    const api = fields.action ? 's2s-card' : 'checkout'
    const valid = api === 'checkout' ? verifyCallback(fields, CREDENTIALS.password, 'checkout') : true
    if (!valid && !flaws.trustsEveryCallback) return void res.writeHead(400).end('bad hash')
    const order = orders.get(fields.order_number ?? fields.order_id ?? '')
    if (order) {
      const key = `${fields.type ?? fields.action}/${fields.order_status ?? fields.status}/${fields.trans_id}`
      if (flaws.countsDuplicates || !order.seen.has(key)) order.callbacks_processed++
      order.seen.add(key)
      order.payment_id ??= fields.id ?? fields.trans_id
      const status = fields.order_status ?? fields.status?.toLowerCase()
      if (status === 'settled') order.state = 'paid'
      else if (status === 'decline' || status === 'declined') order.state = 'failed'
      else if (status === 'refund') order.state = 'refunded'
    }
    res.writeHead(200).end('OK')
  }

  const hook = async (path: string, payload: unknown) => {
    const request = {
      method: 'POST',
      url: base + path,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    }
    const r = await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body })
    const t = await r.text()
    return { status: r.status, text: t, body: JSON.parse(t) as unknown, request }
  }
  const client: MerchantClient = {
    name: 'fake',
    baseUrl: base,
    notificationUrl: `${base}/cb`,
    credentials: CREDENTIALS,
    sequential: false,
    hasAction: true,
    hasInspect: true,
    startPayment: (payload) => hook('/test/start', payload),
    action: (payload) => hook('/test/action', payload),
    async inspect(orderId) {
      const r = await fetch(`${base}/orders/${encodeURIComponent(orderId)}`)
      const t = await r.text()
      return { status: r.status, text: t, body: JSON.parse(t) as unknown }
    },
    stop: async () => {},
  }
  return { client, orders, close: () => new Promise<void>((r) => server.close(() => r())) }
}
