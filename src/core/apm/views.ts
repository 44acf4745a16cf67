import type { MethodCatalogueEntry } from '../../generated/types.js'
import { md5 } from '../signatures/index.js'
import { type CryptoAddress, cryptoAddress } from './crypto-address.js'
import { emvQrPayload } from './emv-qr.js'
import { normalizePhone, type PhoneFormat, phoneFormat } from './phone-formats.js'
import type { ApmPayment } from './types.js'

/** What a simulator page shows beside the order, per behaviour group (2.2.2), as plain data. */

export interface PhoneInfo {
  format: PhoneFormat
  /** The payer's number in that form, when the merchant sent one that fits it. */
  value?: string
  /** The payer's number as the merchant sent it (with its country code), when it does not fit the form. */
  given?: string
}

/** A row of payment details, named by `key` so a page can word it in the payer's language. */
export interface DetailRow {
  key: 'beneficiary' | 'provider' | 'account' | 'reference' | 'amount' | 'upi_id'
  label: string
  value: string
}

export type PayerView =
  | { kind: 'redirect'; message: string }
  | { kind: 'widget'; message: string }
  | { kind: 'wallet'; message: string }
  | { kind: 'extra_page_fields'; message: string; phone?: PhoneInfo }
  | { kind: 'mobile_app'; message: string; app_link: string }
  | { kind: 'qr'; message: string; qr_payload: string }
  | { kind: 'payment_details'; message: string; details: DetailRow[] }
  | { kind: 'app_confirmation'; prompt: string; phone: PhoneInfo }
  | { kind: 'device_confirmation'; prompt: string; phone: PhoneInfo; auth_method?: 'STK_PROMPT' }
  | {
      kind: 'message_link'
      channel: 'email' | 'sms'
      recipient?: string
      link: string
      security_question?: string
    }
  | ({
      kind: 'crypto_address'
      network_type?: string
      bech32: boolean
      /** crypto-btg: "no fixed amount" (null); awcc: the order amount in the order currency. */
      amount: string | null
      currency: string | null
    } & CryptoAddress)

export interface ViewInput {
  payment: ApmPayment
  entry: MethodCatalogueEntry
  /** The simulator page's own address (message links point at it). */
  pageUrl: string
  /** The method's country, else the payer's. */
  country?: string
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined)
const amountText = (p: ApmPayment) => `${p.order.amount} ${p.order.currency}`

/** Digits derived from the payment id: stable account numbers and references for seeded runs. */
const digitsOf = (seed: string, n: number): string =>
  (BigInt(`0x${md5(seed)}`) % 10n ** BigInt(n)).toString().padStart(n, '0')

function phoneOf(input: ViewInput): PhoneInfo {
  const format = phoneFormat(input.country)
  const payer = input.payment.payer ?? {}
  const value = normalizePhone(format, payer.payer_phone, payer.payer_phone_country_code)
  if (value) return { format, value }
  const phone = str(payer.payer_phone)
  if (!phone) return { format }
  const code = str(payer.payer_phone_country_code)?.replace(/\D/g, '')
  return { format, given: code && !phone.startsWith('+') ? `+${code} ${phone}` : phone }
}

const isTrue = (value: unknown) => value === true || value === 'true' || value === '1'

