import { describe, expect, it } from 'vitest'
import {
  canonicalMethodId,
  findMethod,
  resolveMethodId,
  suggestMethods,
  unknownMethodHint,
  walletName,
} from '../../src/core/payments/methods.js'

// docs/rules.md#business-codes: "the catalogue's provider-named stand-ins carry their public identifiers as
// aliases: `wallet1` = `applepay`, `wallet2` = `googlepay` ... A merchant's configuration may add
// aliases for the other stand-ins (`procA`, `bnplA`, …). An unknown identifier's error lists the
// near matches."
describe('method identifiers (docs/rules.md#transport)', () => {
  it('takes applepay and googlepay for the device-wallet stand-ins', () => {
    expect(findMethod('applepay')?.id).toBe('wallet1')
    expect(findMethod('googlepay')?.id).toBe('wallet2')
    expect(canonicalMethodId('applepay')).toBe('wallet1')
    expect(walletName('wallet2')).toBe('googlepay')
    expect(walletName('applepay')).toBe('applepay')
    expect(walletName('card')).toBeUndefined()
  })

  it("takes a merchant's own aliases after the catalogue's identifiers, never over them", () => {
    const aliases = { klarna: 'bnplA', card: 'bnplB', 'pix-br': 'ptw-pix' }
    expect(findMethod('klarna')).toBeUndefined()
    expect(findMethod('klarna', aliases)?.id).toBe('bnplA')
    expect(resolveMethodId('klarna', aliases)).toBe('bnplA')
    expect(findMethod('card', aliases)?.id).toBe('card')
    expect(resolveMethodId('pix-br', aliases)).toBe('ptw-pix')
    expect(findMethod('nothing', { nothing: 'nowhere' })).toBeUndefined()
  })

  it('names the closest valid identifiers of an unknown one', () => {
    expect(suggestMethods('apple_pay')).toEqual(['applepay'])
    expect(suggestMethods('google-pay')).toEqual(['googlepay'])
    expect(suggestMethods('crad')).toContain('card')
    expect(suggestMethods('wallet3')).toEqual(['wallet1', 'wallet2', 'walletTR'])
    expect(suggestMethods('klarnna', { klarna: 'bnplA' })).toContain('klarna')
    expect(suggestMethods('zzzzzzzz')).toEqual([])
    expect(unknownMethodHint('apple_pay')).toBe(' Did you mean: applepay?')
    expect(unknownMethodHint('zzzzzzzz')).toBe(' The identifiers are those of the interface, section 2.2.')
  })
})
