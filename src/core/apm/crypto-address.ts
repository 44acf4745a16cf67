import { createHash } from 'node:crypto'

/**
 * (sandbox) Deposit addresses for the crypto methods (awcc, crypto-btg), in the form a wallet
 * expects for the coin and network (2.2.2 awcc: `network_type` eth or tron for USDT; `bech32` true
 * "returns a segwit-style address for BTC or a cash address for BCH"). Each address carries a
 * valid checksum of its format, so a merchant's address validation accepts it; the key behind it
 * is derived from the payment id, so nobody holds it and seeded runs repeat the same address.
 */

export interface CryptoAddress {
  crypto_type: string
  /** The chain the address belongs to. */
  network: 'bitcoin' | 'bitcoin-cash' | 'litecoin' | 'dogecoin' | 'ethereum' | 'tron'
  format: 'base58check' | 'bech32' | 'cashaddr' | 'hex'
  address: string
}

export interface CryptoRequest {
  crypto_type: string
  network_type?: string
  bech32?: boolean
}

/** The address of `request`'s coin for `seed` (the payment id). */
export function cryptoAddress(seed: string, request: CryptoRequest): CryptoAddress {
  const coin = request.crypto_type.toUpperCase()
  const hash = createHash('sha256').update(`${seed}:${coin}`).digest().subarray(0, 20)
  const at = (network: CryptoAddress['network'], format: CryptoAddress['format'], address: string) => ({
    crypto_type: coin,
    network,
    format,
    address,
  })
  switch (coin) {
    case 'BTC':
      return request.bech32
        ? at('bitcoin', 'bech32', segwitAddress('bc', hash))
        : at('bitcoin', 'base58check', base58check(0x00, hash))
    case 'BCH':
      return request.bech32
        ? at('bitcoin-cash', 'cashaddr', cashAddress('bitcoincash', hash))
        : at('bitcoin-cash', 'base58check', base58check(0x00, hash))
    case 'LTC':
      return request.bech32
        ? at('litecoin', 'bech32', segwitAddress('ltc', hash))
        : at('litecoin', 'base58check', base58check(0x30, hash))
    case 'DOGE':
      return at('dogecoin', 'base58check', base58check(0x1e, hash))
    case 'TRX':
      return at('tron', 'base58check', base58check(0x41, hash))
    case 'USDT':
      // 2.2.2: "for USDT: `eth` (default) or `tron`".
      return request.network_type === 'tron'
        ? at('tron', 'base58check', base58check(0x41, hash))
        : at('ethereum', 'hex', `0x${hash.toString('hex')}`)
    default:
      // ETH, ERC-20 tokens and any category the sandbox does not know: an Ethereum-style account.
      return at('ethereum', 'hex', `0x${hash.toString('hex')}`)
  }
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest()

/** Version byte, payload, and the first four bytes of a double SHA-256 (Bitcoin, Litecoin, Tron). */
export function base58check(version: number, payload: Uint8Array): string {
  const body = Buffer.concat([Buffer.from([version]), payload])
  const bytes = Buffer.concat([body, sha256(sha256(body)).subarray(0, 4)])
  let n = BigInt(`0x${bytes.toString('hex')}`)
  let out = ''
  while (n > 0n) {
    out = (BASE58[Number(n % 58n)] as string) + out
    n /= 58n
  }
  for (const byte of bytes) {
    if (byte !== 0) break
    out = `1${out}`
  }
  return out
}

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'

/** Regroups bits (8 to 5), padding the last group with zeros. */
function toFiveBits(bytes: Uint8Array): number[] {
  const out: number[] = []
  let acc = 0
  let bits = 0
  for (const byte of bytes) {
    acc = (acc << 8) | byte
    bits += 8
    while (bits >= 5) {
      bits -= 5
      out.push((acc >> bits) & 31)
    }
    acc &= (1 << bits) - 1
  }
  if (bits > 0) out.push((acc << (5 - bits)) & 31)
  return out
}

const BECH32_GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]

function bech32Polymod(values: number[]): number {
  let chk = 1
  for (const v of values) {
    const top = chk >>> 25
    chk = ((chk & 0x1ffffff) << 5) ^ v
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= BECH32_GEN[i] as number
  }
  return chk
}

/** BIP 173 segwit version 0 address of a 20-byte key hash (`bc1q...`, `ltc1q...`). */
export function segwitAddress(hrp: string, program: Uint8Array): string {
  const data = [0, ...toFiveBits(program)]
  const expanded = [...hrp].map((c) => c.charCodeAt(0) >> 5)
  expanded.push(0, ...[...hrp].map((c) => c.charCodeAt(0) & 31))
  const mod = bech32Polymod([...expanded, ...data, 0, 0, 0, 0, 0, 0]) ^ 1
  const checksum = [0, 1, 2, 3, 4, 5].map((i) => (mod >>> (5 * (5 - i))) & 31)
  return `${hrp}1${[...data, ...checksum].map((d) => CHARSET[d]).join('')}`
}

const CASH_GEN = [0x98f2bc8e61n, 0x79b76d99e2n, 0xf33e5fb3c4n, 0xae2eabe2a8n, 0x1e4f43e470n]

function cashPolymod(values: number[]): bigint {
  let c = 1n
  for (const d of values) {
    const top = c >> 35n
    c = ((c & 0x07ffffffffn) << 5n) ^ BigInt(d)
    for (let i = 0; i < 5; i++) if ((top >> BigInt(i)) & 1n) c ^= CASH_GEN[i] as bigint
  }
  return c ^ 1n
}

/** Bitcoin Cash CashAddr of a 20-byte key hash (P2PKH, `bitcoincash:q...`). */
export function cashAddress(prefix: string, hash: Uint8Array): string {
  const payload = toFiveBits(Buffer.concat([Buffer.from([0]), hash]))
  const prefixData = [...prefix].map((c) => c.charCodeAt(0) & 31)
  const mod = cashPolymod([...prefixData, 0, ...payload, 0, 0, 0, 0, 0, 0, 0, 0])
  const checksum = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => Number((mod >> BigInt(5 * (7 - i))) & 31n))
  return `${prefix}:${[...payload, ...checksum].map((d) => CHARSET[d]).join('')}`
}
