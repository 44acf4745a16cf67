import { describe, expect, it } from 'vitest'
import type { StoredCard } from '../../src/core/engine/model.js'
import { cardBrand, cardExpired, isMotoType, luhnValid, toStoredCard } from '../../src/core/payments/card.js'
import { authorizeCard, outcomeAfterPayerStep } from '../../src/core/payments/connector.js'

const card = (number: string, month: string, year = '2030'): StoredCard =>
  toStoredCard({ number, expMonth: month, expYear: year })

const sale = { held: false, moto: false }
const held = { held: true, moto: false }

describe('simulated card connector (docs/rules.md#test-data)', () => {
  // "the expiry month picks the outcome: 01 success (PENDING with auth), 02 decline, 03 authorization succeeds then
  // capture is declined, 05 3DS then success, 06 3DS then decline, 12 redirect then success"
  it.each([
    ['01', sale, { kind: 'approve' }],
    ['01', held, { kind: 'approve' }],
    ['02', sale, { kind: 'decline', reason: 'Declined by processing.' }],
    ['03', held, { kind: 'approve', scenario: 'capture-declined' }],
    ['03', sale, { kind: 'decline', reason: 'Capture declined' }],
    ['05', sale, { kind: '3ds' }],
    ['06', held, { kind: '3ds' }],
    ['12', sale, { kind: 'redirect' }],
    ['04', sale, { kind: 'approve' }],
  ] as const)('month %s (%o) -> %o', (month, options, expected) => {
    expect(authorizeCard(card('4111111111111111', month), options)).toEqual(expected)
  })

  // "`1111222233334444`: "Brand of card does not support.""
  it('declines 1111222233334444 whatever the month', () => {
    for (const month of ['01', '05', '12']) {
      expect(authorizeCard(card('1111222233334444', month), sale)).toEqual({
        kind: 'decline',
        reason: 'Brand of card does not support.',
      })
    }
  })

  // docs/engine.md: "Any other number that passes Luhn behaves as month 01 (sandbox)" (and follows the month rules)
  it('applies the month rules to any other card', () => {
    expect(authorizeCard(card('5555555555554444', '01'), sale)).toEqual({ kind: 'approve' })
    expect(authorizeCard(card('5555555555554444', '02'), sale).kind).toBe('decline')
  })

  // 2.5: "For a MOTO value: ... the platform does not start the configured MPI service"
  it('skips 3DS for MOTO: 05 approves and 06 declines at once', () => {
    expect(authorizeCard(card('4111111111111111', '05'), { held: false, moto: true })).toEqual({
      kind: 'approve',
    })
    expect(authorizeCard(card('4111111111111111', '06'), { held: false, moto: true }).kind).toBe('decline')
  })

  // "(year 2039: redirect then decline)"
  it('decides after the payer step: 05 and 12 approve, 06 and 12/2039 decline', () => {
    expect(outcomeAfterPayerStep(card('4111111111111111', '05'))).toEqual({ kind: 'approve' })
    expect(outcomeAfterPayerStep(card('4111111111111111', '12'))).toEqual({ kind: 'approve' })
    expect(outcomeAfterPayerStep(card('4111111111111111', '06')).kind).toBe('decline')
    expect(outcomeAfterPayerStep(card('4111111111111111', '12', '2039'))).toEqual({
      kind: 'decline',
      reason: 'Declined by processing.',
    })
  })
})

describe('card helpers', () => {
  it('checks the Luhn digit', () => {
    for (const ok of [
      '4111111111111111',
      '1111222233334444',
      '4601541833776519',
      '5555555555554444',
      '378282246310005',
    ])
      expect(luhnValid(ok), ok).toBe(true)
    for (const bad of ['4111111111111112', '1234', '41111111111111a1', ''])
      expect(luhnValid(bad), bad).toBe(false)
  })

  it('names the brand by number range', () => {
    expect(cardBrand('4111111111111111')).toBe('visa')
    expect(cardBrand('5555555555554444')).toBe('mastercard')
    expect(cardBrand('2221000000000009')).toBe('mastercard')
    expect(cardBrand('378282246310005')).toBe('amex')
    expect(cardBrand('6011111111111117')).toBe('discover')
    expect(cardBrand('3530111333300000')).toBe('jcb')
    expect(cardBrand('1111222233334444')).toBe('unknown')
  })

  it('keeps a card valid through its expiry month (UTC)', () => {
    const now = Date.UTC(2026, 10, 30, 23, 59) // 30 November 2026
    expect(cardExpired('11', '2026', now)).toBe(false)
    expect(cardExpired('10', '2026', now)).toBe(true)
    expect(cardExpired('01', '2027', now)).toBe(false)
    expect(cardExpired('12', '2025', now)).toBe(true)
  })

  // docs/engine.md: "keep `StoredCard` (masked `411111******1111`, bin, last4, brand, expiry)"
  it('stores a card masked', () => {
    expect(
      toStoredCard({ number: '4111111111111111', expMonth: '01', expYear: '2030', holder: 'A B' }),
    ).toEqual({
      masked: '411111******1111',
      bin: '411111',
      last4: '1111',
      brand: 'visa',
      exp_month: '01',
      exp_year: '2030',
      holder: 'A B',
    })
  })

  // 2.5 moto_type values: `phone_moto`, `email_moto`, `default_moto`, `ecommerce`
  it('treats phone, email and default MOTO as MOTO, ecommerce not', () => {
    expect(['phone_moto', 'email_moto', 'default_moto', 'ecommerce', undefined].map(isMotoType)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ])
  })
})