export function viewFor(input: ViewInput): PayerView {
  const { payment, entry } = input
  const title = entry.title
  switch (payment.apm.group) {
    case 'widget':
      return { kind: 'widget', message: `The ${title} widget would open here to take the payment.` }
    case 'wallet':
      return {
        kind: 'wallet',
        message: `Confirm the payment of ${amountText(payment)} in the device wallet.`,
      }
    case 'mobile_app':
      return { kind: 'mobile_app', message: `Open the ${title} app to pay.`, app_link: appLink(payment) }
    case 'qr':
      return {
        kind: 'qr',
        message: `Scan the code with the ${title} app to pay ${amountText(payment)}.`,
        qr_payload: emvQrPayload({
          method: payment.method,
          paymentId: payment.id,
          amount: payment.order.amount,
          currency: payment.order.currency,
          country: input.country ?? (payment.method.includes('promptpay') ? 'TH' : 'BR'),
        }),
      }
    case 'payment_details':
      return {
        kind: 'payment_details',
        message: `Pay ${amountText(payment)} with these details; the reference identifies the payment.`,
        details: paymentDetails(payment, title),
      }
    case 'app_confirmation':
      return {
        kind: 'app_confirmation',
        prompt: `Confirm the payment of ${amountText(payment)} in the ${title} app.`,
        phone: phoneOf(input),
      }
    case 'device_confirmation':
      return {
        kind: 'device_confirmation',
        prompt: `Approve the payment request of ${amountText(payment)} sent to your phone.`,
        phone: phoneOf(input),
        ...(entry.response_fields?.includes('auth_method') ? { auth_method: 'STK_PROMPT' as const } : {}),
      }
    case 'extra_page_fields': {
      const asksPhone = entry.collects_on_page.some((f) => f.includes('phone'))
      return {
        kind: 'extra_page_fields',
        message: `${title} needs a few more details before the payment.`,
        ...(asksPhone ? { phone: phoneOf(input) } : {}),
      }
    }
    case 'message_link':
      return messageLink(input)
    case 'crypto_address':
      return cryptoView(payment)
    default:
      return { kind: 'redirect', message: `This page stands for the ${title} provider's own payment page.` }
  }
}

function appLink(payment: ApmPayment): string {
  const reference = payment.id.replace(/-/g, '').slice(0, 20)
  const { amount, currency } = payment.order
  if (payment.method.includes('upi'))
    return `upi://pay?pa=paysandbox@upi&pn=PAYSANDBOX&tr=${reference}&am=${amount}&cu=${currency}`
  return `paysandbox://${encodeURIComponent(payment.method)}/pay?payment_id=${encodeURIComponent(payment.id)}`
}

function paymentDetails(payment: ApmPayment, title: string): DetailRow[] {
  const reference = `PSB${digitsOf(`${payment.id}:ref`, 11)}`
  const details: DetailRow[] = [
    { key: 'beneficiary', label: 'Beneficiary', value: 'Paysandbox Test Beneficiary' },
    { key: 'provider', label: 'Provider', value: title },
    { key: 'account', label: 'Account number', value: digitsOf(`${payment.id}:account`, 16) },
    { key: 'reference', label: 'Reference', value: reference },
    { key: 'amount', label: 'Amount', value: amountText(payment) },
  ]
  if (payment.method.includes('upi'))
    details.splice(2, 1, { key: 'upi_id', label: 'UPI ID', value: 'paysandbox@upi' })
  return details
}

function messageLink(input: ViewInput): PayerView {
  const { payment } = input
  const channel = payment.method.endsWith('sms') ? 'sms' : 'email'
  const payer = payment.payer ?? {}
  const identifier = payment.apm.identifier
  const recipient =
    channel === 'email'
      ? (str(payer.payer_email) ?? (identifier?.includes('@') ? identifier : undefined))
      : (phoneOf(input).value ?? str(payer.payer_phone))
  // The answer to the security question is the payer's secret: it is never shown.
  const question = str(payment.apm.parameters?.SecurityQuestion)
  return {
    kind: 'message_link',
    channel,
    ...(recipient ? { recipient } : {}),
    link: input.pageUrl,
    ...(question ? { security_question: question } : {}),
  }
}

function cryptoView(payment: ApmPayment): PayerView {
  const params = payment.apm.parameters ?? {}
  const cryptoType = str(params.crypto_type) ?? 'BTC'
  const networkType = str(params.network_type)
  const bech32 = isTrue(params.bech32)
  const fixed = payment.method !== 'crypto-btg'
  return {
    kind: 'crypto_address',
    ...cryptoAddress(payment.id, {
      crypto_type: cryptoType,
      bech32,
      ...(networkType ? { network_type: networkType } : {}),
    }),
    ...(networkType ? { network_type: networkType } : {}),
    bech32,
    amount: fixed ? payment.order.amount : null,
    currency: fixed ? payment.order.currency : null,
  }
}
