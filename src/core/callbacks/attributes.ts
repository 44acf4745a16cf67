import { findMethod } from '../payments/methods.js'
import type { Payment, StoredCard, Transaction } from '../engine/model.js'
import { md5 } from '../signatures/index.js'
import { isSecondary, obj, type PaymentFacts, paidWithToken, str } from './facts.js'

/** The values of the Events section's attribute groups, derived from what the payment recorded. */

const BROWSER_KEYS = [
  'color_depth',
  'screen_height',
  'screen_width',
  'java_enabled',
  'javascript_enabled',
  'language',
  'timezone_offset',
  'user_agent',
  'accept_headers',
  'platform',
] as const

/** `browser_info` keys come without the prefix (Hosted Payment Fields); callbacks add `browser_`. */
export function browserAttributes(payment: Payment): Record<string, string | undefined> {
  const info = payment.browser_info ?? {}
  const out: Record<string, string | undefined> = {}
  for (const key of BROWSER_KEYS) {
    const value = info[key] ?? info[`browser_${key}`]
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      out[`browser_${key}`] = String(value)
  }
  return out
}

const THREE_DS_KEYS = [
  'threeDSServerTransID',
  'dsTransID',
  'acsTransID',
  'xid',
  'transStatus',
  'transStatusReason',
  'eci',
  'protocolVersion',
  'authenticationFlow',
] as const

/** `mpi_data` names (2.4) of the same values, for payments whose 3DS ran at the merchant's MPI. */
const MPI_NAMES: Record<string, (typeof THREE_DS_KEYS)[number]> = {
  ds_trans_id: 'dsTransID',
  '3ds_version': 'protocolVersion',
  trans_status: 'transStatus',
  eci: 'eci',
  xid: 'xid',
}

export function threeDsAttributes(payment: Payment): Record<string, string | undefined> {
  const data = payment.three_ds
  if (!data) return {}
  const out: Record<string, string | undefined> = {}
  for (const [key, value] of Object.entries(data.attributes ?? {})) {
    const name = (THREE_DS_KEYS as readonly string[]).includes(key) ? key : MPI_NAMES[key]
    if (name && typeof value === 'string') out[name] = value
  }
  if (data.authenticationFlow) out.authenticationFlow ??= data.authenticationFlow
  return out
}

/** "Payer attributes": what the payment recorded, else the Checkout request's customer and billing address. */
export function payerAttributes(facts: PaymentFacts): Record<string, string | undefined> {
  const customer = obj(facts.request.customer) ?? {}
  const billing = obj(facts.request.billing_address) ?? {}
  const [first, ...rest] = (str(customer.name) ?? '').trim().split(/\s+/)
  const fromRequest: Record<string, string | undefined> = {
    payer_first_name: first || undefined,
    payer_last_name: rest.join(' ') || undefined,
    payer_birth_date: str(customer.birth_date),
    payer_email: str(customer.email),
    payer_address: str(billing.address),
    payer_house_number: str(billing.house_number),
    payer_phone_country_code: str(billing.phone_country_code),
    payer_country: str(billing.country),
    payer_state: str(billing.state),
    payer_city: str(billing.city),
    payer_district: str(billing.district),
    payer_zip: str(billing.zip),
    payer_phone: str(billing.phone),
    payer_ip: str(facts.payment.customer_ip) ?? str(facts.request.payer_ip),
  }
  const recorded = facts.payment.payer ?? {}
  const out: Record<string, string | undefined> = {}
  for (const key of Object.keys(fromRequest)) {
    out[key] = str(recorded[key]) ?? str(recorded[key.slice('payer_'.length)]) ?? fromRequest[key]
  }
  out.payer_address2 = str(recorded.payer_address2) ?? str(recorded.address2)
  return out
}

/** Card expiry as `MM/YYYY`. */
export function cardExpiration(card: StoredCard | undefined): string | undefined {
  if (!card?.exp_month || !card.exp_year) return undefined
  const year = card.exp_year.length === 2 ? `20${card.exp_year}` : card.exp_year
  return `${card.exp_month.padStart(2, '0')}/${year}`
}

const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
}

/** The brand of the card, or of the method for methods without a card (the APM test brand `vcard`). */
export function brandOf(payment: Payment): string | undefined {
  const brand = payment.card?.brand
  if (brand && brand !== 'unknown') return brand
  return payment.method === 'card' ? undefined : payment.method
}

