import { releaseOf } from '../validation/releases.js'
import type { S2SCardMpiData, S2SCardSaleRequest } from '../../generated/types.js'
import type { EngineContext, SandboxMerchant } from '../engine/context.js'
import type { SavedCard, StoredCard, ThreeDsData } from '../engine/model.js'
import { cardExpired, luhnValid, toStoredCard } from '../payments/card.js'
import type { FieldProblems } from '../payments/field-errors.js'
import { findSavedCard } from '../payments/tokens.js'
import type { CardRef } from '../signatures/index.js'

/** What SALE, AUTH and DEBIT share (AUTH and DEBIT declare a subset of SALE's fields). */
export type CardPaymentRequest = S2SCardSaleRequest

export interface RequestCard {
  card: StoredCard
  /** The merchant's saved card, when the request paid with `card_token`. */
  savedCard?: SavedCard
}

/** The card the request's signature covers: its `card_token` when sent (it then wins), else the number. */
export const signedCard = (request: { card_token?: string; card_number?: string }): CardRef =>
  request.card_token !== undefined
    ? { cardToken: request.card_token }
    : { cardNumber: request.card_number ?? '' }

/**
 * The payment's card, checked beyond its schema: a known token of this merchant, or a number with
 * a valid check digit; either way not expired on the sandbox clock. Problems are collected, so
 * every bad field is reported at once. Only the masked form leaves here.
 */
export function readCard(
  ctx: EngineContext,
  merchant: SandboxMerchant,
  request: Pick<CardPaymentRequest, 'card_token' | 'card_number' | 'card_exp_month' | 'card_exp_year'>,
  problems: FieldProblems,
): RequestCard | undefined {
  const now = ctx.clock.now()
  if (request.card_token !== undefined) {
    const savedCard = findSavedCard(ctx, merchant.key, request.card_token)
    if (!savedCard) return void problems.addRow('S2S_CARD_CARD_TOKEN_UNKNOWN')
    if (cardExpired(savedCard.card.exp_month, savedCard.card.exp_year, now)) problems.addRow('CARD_EXPIRED')
    return { card: savedCard.card, savedCard }
  }
  const number = request.card_number ?? ''
  const expMonth = request.card_exp_month ?? ''
  const expYear = request.card_exp_year ?? ''
  if (!luhnValid(number)) problems.addRow('CARD_NUMBER_INVALID')
  if (cardExpired(expMonth, expYear, now)) problems.addRow('CARD_EXPIRED')
  return { card: toStoredCard({ number, expMonth, expYear }) }
}

/** 2.1.3: "optional unless the Protocol Mapping marks them Required (default mappings mark them Optional)". */
const ADDRESS_FIELDS = ['payer_address', 'payer_country', 'payer_city', 'payer_zip'] as const

export function checkRequiredPayerFields(
  merchant: SandboxMerchant,
  request: Record<string, unknown>,
  problems: FieldProblems,
): void {
  const required = merchant.protocol_mapping?.payer_address_fields ?? {}
  // docs/rules.md#releases: before 6.7.0 the payer address fields were required on S2S CARD.
  const legacy = releaseOf(merchant) === '6.6.5'
  for (const field of ADDRESS_FIELDS) {
    if ((legacy || required[field] === 'Required') && request[field] === undefined)
      problems.addRow('S2S_CARD_PAYER_FIELD_REQUIRED', field)
  }
}

/**
 * The payer attributes of the Events section the payment keeps. An allow-list: `payer_language`
 * is request-only ("it is not returned in callbacks or status responses", 2.1.3), so it is never
 * stored. payer_email stays because follow-ups and callbacks are signed with it (docs/rules.md#signatures).
 */
const PAYER_FIELDS = [
  'payer_first_name',
  'payer_last_name',
  'payer_birth_date',
  'payer_address',
  'payer_address2',
  'payer_house_number',
  'payer_phone_country_code',
  'payer_country',
  'payer_state',
  'payer_city',
  'payer_district',
  'payer_zip',
  'payer_email',
  'payer_phone',
  'payer_ip',
] as const

export function payerOf(request: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const field of PAYER_FIELDS) {
    const value = request[field]
    if (typeof value === 'string' && value !== '') out[field] = value
  }
  return out
}

/**
 * 2.4 `mpi_data` as the payment's 3DS data, "stored as given when external MPI was used" (Events).
 * The authentication value is a cryptogram for the acquirer only: it is not kept.
 */
export function externalThreeDs(mpi: S2SCardMpiData): ThreeDsData {
  const { authentication_value: _cryptogram, ...given } = mpi
  const attributes: Record<string, string> = {}
  for (const [key, value] of Object.entries(given)) if (typeof value === 'string') attributes[key] = value
  return { required: false, attributes }
}
