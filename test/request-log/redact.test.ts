import { describe, expect, it } from 'vitest'
import {
  REMOVED,
  redactBody,
  redactHeaders,
  redactText,
  redactValue,
} from '../../src/core/request-log/redact.js'

/**
 * docs/rules.md#request-log, privacy: a card number is kept only masked (first 6, last 4), a
 * security code and a password not at all, a token's value never; whatever form they come in.
 */
describe('redaction of what the request log, the order scenario and the replay keep', () => {
  it('masks card numbers under their keys, in free text, in URLs and in forms (spaces, dashes, +)', () => {
    expect(redactValue({ card_number: '4111111111111111' })).toEqual({ card_number: '411111******1111' })
    expect(redactValue({ card: { number: '5555 5555 5555 4444' } })).toEqual({
      card: { number: '555555******4444' },
    })
    expect(redactText('paid with 4111 1111 1111 1111 today')).toBe('paid with 411111******1111 today')
    expect(redactText('https://shop.example/?pan=4111-1111-1111-1111')).toBe(
      'https://shop.example/?pan=411111******1111',
    )
    expect(
      redactBody('card_number=4111+1111+1111+1111&card_exp=01%2F30', 'application/x-www-form-urlencoded'),
    ).toBe('card_number=411111******1111&card_exp=01%2F30')
  })

  it('leaves ids, amounts and numbers that are not cards as they are', () => {
    const ids = 'order 1234567890123 of 2026-12-06, trans 548fa968-7781-4284-b9fe-9a59ffb13d1d, 10.00 EUR'
    expect(redactText(ids)).toBe(ids)
    // A JSON number is never a card (cards travel as strings), even when its digits pass Luhn.
    expect(redactText('{"now_ms":4111111111111111}')).toBe('{"now_ms":4111111111111111}')
  })

  it('leaves security codes and passwords out entirely, in objects, forms and JSON text', () => {
    expect(redactValue({ card_cvv2: '737', password: 'p', order: { amount: '1.00' } })).toEqual({
      order: { amount: '1.00' },
    })
    expect(redactBody('a=1&card_cvv2=737&merchant_pass=x', 'application/x-www-form-urlencoded')).toBe('a=1')
    expect(redactBody('{"cvv2":"737","password":"x","b":2}', 'application/json')).toBe('{"b":2}')
  })

  it('leaves out the CARD2CARD payer card security code and masks its card number (S2S CARD 5.6.2 field names)', () => {
    const body = {
      payer_card_number: '4111111111111111',
      payer_card_cvv2: '737',
      payee_card_number: '5555555555554444',
    }
    expect(redactValue(body)).toEqual({
      payer_card_number: '411111******1111',
      payee_card_number: '555555******4444',
    })
    expect(
      redactBody(
        'payer_card_number=4111111111111111&payer_card_cvv2=737&a=1',
        'application/x-www-form-urlencoded',
      ),
    ).toBe('payer_card_number=411111******1111&a=1')
    expect(redactBody('{"payer_card_cvv2":"737","b":2}', 'application/json')).toBe('{"b":2}')
    // In free text (a URL, a JSON answer kept as text) the value goes, the key stays.
    expect(redactText('https://shop.example/?x=1&payer_card_cvv2=737')).toBe(
      'https://shop.example/?x=1&payer_card_cvv2=[removed]',
    )
    expect(redactText('{"payer_card_cvv2":"737"}')).toBe('{"payer_card_cvv2":"[removed]"}')
  })

  it('replaces tokens, keeps flags named like tokens and role placeholders', () => {
    expect(
      redactValue({ card_token: 'a'.repeat(32), req_token: true, recurring_token: 'N', token: '[token-2]' }),
    ).toEqual({
      card_token: REMOVED,
      req_token: true,
      recurring_token: 'N',
      token: '[token-2]',
    })
    expect(redactText('http://sandbox.test/auth/0123456789abcdefghij/pay')).toBe(
      'http://sandbox.test/auth/[removed]/pay',
    )
    expect(redactText('{"token":"0123456789abcdef"}')).toBe('{"token":"[removed]"}')
    expect(
      redactHeaders({ token: 'abcdefghijkl', cookie: 's=1', 'x-sandbox-control-token': 't', accept: '*/*' }),
    ).toEqual({
      token: REMOVED,
      cookie: REMOVED,
      accept: '*/*',
    })
  })
})
