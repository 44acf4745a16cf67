import type { SandboxProtocolMapping } from '../../generated/types.js'
import type { Api, Transaction } from '../engine/model.js'
import type { FormValue } from '../signatures/index.js'
import {
  brandOf,
  browserAttributes,
  cardExpiration,
  cardOnFile,
  checkoutPaymentMethod,
  flatExtendedData,
  payerAttributes,
  referenceNumbers,
  threeDsAttributes,
} from './attributes.js'
import { customerIp, isDebit, obj, type PaymentFacts, paidWithToken, str } from './facts.js'
import { toFormValue } from './form.js'

type Fields = Record<string, FormValue | undefined>

/**
 * Protocol Mapping (schemas/sandbox/protocol-mapping.schema.json) turned into callback fields.
 * Every flag is off by default ("enabled per Protocol Mapping, default off"); a flag adds its field
 * when the payment has a value for it. Fields the interface returns without a mapping setting
 * are in `alwaysFields`.
 */

const mappingOf = (facts: PaymentFacts): SandboxProtocolMapping => facts.merchant.protocol_mapping ?? {}

/** The fields of every API's callback (schema `CallbackMappedFields`). */
export function mappedFields(facts: PaymentFacts, tx: Transaction, api: Api): Fields {
  const mapping = mappingOf(facts)
  const on = mapping.callback_fields ?? {}
  const returned = new Set(mapping.return_additional_parameters ?? [])
  const out: Fields = {}
  // Checkout always carries customer_ip (docs/rules.md#callbacks); S2S only when mapped.
  if (api !== 'checkout' && on.customer_ip) out.customer_ip = customerIp(facts)
  // docs/rules.md#extended-data: extended data as the platform's flat fields, not `extended_data[...]`.
  if (on.extended_data) Object.assign(out, flatExtendedData(facts, tx))
  if (on.checkout_payment_method) out.checkout_payment_method = checkoutPaymentMethod(facts.payment)
  // "The same parameter is available in callback and status responses" (Return additional parameters).
  if (returned.has('payment_method')) out.payment_method = facts.payment.method
  if (returned.has('brand')) out.brand = brandOf(facts.payment)
  if (on.arn) Object.assign(out, referenceNumbers(facts, tx))
  const cof = cardOnFile(facts)
  if (on.initiator) out.initiator = cof.initiator
  if (on.source) out.source = cof.source
  if (on.sequence) out.sequence = cof.sequence
  const payer = payerAttributes(facts)
  for (const [key, enabled] of Object.entries(mapping.payer_attributes ?? {}))
    if (enabled) out[key] = payer[key]
  return out
}

/** The card-payment fields behind flags (schema `CallbackCardFields`): Checkout and S2S CARD. */
export function mappedCardFields(facts: PaymentFacts): Fields {
  const on = mappingOf(facts).callback_fields ?? {}
  const { payment, extras, request } = facts
  const scheduleStart = str(extras.schedule_start_date) ?? str(request.schedule_start_date)
  const out: Fields = {}
  if (payment.schedule_id || scheduleStart) {
    if (on.schedule_start_date) out.schedule_start_date = scheduleStart
    if (on.payment_schedule_amount)
      out.payment_schedule_amount =
        str(extras.payment_schedule_amount) ?? str(request.payment_schedule_amount)
    // The first scheduled payment is on schedule_start_date when the merchant set one (2.1).
    if (on.first_recurring_date) out.first_recurring_date = str(extras.first_recurring_date) ?? scheduleStart
  }
  // `card` and `card_expiration_date` are sent whenever they apply (cardFields); the flag adds the
  // token of a payment that used one, beyond the cases where it is always sent.
  if (on.card_token) out.card_token = payment.card_token
  if (on.three_ds_attributes) Object.assign(out, threeDsAttributes(payment))
  if (on.browser_attributes) Object.assign(out, browserAttributes(payment))
  return out
}

/**
 * Fields sent with no mapping setting: `custom_data` ("returned in the callback", 2.1),
 * `moto_type` (2.5), the recurring trio on a successful initial payment (2.3), and on debit
 * `card_token` in every callback plus the masked card when paid with a token (Events).
 */
