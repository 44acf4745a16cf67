import { describe, expect, it } from 'vitest'
import { releaseOf, releaseProblems } from '../../src/core/validation/releases.js'
import { validate } from '../../src/core/validation/index.js'

// docs/rules.md#releases: "a merchant's `release` is `6.7.0` (default) or `6.6.5`. With `6.6.5` the
// sandbox applies the rules the interface's 6.7.0 row changed ... the additions of 6.7.0 are
// refused there." Versioning, 6.7.0 Additions: MOTO, trial periods, `customer.ip`, `size`,
// `custom_data` on secondary requests, `auth` in Checkout, `parameters` on capture/void/refund.

describe('releases (docs/rules.md#warnings-and-releases)', () => {
  it('defaults to 6.7.0; 6.6.5 only when the merchant is pinned to it', () => {
    expect(releaseOf(undefined)).toBe('6.7.0')
    expect(releaseOf({})).toBe('6.7.0')
    expect(releaseOf({ release: '6.7.0' })).toBe('6.7.0')
    expect(releaseOf({ release: '6.6.5' })).toBe('6.6.5')
  })

  it('the configuration takes release 6.6.5 or 6.7.0 and nothing else', () => {
    const config = (release: string) => ({
      merchants: [{ key: 'm', password: 'password-1', mids: [{ id: 'mid-1' }], release }],
    })
    expect(validate('sandbox/config', config('6.6.5')).valid).toBe(true)
    expect(validate('sandbox/config', config('6.6.2')).errors.map((e) => e.path)).toEqual([
      'merchants[0].release',
    ])
  })

  it.each([
    ['checkout/session-request', { auth: true }, 'auth'],
    ['checkout/session-request', { moto_type: 'phone_moto' }, 'moto_type'],
    ['checkout/session-request', { schedule_start_date: '2026-12-01' }, 'schedule_start_date'],
    ['checkout/session-token-request', { customer: { ip: '203.0.113.7' } }, 'customer.ip'],
    ['checkout/status-request', { size: 5 }, 'size'],
    ['checkout/recurring-request', { custom_data: { a: 1 } }, 'custom_data'],
    ['checkout/refund-request', { parameters: { x: '1' } }, 'parameters'],
  ])('%s: refuses the 6.7.0 addition %j for a 6.6.5 merchant only', (schema, body, path) => {
    expect(releaseProblems('6.6.5', schema, body)).toEqual([
      {
        path,
        message: 'This field was not expected.',
        section: 'Versioning',
        keyword: 'release',
        rule: 'releases',
      },
    ])
    expect(releaseProblems('6.7.0', schema, body)).toEqual([])
  })

  it('leaves the fields 6.6.5 already had alone', () => {
    const body = { merchant_key: 'k', operation: 'credit', customer: { name: 'A', email: 'a@b.example' } }
    expect(releaseProblems('6.6.5', 'checkout/session-token-request', body)).toEqual([])
  })
})
