import { describe, expect, it } from 'vitest'
import { CARD, counts, gatewayWith, hpfSession, sessionBody } from './session-helpers.js'

/** Standards: "Bad input always gets a clear, structured error and changes no state; nothing a user sends may produce a 500." */
describe('odd input on the session and card endpoints', () => {
  const sessionBodies: Record<string, unknown>[] = [
    {},
    { ...sessionBody(), order: 'x' },
    { ...sessionBody(), methods: 'card' },
    { ...sessionBody(), methods: [1, null] },
    // `parameters: null` is taken as absent (docs/rules.md#null-objects); a string is not an object.
    { ...sessionBody(), parameters: 'x' },
    { ...sessionBody(), parameters: { card: 'x', awcc: [] } },
    { ...sessionBody(), session_expiry: 0 },
    { ...sessionBody(), card_token: 42 },
    { ...sessionBody(), customer: 'x' },
    { ...sessionBody(), hash: null },
    sessionBody({ order: { amount: '-1.00' } }),
    sessionBody({ order: { currency: 'ZZZ' } }),
  ]

  it.each(sessionBodies.map((b, i) => [i, b] as const))(
    'session body #%i gets a structured 4xx',
    async (_, body) => {
      const t = gatewayWith()
      for (const path of ['/api/v1/session', '/api/v1/session/token']) {
        const r = await t.call('POST', path, body)
        expect(r.status, r.raw).toBeGreaterThanOrEqual(400)
        expect(r.status, r.raw).toBeLessThan(500)
        expect(r.body).toMatchObject({ http_code: r.status, error_code: expect.any(Number) })
      }
      expect(t.store.count('sessions')).toBe(0)
    },
  )

  const cardBodies: Record<string, unknown>[] = [
    {},
    { ...CARD, card_number: 4111111111111111 },
    { ...CARD, card_exp_month: '1' },
    { ...CARD, card_exp_year: '30' },
    { ...CARD, card_cvv2: 123 },
    { ...CARD, browser_info: 'x' },
    { ...CARD, browser_info: { color_depth: 'deep' } },
    { ...CARD, card_number: '0000000000000000000000' },
  ]

  it.each(cardBodies.map((b, i) => [i, b] as const))(
    'card body #%i gets a structured 400',
    async (_, body) => {
      const t = gatewayWith()
      const token = await hpfSession(t)
      const before = counts(t)
      const r = await t.call('POST', '/api/v1/processing/purchase/card', body, { Token: token })
      expect(r.status, r.raw).toBe(400)
      expect(r.body.error_message).toBe('Request data is invalid.')
      expect(counts(t)).toEqual(before)
    },
  )

  it('answers odd update bodies and tokens with structured errors', async () => {
    const t = gatewayWith()
    const token = await hpfSession(t)
    for (const [body, headers] of [
      [{ order_amount: 10 }, { Token: token }],
      [{ parameters: { card: 1 } }, { Token: token }],
      [{ custom_data: 'x' }, { Token: token }],
      [{ order_amount: '1.00' }, { Token: '   ' }],
      [{ order_amount: '1.00' }, { Token: '../../etc' }],
    ] as const) {
      const r = await t.call('PUT', '/api/v1/session/update', body, headers)
      expect(r.status, r.raw).toBeGreaterThanOrEqual(400)
      expect(r.status, r.raw).toBeLessThan(500)
    }
    expect(t.store.findBy('sessions', 'token', token)[0]?.request.order).toMatchObject({ amount: '10.00' })
  })
})
