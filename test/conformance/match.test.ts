import { describe, expect, it } from 'vitest'
import { checkAnswer, checkError, checkField } from '../../src/conformance/match.js'

describe('field expectations', () => {
  it('compares JSON values, a form string equal to the number or boolean expected', () => {
    expect(checkField({ a: '10' }, '$.a', 10)).toBeUndefined()
    expect(checkField({ a: 'true' }, '$.a', true)).toBeUndefined()
    expect(checkField({ a: { b: [1, 2] } }, '$.a', { b: [1, 2] })).toBeUndefined()
    expect(checkField({ a: '11' }, '$.a', 10)).toBe('$.a: expected 10, found "11"')
    expect(checkField({}, '$.a', 'x')).toBe('$.a: expected "x", but it is missing')
  })

  it('has matchers for presence, patterns, choices and lengths', () => {
    expect(checkField({ a: 'x' }, '$.a', { $exists: true })).toBeUndefined()
    expect(checkField({ a: 'x' }, '$.a', { $exists: false })).toBe('$.a should be absent, found "x"')
    expect(checkField({ h: 'abc' }, '$.h', { $regex: '^[a-f]+$' })).toBeUndefined()
    expect(checkField({ h: 'xyz' }, '$.h', { $regex: '^[a-f]+$' })).toMatch(/expected text matching/)
    expect(checkField({ s: 'b' }, '$.s', { $in: ['a', 'c'] })).toBe(
      '$.s: expected one of ["a","c"], found "b"',
    )
    expect(checkField([1, 2], '$', { $length: 3 })).toBe('$: expected 3 items, found 2')
  })
})

// Errors: "Error responses carry http_code, error_code and error_message." Codes and messages are exact.
describe('answers', () => {
  it('expects a success unless told otherwise, and checks the endpoint response schema', () => {
    expect(
      checkAnswer(
        { status: 400, body: { http_code: 400, error_code: 100000, error_message: 'x' } },
        undefined,
        undefined,
      ),
    ).toEqual([expect.stringMatching(/^expected a successful answer, got HTTP 400/)])
    const problems = checkAnswer(
      { status: 200, body: { redirect_url: 42 } },
      undefined,
      'checkout/session-response',
    )
    expect(problems[0]).toMatch(/^answer does not match checkout\/session-response: redirect_url: /)
  })

  it('checks a catalogue row to the character, top-level or as an errors[] item', () => {
    const notFound = { http_code: 400, error_code: 101000, error_message: 'Payment does not exist.' }
    expect(checkError({ status: 400, body: notFound }, 'CHECKOUT_STATUS_PAYMENT_NOT_FOUND')).toEqual([])
    expect(
      checkError(
        { status: 400, body: { ...notFound, error_message: 'Payment does not exist' } },
        'CHECKOUT_STATUS_PAYMENT_NOT_FOUND',
      )[0],
    ).toMatch(/expected error 400 \/ 101000 \/ "Payment does not exist\."/)
    const zero = {
      http_code: 400,
      error_code: 100000,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'amount: This value should be greater than 0.' }],
    }
    expect(checkError({ status: 400, body: zero }, 'S2S_CARD_SALE_ZERO_AMOUNT')).toEqual([])
    expect(
      checkError({ status: 400, body: { ...zero, errors: [] } }, 'S2S_CARD_SALE_ZERO_AMOUNT')[0],
    ).toMatch(/expected an errors\[\] item/)
  })

  it('checks present and absent paths and an explicit HTTP status', () => {
    expect(
      checkAnswer({ status: 302, body: {} }, { http: 302, present: ['$.a'], absent: [] }, undefined),
    ).toEqual(['$.a is missing'])
    expect(checkAnswer({ status: 200, body: { a: 1 } }, { http: 201, absent: ['$.a'] }, undefined)).toEqual([
      'HTTP status: expected 201, got 200',
      '$.a should be absent, found 1',
    ])
  })
})
