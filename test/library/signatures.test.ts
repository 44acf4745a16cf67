import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { redirectFor } from '../../src/core/callbacks/index.js'
import { flattenForm } from '../../src/core/callbacks/form.js'
import {
  type Api,
  createSandbox,
  type FormValue,
  signatures,
  verifyCallback,
  verifyRedirect,
} from '../../src/index.js'
import { card, createSession, order, PASSWORD } from './helpers.js'

const DIR = fileURLToPath(new URL('../../fixtures/payloads/callbacks/', import.meta.url))
const load = (file: string) => JSON.parse(readFileSync(`${DIR}${file}`, 'utf8')) as Record<string, FormValue>
const fixtures = readdirSync(DIR).filter((f) => /^(checkout|s2s-card|s2s-apm)-.*\.json$/.test(f))
const apiOf = (file: string): Api =>
  file.startsWith('checkout-') ? 'checkout' : file.startsWith('s2s-card-') ? 's2s-card' : 's2s-apm'
/** The S2S CARD fixtures' original payment (fixtures/payloads/callbacks/README.md). */
const original = { payerEmail: 'doe@example.com', card: { cardNumber: '4111111111111111' } }

describe('signatures: computing every formula of docs/rules.md#signatures', () => {
  // docs/rules.md#known-answer: "Known answer: payer_email `doe@example.com`, password `13a4822c5907ed235f3a068c76184fc3`,
  // card `4111111111111111` gives SALE hash `2702ae0c4f99506dc29b5615ba9ee3c0`. Tests must include it."
  it('gives the known S2S CARD SALE answer', () => {
    const hash = signatures.s2sCard.payment('doe@example.com', '13a4822c5907ed235f3a068c76184fc3', {
      cardNumber: '4111111111111111',
    })
    expect(hash).toBe('2702ae0c4f99506dc29b5615ba9ee3c0')
  })

  // "Checkout (JSON API), `hash = sha1(md5(upper(FIELDS)))` (SHA1 over the hex MD5 string)"
  it('signs Checkout requests as sha1 over the md5 hex of the upper-cased fields', () => {
    const { md5, sha1, upper } = signatures.primitives
    expect(signatures.checkout.paymentOperation('pay-1', 'pw')).toBe(sha1(md5(upper('pay-1pw'))))
    expect(signatures.checkout.session(order('o-1'), 'pw')).toBe(
      sha1(md5(upper('o-110.00USDLibrary testpw'))),
    )
  })
})

describe('verifyCallback on the callback fixtures (every hash made with the demo password)', () => {
  it.each(fixtures)('%s verifies as nested fields, flat bracket fields and the raw form body', (file) => {
    const nested = load(file)
    const api = apiOf(file)
    const payment = api === 's2s-card' ? original : undefined
    const flat = flattenForm(nested)
    expect(verifyCallback(nested, PASSWORD, api, payment)).toBe(true)
    expect(verifyCallback(flat, PASSWORD, api, payment)).toBe(true)
    expect(verifyCallback(new URLSearchParams(flat).toString(), PASSWORD, api, payment)).toBe(true)
    expect(verifyCallback(nested, 'another-password', api, payment)).toBe(false)
  })

  // Authentication 6: "for S2S APM it covers the whole callback body"; Checkout covers the order fields.
  it('refuses a callback whose signed fields were changed', () => {
    const checkout = load('checkout-sale-settled.json')
    expect(verifyCallback({ ...checkout, order_amount: '99.00' }, PASSWORD, 'checkout')).toBe(false)
    const apm = flattenForm(load('s2s-apm-sale-success.json'))
    expect(verifyCallback({ ...apm, 'custom_data[notes][gift]': 'no' }, PASSWORD, 's2s-apm')).toBe(false)
    expect(verifyCallback({ ...checkout, hash: undefined }, PASSWORD, 'checkout')).toBe(false)
  })

  it('reads the S2S CARD payer from the callback when it carries payer_email and card, and says what is missing otherwise', () => {
    const fields = { ...load('s2s-card-sale-success.json'), payer_email: 'doe@example.com' }
    expect(verifyCallback(fields, PASSWORD, 's2s-card')).toBe(true)
    expect(() => verifyCallback(load('s2s-card-sale-success.json'), PASSWORD, 's2s-card')).toThrow(
      /payerEmail/,
    )
  })
})

describe('verifyCallback and verifyRedirect on what a sandbox sends', () => {
  // docs/rules.md#checkout-signatures: "callback and redirect `hash` | payment_id + order.number + order.amount + order.currency + order.description + password"
  it('verifies a live Checkout callback and the success_url redirect of the same payment', async () => {
    const bodies: string[] = []
    const sandbox = await createSandbox({
      seed: 'sig',
      onCallback: async (request) => {
        bodies.push(await request.text())
        return new Response('OK')
      },
    })
    try {
      const paid = await sandbox.payer.payCheckout(await createSession(sandbox, 'o-sig'), card('01/2030'))
      expect(bodies).toHaveLength(1)
      expect(verifyCallback(bodies[0] as string, PASSWORD, 'checkout')).toBe(true)
      const payment = sandbox.gateway.ctx.store.get('payments', paid.payment_id)
      const redirect = payment && redirectFor(sandbox.gateway.ctx, payment, 'success')
      expect(redirect?.url).toMatch(/^https:\/\/shop\.test\/ok\?payment_id=/)
      expect(verifyRedirect(redirect?.url as string, order('o-sig'), PASSWORD)).toBe(true)
      expect(verifyRedirect(redirect?.url as string, order('o-sig', '10.01'), PASSWORD)).toBe(false)
      expect(verifyRedirect(new URLSearchParams(redirect?.params), order('o-sig'), PASSWORD)).toBe(true)
    } finally {
      await sandbox.close()
    }
  })
})
