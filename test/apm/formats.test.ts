import { describe, expect, it } from 'vitest'
import { base58check, cashAddress, cryptoAddress, segwitAddress } from '../../src/core/apm/crypto-address.js'
import { crc16, emvQrPayload } from '../../src/core/apm/emv-qr.js'
import { normalizePhone, phoneFormat } from '../../src/core/apm/phone-formats.js'

const hex = (s: string) => Buffer.from(s, 'hex')

// The published test vectors of each address format: an address that passes them passes a wallet's checks.
describe('crypto address encodings', () => {
  it('BIP 173 segwit v0 (bech32)', () => {
    expect(segwitAddress('bc', hex('751e76e8199196d454941c45d1b3a323f1433bd6'))).toBe(
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    )
  })

  it('Base58Check (Bitcoin P2PKH, and the Tron zero address)', () => {
    expect(base58check(0x00, hex('010966776006953d5567439e5e39f86a0d273bee'))).toBe(
      '16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM',
    )
    expect(base58check(0x41, new Uint8Array(20))).toBe('T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb')
  })

  it('CashAddr (Bitcoin Cash)', () => {
    expect(cashAddress('bitcoincash', hex('76a04053bda0a88bda5177b86a15c3b29f559873'))).toBe(
      'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a',
    )
  })

  it('falls back to an Ethereum-style account for an unknown crypto_type', () => {
    expect(cryptoAddress('p', { crypto_type: 'SOMECOIN' })).toMatchObject({
      network: 'ethereum',
      format: 'hex',
    })
  })
})

describe('EMV QR payload', () => {
  it('uses CRC-16/CCITT-FALSE (check value 29B1)', () => {
    expect(crc16('123456789')).toBe('29B1')
  })

  it('builds a PromptPay code with the Thai template and currency 764', () => {
    const payload = emvQrPayload({
      method: 'payok-promptpay',
      paymentId: '3f1c2b9a-1111-2222-3333-444455556666',
      amount: '100.00',
      currency: 'THB',
      country: 'TH',
    })
    expect(payload).toContain('0016A000000677010111')
    expect(payload).toContain('5303764')
    expect(payload).toContain('5802TH')
    expect(payload.slice(-4)).toBe(crc16(payload.slice(0, -4)))
  })
})

describe('phone numbers', () => {
  it('knows the country plans and falls back to any E.164 number', () => {
    expect(phoneFormat('tg')).toMatchObject({ country: 'TG', calling_code: '+228' })
    expect(phoneFormat(undefined)).toEqual({ pattern: '^\\+[1-9][0-9]{7,14}$', example: '+44 7700 900123' })
  })

  it('adds the calling code (sent apart or the country one), drops the trunk 0, refuses what does not fit', () => {
    const gb = phoneFormat('GB')
    expect(normalizePhone(gb, '07700 900123')).toBe('+447700900123')
    expect(normalizePhone(gb, '7700900123', '44')).toBe('+447700900123')
    expect(normalizePhone(gb, '0044 7700 900123')).toBe('+447700900123')
    expect(normalizePhone(gb, '020 7946 0000')).toBeUndefined() // a landline: no app on it
    expect(normalizePhone(phoneFormat('BJ'), '01 97 12 34 56')).toBe('+2290197123456')
    expect(normalizePhone(phoneFormat(undefined), '12345')).toBeUndefined()
  })
})