/** "checkout-terminology name, for example the wallet or card name" (Events). */
export function checkoutPaymentMethod(payment: Payment): string {
  if (payment.method === 'card') return BRAND_NAMES[payment.card?.brand ?? ''] ?? 'Card'
  return findMethod(payment.method)?.title ?? payment.method
}

/**
 * (sandbox) Card-on-file attributes; the interface does not show their values, so the sandbox
 * uses the card schemes' words: who started it, how, and whether a stored credential was reused.
 */
export function cardOnFile(facts: PaymentFacts): { initiator?: string; source?: string; sequence?: string } {
  const { payment, extras } = facts
  if (!payment.card && !payment.card_token) return {}
  const secondary = isSecondary(payment)
  const moto = payment.moto_type !== undefined && payment.moto_type !== 'ecommerce'
  return {
    initiator: extras.initiator ?? (secondary || payment.operation === 'credit' ? 'merchant' : 'cardholder'),
    source: extras.source ?? (moto ? 'moto' : secondary ? 'recurring' : 'ecommerce'),
    sequence: extras.sequence ?? (secondary || paidWithToken(facts) ? 'subsequent' : 'initial'),
  }
}

/**
 * (sandbox) RRN of a card transaction: 12 digits derived from the transaction id, so repeated
 * runs with seeded ids answer the same. ARN is never simulated: "sent empty when missing".
 */
export function referenceNumbers(facts: PaymentFacts, tx: Transaction): { ARN: string; RRN: string } {
  const derived = facts.payment.card
    ? (BigInt(`0x${md5(tx.id).slice(0, 15)}`) % 10n ** 12n).toString().padStart(12, '0')
    : ''
  return { ARN: facts.extras.arn ?? '', RRN: facts.extras.rrn ?? derived }
}

/** The platform's extended-data fields, sent flat (docs/rules.md#callbacks). */
export const EXTENDED_DATA_FIELDS = [
  'connector_name',
  'rrn',
  'approval_code',
  'gateway_id',
  'extra_gateway_id',
  'merchant_name',
  'mid_name',
  'issuer_country',
  'issuer_bank',
] as const

/** (sandbox) The test connector's issuer of every card it simulates (docs/rules.md#extended-data). */
export const TEST_ISSUER = { country: 'US', bank: 'Paysandbox Test Bank' } as const

/**
 * Extended data as flat fields (docs/rules.md#extended-data): the acquirer's own values where the
 * payment recorded them (`extended_data`), else (sandbox) what the sandbox's test connector knows:
 * its name, the RRN and an approval code derived from the transaction (stable with seeded ids),
 * the transaction id as the gateway's and a second id derived from it as the extra gateway id,
 * the merchant and MID, and for a card its test issuer (`US`, "Paysandbox Test Bank"). Every one
 * of the nine fields can thus be enabled with `extended_data`.
 */
export function flatExtendedData(facts: PaymentFacts, tx: Transaction): Record<string, string | undefined> {
  const recorded = obj(facts.extras.extended_data) ?? {}
  const approved = tx.status === 'success' && Boolean(facts.payment.card)
  const derived: Record<string, string | undefined> = {
    connector_name: 'paysandbox test connector',
    rrn: facts.payment.card ? referenceNumbers(facts, tx).RRN : undefined,
    approval_code: approved
      ? md5(`approval:${tx.id}`)
          .replace(/[^0-9]/g, '')
          .padEnd(6, '0')
          .slice(0, 6)
      : undefined,
    gateway_id: tx.id,
    extra_gateway_id: md5(`extra-gateway:${tx.id}`).slice(0, 20),
    merchant_name: facts.merchant.name ?? facts.merchant.key,
    mid_name: facts.payment.mid_id,
    issuer_country: facts.payment.card ? TEST_ISSUER.country : undefined,
    issuer_bank: facts.payment.card ? TEST_ISSUER.bank : undefined,
  }
  const out: Record<string, string | undefined> = {}
  for (const key of EXTENDED_DATA_FIELDS) {
    const value = recorded[key]
    out[key] = typeof value === 'string' || typeof value === 'number' ? String(value) : derived[key]
  }
  return out
}
