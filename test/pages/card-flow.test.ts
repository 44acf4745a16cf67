import { describe, expect, it } from 'vitest'
import { MINUTE } from '../../src/core/ports/clock.js'
import { attr, CARD, form, openSession, pagesGateway, SHOP, tag, textOf } from './helpers.js'

type T = ReturnType<typeof pagesGateway>
const pay = (t: T, token: string, card: Record<string, string> = {}) =>
  t.call('POST', `/auth/${token}/pay`, form({ ...CARD, ...card }))
const query = (location: string | undefined) => Object.fromEntries(new URL(location ?? '').searchParams)

describe('card form errors', () => {
  it('answers 422 with the form, the announced summary and each field marked, and creates nothing', async () => {
    const t = pagesGateway()
    const token = await openSession(t)
    const r = await t.call('POST', `/auth/${token}/pay`, form({ card_number: '4111', card_exp: '13/30' }))
    expect(r.status).toBe(422)
    expect(attr(tag(r.raw, 'error-summary'), 'role')).toBe('alert')
    expect(textOf(r.raw, 'error-summary', 'div')).toContain('Card number: Enter a valid card number.')
    expect(textOf(r.raw, 'error-summary', 'div')).toContain('Security code: Fill in this field.')
    expect(tag(r.raw, 'card_exp')).toContain('aria-invalid="true"')
    expect(textOf(r.raw, 'card_exp-error')).toBe('Enter the expiry date as MM/YY.')
    // The expiry is given back to correct; the card number is never echoed.
    expect(attr(tag(r.raw, 'card_exp'), 'value')).toBe('13/30')
    expect(attr(tag(r.raw, 'card_number'), 'value')).toBeUndefined()
    expect(t.store.count('payments')).toBe(0)
  })

  it("shows the engine's own refusals on their fields: Luhn digit, expired card", async () => {
    const t = pagesGateway()
    const token = await openSession(t)
    const luhn = await pay(t, token, { card_number: '4111111111111112' })
    expect(luhn.status).toBe(422)
    expect(textOf(luhn.raw, 'card_number-error')).toBe('Enter a valid card number.')
    const expired = await pay(t, token, { card_exp: '01/20' })
    expect(textOf(expired.raw, 'card_exp-error')).toBe('This card has expired.')
    expect(t.store.count('payments')).toBe(0)
  })

  it('keeps the page in the payer language for errors', async () => {
    const t = pagesGateway()
    const token = await openSession(t, { billing_address: { language: 'de' } })
    const r = await pay(t, token, { card_number: '' })
    expect(textOf(r.raw, 'card_number-error')).toBe('Füllen Sie dieses Feld aus.')
  })
})

