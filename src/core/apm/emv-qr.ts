/**
 * (sandbox) The text a QR method's page encodes: an EMVCo merchant-presented QR payload, the form
 * PIX ("pix copy and paste") and PromptPay codes use, with its CRC, so a banking app's parser or a
 * merchant's test reads it as a real code of that scheme. The account in it is the sandbox's own.
 */

/** ID, two-digit length, value. */
const field = (id: string, value: string): string => `${id}${String(value.length).padStart(2, '0')}${value}`

/** CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF), four upper-case hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc.toString(16).toUpperCase().padStart(4, '0')
}

/** ISO 4217 numeric codes of the currencies QR methods are used with; 999 ("no currency") otherwise. */
const NUMERIC: Record<string, string> = {
  BRL: '986',
  THB: '764',
  IDR: '360',
  INR: '356',
  MYR: '458',
  PHP: '608',
  SGD: '702',
  VND: '704',
  MXN: '484',
  USD: '840',
  EUR: '978',
  GBP: '826',
}

export interface QrInput {
  method: string
  paymentId: string
  amount: string
  currency: string
  /** ISO 3166-1 alpha-2 of the receiving merchant (tag 58). */
  country: string
}

/** The scheme's merchant-account template (tag 26 for PIX and generic, 29 for PromptPay). */
function merchantAccount(input: QrInput): string {
  const key = input.paymentId.slice(0, 77)
  if (input.method === 'pix' || input.method.includes('pix'))
    return field('26', field('00', 'br.gov.bcb.pix') + field('01', key))
  if (input.method.includes('promptpay')) {
    // PromptPay names the receiving account by a Thai mobile number (0066 and nine digits).
    const digits = [...input.paymentId.replace(/\D/g, ''), '0', '0', '0', '0', '0', '0', '0', '0']
    return field('29', field('00', 'A000000677010111') + field('01', `00668${digits.slice(0, 8).join('')}`))
  }
  return field('26', field('00', `dev.paysandbox.${input.method}`.slice(0, 32)) + field('01', key))
}

export function emvQrPayload(input: QrInput): string {
  const reference = input.paymentId.replace(/-/g, '').slice(0, 25)
  const amount = input.amount.length <= 13 ? field('54', input.amount) : ''
  const body =
    field('00', '01') +
    field('01', '12') +
    merchantAccount(input) +
    field('52', '0000') +
    field('53', NUMERIC[input.currency.toUpperCase()] ?? '999') +
    amount +
    field('58', input.country.toUpperCase()) +
    field('59', 'PAYSANDBOX') +
    field('60', 'SANDBOX') +
    field('62', field('05', reference))
  const withCrcTag = `${body}6304`
  return withCrcTag + crc16(withCrcTag)
}
