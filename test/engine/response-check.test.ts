import { describe, expect, it } from 'vitest'
import { checkResponse } from '../helpers/response-check.js'

// Issue 11 point 1: the test gateway checks every 200 answer against its x-endpoint.response schema.
describe('the response check of the test gateway', () => {
  it('accepts an answer of the refund response schema and refuses one that breaks it', () => {
    const id = '6f1f4a5e-2f47-4a8b-9a3e-0c1d2e3f4a5b'
    expect(() =>
      checkResponse('POST', '/api/v1/payment/refund', {}, 200, { payment_id: id, result: 'accepted' }),
    ).not.toThrow()
    expect(() => checkResponse('POST', '/api/v1/payment/refund', {}, 200, { payment_id: id })).toThrow(
      /refund-response/,
    )
  })

  it('picks the S2S response by action, and the v2 schema on /v2/post', () => {
    expect(() => checkResponse('POST', '/post', 'action=SALE', 200, { action: 'SALE' })).toThrow(
      /sale-response/,
    )
    expect(() => checkResponse('POST', '/v2/post', 'action=SALE', 200, { action: 'SALE' })).toThrow(
      /sale-response-v2/,
    )
  })

  it('leaves refusals and unknown routes alone', () => {
    expect(() => checkResponse('POST', '/api/v1/payment/refund', {}, 400, { nothing: true })).not.toThrow()
    expect(() => checkResponse('GET', '/nothing/here', undefined, 200, { anything: 1 })).not.toThrow()
  })

  // Issue 21 point 7: the control routes' answers are checked against schemas/control/ too.
  it('checks a control route against its schemas/control/ response, path parameters matched', () => {
    expect(() => checkResponse('GET', '/sandbox/health', undefined, 200, { anything: 1 })).toThrow(
      /health-response/,
    )
    expect(() =>
      checkResponse('POST', '/sandbox/payments/p-1/3ds', {}, 200, { payment_id: 'p-1', status: 'settled' }),
    ).toThrow(/payer-answer-response/)
    expect(() =>
      checkResponse('POST', '/sandbox/payments/p-1/3ds', {}, 200, {
        payment_id: 'p-1',
        status: 'settled',
        api_status: 'settled',
      }),
    ).not.toThrow()
  })
})