describe('card outcomes (docs/rules.md#test-cards: the expiry month picks the outcome)', () => {
  // Events: "`success_url` and `cancel_url` always receive `payment_id`, `trans_id`, `order_id`, `hash`"
  it('01 succeeds: 303 to success_url with the redirect parameters', async () => {
    const t = pagesGateway()
    const token = await openSession(t, { billing_address: { country: 'US', phone: '555' } })
    const r = await pay(t, token, { billing_state: 'OR', phone_country_code: '1' })
    expect(r.status).toBe(303)
    expect(r.headers.location).toMatch(/^https:\/\/shop\.test\/success\?/)
    const params = query(r.headers.location)
    expect(Object.keys(params)).toEqual(['payment_id', 'trans_id', 'order_id', 'hash'])
    expect(params.order_id).toBe('order-7')
    const payment = t.store.get('payments', params.payment_id ?? '')
    expect(payment?.status).toBe('settled')
    // What the page collected is the payer's data, as if the merchant had sent it (Events: payer attributes).
    expect(payment?.payer).toMatchObject({ payer_state: 'OR', payer_phone_country_code: '1' })
  })

  it('02 declines: to error_url; without one, back to the page showing the decline', async () => {
    const t = pagesGateway()
    const r = await pay(t, await openSession(t), { card_exp: '02/30' })
    expect(r.headers.location).toMatch(/^https:\/\/shop\.test\/error\?payment_id=/)
    const token = await openSession(t, { error_url: undefined })
    const again = await pay(t, token, { card_exp: '02/30' })
    expect(again.headers.location).toBe(`/auth/${token}`)
    const shown = await t.call('GET', `/auth/${token}`)
    expect(textOf(shown.raw, 'error-summary', 'div')).toContain('The payment was declined.')
    // The session stays open for another card.
    expect((await pay(t, token)).headers.location).toMatch(/^https:\/\/shop\.test\/success\?/)
  })

  it('05 goes through the ACS page: pass settles and returns to success_url', async () => {
    const t = pagesGateway()
    const token = await openSession(t)
    const r = await pay(t, token, { card_exp: '05/30' })
    expect(r.headers.location).toMatch(/^\/acs\/[0-9a-f-]+$/)
    const acs = await t.call('GET', r.headers.location ?? '')
    expect(acs.status).toBe(200)
    expect(acs.raw).toContain('411111******1111')
    expect(tag(acs.raw, 'acs-pass')).toContain('value="pass"')
    // While the payment waits, the hosted page sends the payer back to the challenge.
    expect((await t.call('GET', `/auth/${token}`)).headers.location).toBe(r.headers.location)
    const passed = await t.call('POST', r.headers.location ?? '', 'result=pass')
    expect(passed.headers.location).toMatch(/^https:\/\/shop\.test\/success\?payment_id=/)
    expect(t.store.get('payments', query(passed.headers.location).payment_id ?? '')?.status).toBe('settled')
  })

  it('05 with a failed challenge declines and goes to error_url; a second answer changes nothing', async () => {
    const t = pagesGateway()
    const token = await openSession(t)
    const step = (await pay(t, token, { card_exp: '05/30' })).headers.location ?? ''
    const failed = await t.call('POST', step, 'result=fail')
    expect(failed.headers.location).toMatch(/^https:\/\/shop\.test\/error\?/)
    const id = step.split('/').pop() ?? ''
    expect(t.store.get('payments', id)).toMatchObject({
      status: 'decline',
      decline_reason: '3-D Secure authentication failed',
    })
    const late = await t.call('POST', step, 'result=pass')
    expect(late.status).toBe(303)
    expect(t.store.get('payments', id)?.status).toBe('decline')
  })

  it('12 goes through the redirect page and back (docs/rules.md#test-cards: "12 redirect then success")', async () => {
    const t = pagesGateway()
    const step = (await pay(t, await openSession(t), { card_exp: '12/30' })).headers.location ?? ''
    expect(step).toMatch(/^\/redirect-sim\//)
    expect((await t.call('GET', step)).raw).toContain('id="redirect-return"')
    expect((await t.call('POST', step, 'result=return')).headers.location).toMatch(
      /^https:\/\/shop\.test\/success\?/,
    )
  })
})

describe('cancel, expiry and url_target', () => {
  it('cancel sends the payer to cancel_url and closes the session', async () => {
    const t = pagesGateway()
    const token = await openSession(t)
    const r = await t.call('POST', `/auth/${token}/cancel`, '')
    expect(r.status).toBe(303)
    expect(r.headers.location).toBe(`${SHOP}/cancel?order_id=order-7`)
    expect(t.store.findBy('sessions', 'page_token', token)[0]?.status).toBe('cancelled')
    expect((await t.call('GET', `/auth/${token}`)).headers.location).toBe(`${SHOP}/cancel?order_id=order-7`)
    expect((await pay(t, token)).headers.location).toBe(`${SHOP}/cancel?order_id=order-7`)
  })

  // docs/rules.md#session-expiry: "`session_expiry` is in minutes ... expiry ... follow[s]" the sandbox clock.
  it('sends the payer to expiry_url once session_expiry has passed on the sandbox clock', async () => {
    const t = pagesGateway()
    const token = await openSession(t, { session_expiry: 5 })
    expect((await t.call('GET', `/auth/${token}`)).status).toBe(200)
    await t.clock.advance(5 * MINUTE)
    const r = await t.call('GET', `/auth/${token}`)
    expect(r.status).toBe(303)
    expect(r.headers.location).toBe(`${SHOP}/expired?order_id=order-7`)
    expect(t.store.findBy('sessions', 'page_token', token)[0]?.status).toBe('expired')
    expect((await pay(t, token)).headers.location).toBe(`${SHOP}/expired?order_id=order-7`)
    expect(t.store.count('payments')).toBe(0)
  })

  it('names the declined payment on the expiry URL when there is one', async () => {
    const t = pagesGateway()
    const token = await openSession(t, { session_expiry: 1, error_url: undefined })
    await pay(t, token, { card_exp: '02/30' })
    await t.clock.advance(MINUTE)
    const params = query((await t.call('GET', `/auth/${token}`)).headers.location)
    expect(Object.keys(params)).toEqual(['payment_id', 'trans_id', 'order_id', 'hash'])
  })

  it('shows a page without an expiry_url', async () => {
    const t = pagesGateway()
    const token = await openSession(t, { session_expiry: 1, expiry_url: undefined })
    await t.clock.advance(MINUTE)
    const r = await t.call('GET', `/auth/${token}`)
    expect(r.status).toBe(200)
    expect(r.raw).toContain('Session expired')
  })

  // 2.1 url_target: "Inside an iframe with `_top`, the payer sees a continue button that opens a new window."
  it('hands `_top` to the browser: a continue link in that target (the script opens a window when framed)', async () => {
    const t = pagesGateway()
    const r = await pay(t, await openSession(t, { url_target: '_top' }))
    expect(r.status).toBe(200)
    expect(attr(tag(r.raw, 'continue'), 'target')).toBe('_top')
    expect(attr(tag(r.raw, 'continue'), 'href')).toMatch(/^https:\/\/shop\.test\/success\?payment_id=/)
    expect(r.raw).toContain('"handoff":{"url":"https://shop.test/success?payment_id=')
  })

  it('lets the MID Override Link Target win over the merchant value', async () => {
    const t = pagesGateway({}, { override_link_target: '_blank' })
    const r = await pay(t, await openSession(t, { url_target: '_self' }))
    expect(attr(tag(r.raw, 'continue'), 'target')).toBe('_blank')
    const plain = pagesGateway({}, { override_link_target: '_self' })
    expect((await pay(plain, await openSession(plain, { url_target: '_top' }))).status).toBe(303)
  })
})
