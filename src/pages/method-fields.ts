import type { MethodCatalogueEntry } from '../generated/types.js'
import type { MessageKey } from './i18n.js'

/**
 * What the hosted page asks the payer for a method (catalogue `collects_on_page`) when the
 * merchant did not send it. Each catalogue entry is turned into one input: where its value goes
 * (`parameters.<method>` or `billing_address`), its label and the browser hints.
 */
export interface PageField {
  /** The form field name, unique on the page: `document_number`, `bankDetails.cbu`, `billing_address.phone`. */
  name: string
  target: 'parameters' | 'billing_address'
  /** Path inside the target object. */
  path: string[]
  /** Translated label; `labelText` (the catalogue's own words) for an entry this page has no string for. */
  label?: MessageKey
  labelText?: string
  hint?: MessageKey
  inputMode?: 'numeric' | 'tel' | 'email' | 'text'
  autoComplete?: string
  /** Checked by the browser (`pattern`) and again on the server. */
  pattern?: string
  options?: string[]
  required: boolean
}

type Spec = Omit<PageField, 'name' | 'target' | 'path' | 'required'> & { optional?: boolean }

const INTERNATIONAL_PHONE = '\\+?[0-9]{6,15}'

/** Catalogue entry (as written in methods.json) to the input it becomes. */
const SPECS: Record<string, Spec & { name?: string }> = {
  document_number: { label: 'field_document_number' },
  document_type: { label: 'field_document_type' },
  personal_id: { label: 'field_personal_id' },
  memberId: { label: 'field_memberId' },
  bank_cuil: { label: 'field_bank_cuil', inputMode: 'numeric' },
  bank_curp: { label: 'field_bank_curp', autoComplete: 'off' },
  'bankDetails.cbu': { label: 'field_cbu', inputMode: 'numeric' },
  'bankDetails.alias': { label: 'field_alias' },
  'bankDetails.phoneNumber': { label: 'phone', inputMode: 'tel', autoComplete: 'tel' },
  'bankDetails.otp': { label: 'field_otp', inputMode: 'numeric', autoComplete: 'one-time-code' },
  type_document: { label: 'field_document_type', options: ['CPF', 'CNPJ'] },
  'billing_address.phone': {
    label: 'field_phone_international',
    hint: 'field_phone_international_hint',
    inputMode: 'tel',
    autoComplete: 'tel',
    pattern: INTERNATIONAL_PHONE,
  },
  'billing_address.address': { label: 'field_address', autoComplete: 'street-address' },
  'billing_address.country': { label: 'field_country', autoComplete: 'country', pattern: '[A-Za-z]{2}' },
  'billing_address.city': { label: 'field_city', autoComplete: 'address-level2' },
  'billing_address.zip': { label: 'field_zip', autoComplete: 'postal-code' },
  'crypto currency choice': {
    name: 'crypto_currency',
    label: 'field_crypto_currency',
    options: ['BTC', 'ETH', 'USDT', 'LTC'],
  },
  id_document: { label: 'field_id_document' },
  bank: { label: 'field_bank' },
  person_type: { label: 'field_person_type' },
  voucher_pin: { label: 'field_voucher_pin', inputMode: 'numeric', autoComplete: 'off' },
  bank_name: { label: 'field_bank_name' },
  bank_code: { label: 'field_bank_code' },
  branch_name: { label: 'field_branch_name' },
  branch_code: { label: 'field_branch_code' },
  account_number: { label: 'field_account_number', inputMode: 'numeric' },
  personal_identification_number: { label: 'field_personal_identification_number' },
  upi_address: {
    label: 'field_upi_address',
    hint: 'field_upi_address_hint',
    inputMode: 'email',
    pattern: '[A-Za-z0-9.\\-_]{2,256}@[A-Za-z]{2,64}',
  },
  beneficiary_details: { label: 'field_beneficiary_details' },
  account_selection: { label: 'field_account_selection' },
  confirmation_code: {
    label: 'field_confirmation_code',
    inputMode: 'numeric',
    autoComplete: 'one-time-code',
  },
  receiver_phone: { label: 'field_receiver_phone', inputMode: 'tel', optional: true },
  otp: { label: 'field_otp', inputMode: 'numeric', autoComplete: 'one-time-code' },
}

/**
 * Country rules of 2.2.2: procB's document is "not required for Guatemala, Panama, Costa Rica";
 * fairpay's number is "required for Brazil, Chile, Colombia"; the UPI personal_id is "for India".
 * Elsewhere these fields are still offered, as optional.
 */
const REQUIRED_ONLY_IN: Record<string, string[]> = {
  fairpay: ['BR', 'CL', 'CO'],
  'pyk-upi': ['IN'],
  'payok-upi': ['IN'],
}
const OPTIONAL_IN: Record<string, string[]> = { procB: ['GT', 'PA', 'CR'] }

/** Entries that name no single input (num-wallet's card data is the card form itself). */
const NOT_AN_INPUT = new Set(['card data (card payments only)'])

export function pageFieldFor(
  entry: string,
  methodId: string,
  country: string | undefined,
): PageField | undefined {
  if (NOT_AN_INPUT.has(entry)) return undefined
  const spec: Spec & { name?: string } = SPECS[entry] ?? { labelText: entry }
  const billing = entry.startsWith('billing_address.')
  const name = spec.name ?? entry
  const upper = country?.toUpperCase()
  const requiredOnly = REQUIRED_ONLY_IN[methodId]
  const optionalIn = OPTIONAL_IN[methodId]
  const required =
    !spec.optional &&
    (!requiredOnly || (upper !== undefined && requiredOnly.includes(upper))) &&
    !(optionalIn && upper !== undefined && optionalIn.includes(upper))
  const { optional: _optional, name: _name, ...rest } = spec
  return {
    ...rest,
    name,
    target: billing ? 'billing_address' : 'parameters',
    path: billing ? [entry.slice('billing_address.'.length)] : name.split('.'),
    required,
  }
}

/** The fields of a method the merchant has not already sent (in `parameters.<method>` or `billing_address`). */
export function missingFields(
  method: Pick<MethodCatalogueEntry, 'id' | 'collects_on_page'>,
  methodId: string,
  request: { parameters?: Record<string, unknown>; billing_address?: Record<string, unknown> },
): PageField[] {
  const country =
    typeof request.billing_address?.country === 'string' ? request.billing_address.country : undefined
  const given = (field: PageField) => {
    const root = field.target === 'billing_address' ? request.billing_address : request.parameters?.[methodId]
    const value = field.path.reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      root,
    )
    return value !== undefined && value !== null && value !== ''
  }
  return (method.collects_on_page ?? [])
    .map((entry) => pageFieldFor(entry, method.id, country))
    .filter((f): f is PageField => f !== undefined && !given(f))
}