export function alwaysFields(facts: PaymentFacts, tx: Transaction, api: Api): Fields {
  const { payment } = facts
  const out: Fields = { custom_data: toFormValue(payment.custom_data) }
  if (api === 's2s-apm') return out
  out.moto_type = payment.moto_type
  if (payment.recurring?.init && tx.status === 'success') {
    out.recurring_init_trans_id = payment.recurring.init_trans_id ?? payment.id
    out.recurring_token = payment.recurring.token
    out.schedule_id = payment.schedule_id
  }
  if (isDebit(payment)) {
    out.card_token = payment.card_token
    if (paidWithToken(facts)) {
      out.card = payment.card?.masked
      out.card_expiration_date = cardExpiration(payment.card)
    }
  }
  return out
}

/**
 * Card fields sent whenever they apply, with no mapping setting (docs/rules.md#callbacks: "When they
 * apply: `card` (masked), `card_expiration_date`, `card_token` (purchase with `req_token`; every
 * debit callback per the interface)"; S2S CARD likewise "`card_token`, `card`,
 * `card_expiration_date` … when they apply"). S2S APM payments have no card.
 */
export function cardFields(facts: PaymentFacts, api: Api): Fields {
  const { payment } = facts
  if (api === 's2s-apm') return {}
  const out: Fields = {}
  if (payment.card) {
    out.card = payment.card.masked
    out.card_expiration_date = cardExpiration(payment.card)
  }
  const token = str(payment.card_token)
  if (token && (api === 's2s-card' || payment.req_token || isDebit(payment))) out.card_token = token
  const wallet = digitalWallet(facts)
  if (wallet) {
    out.digital_wallet = wallet
    out.pan_type = str((facts.extras as { pan_type?: unknown }).pan_type) ?? 'dpan'
  }
  return out
}

const WALLETS = new Set(['googlepay', 'applepay'])

/** `digital_wallet` ("googlepay, applepay"): the method paid with, or what an S2S SALE recorded. */
function digitalWallet(facts: PaymentFacts): string | undefined {
  const method = facts.payment.method.toLowerCase()
  if (WALLETS.has(method)) return method
  const recorded = str((facts.extras as { digital_wallet?: unknown }).digital_wallet)?.toLowerCase()
  return recorded && WALLETS.has(recorded) ? recorded : undefined
}

/**
 * Checkout payer fields "when they apply" (docs/rules.md#callbacks): the session request's customer and
 * billing address, else what the payment recorded about the payer.
 */
export function checkoutCustomerFields(facts: PaymentFacts): Fields {
  const customer = obj(facts.request.customer) ?? {}
  const billing = obj(facts.request.billing_address) ?? {}
  const payer = facts.payment.payer ?? {}
  return {
    customer_name: str(customer.name) ?? str(payer.name),
    customer_email: str(customer.email) ?? str(payer.email) ?? str(payer.payer_email),
    customer_country: str(billing.country) ?? str(payer.country),
    customer_state: str(billing.state) ?? str(payer.state),
    customer_city: str(billing.city) ?? str(payer.city),
    customer_address: str(billing.address) ?? str(payer.address),
  }
}

/**
 * S2S CARD 3DS and redirect callbacks carry where the payer goes (docs/rules.md#callbacks:
 * "`redirect_url`, `redirect_params`, `redirect_method` on 3DS and redirect callbacks"), the same
 * values as the SALE answer: the sandbox's ACS page or redirect simulator, POSTed with `PaReq`
 * (3DS), `MD` and `TermUrl`.
 */
export function s2sRedirectFields(facts: PaymentFacts, tx: Transaction): Fields {
  const { payment } = facts
  if (tx.status !== 'waiting' || (tx.type !== '3ds' && tx.type !== 'redirect')) return {}
  const three = tx.type === '3ds'
  const params: Record<string, string> = {}
  if (three) params.PaReq = Buffer.from(payment.id).toString('base64')
  params.MD = payment.id
  if (payment.return_url) params.TermUrl = payment.return_url
  return {
    redirect_url: `${facts.baseUrl}/${three ? 'acs' : 'redirect-sim'}/${payment.id}`,
    redirect_method: 'POST',
    redirect_params: params,
  }
}
