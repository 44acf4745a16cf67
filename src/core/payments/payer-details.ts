import type { SessionRequest } from '../checkout/session-rules.js'

/**
 * The payer attributes of the Events section (payer_first_name ... payer_ip), from what the
 * merchant sent in the session and what the payer entered; callbacks pick the mapped ones.
 * Values nobody gave are left out.
 */
export function payerDetails(
  request: SessionRequest,
  entered: { payer_email?: string; customer_ip?: string },
): Record<string, string> {
  const [first, ...rest] = (request.customer?.name ?? '').trim().split(/\s+/)
  const address = request.billing_address ?? {}
  const values: Record<string, string | undefined> = {
    payer_first_name: first || undefined,
    payer_last_name: rest.join(' ') || undefined,
    payer_birth_date: request.customer?.birth_date,
    payer_email: entered.payer_email ?? request.customer?.email,
    payer_address: address.address,
    payer_house_number: address.house_number,
    payer_phone_country_code: address.phone_country_code,
    payer_country: address.country,
    payer_state: address.state,
    payer_city: address.city,
    payer_district: address.district,
    payer_zip: address.zip,
    payer_phone: address.phone,
    payer_ip: entered.customer_ip,
  }
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(values)) if (value) out[key] = value
  return out
}
