/**
 * (sandbox) The phone-number form a confirmation page asks for, per country (2.2.2: "moov-money and
 * mtn-mobile-money (Benin numbers), moov-togo and togocom (Togo numbers)"; om-wallet "phone in
 * international format"). Mobile numbers in E.164 with the national numbering plan's mobile
 * prefixes; the example is a well-formed number of that plan.
 */

export interface PhoneFormat {
  /** ISO 3166-1 alpha-2; absent for the generic international form. */
  country?: string
  /** `+229`. */
  calling_code?: string
  /** Matches the number written with its calling code and no spaces: `+2290197123456`. */
  pattern: string
  example: string
}

const plan = (country: string, code: string, national: string, example: string): PhoneFormat => ({
  country,
  calling_code: `+${code}`,
  pattern: `^\\+${code}${national}$`,
  example,
})

const FORMATS: Record<string, PhoneFormat> = {
  // Benin moved to ten-digit numbers starting with 01 in 2024.
  BJ: plan('BJ', '229', '01[0-9]{8}', '+229 01 97 12 34 56'),
  TG: plan('TG', '228', '[79][0-9]{7}', '+228 90 12 34 56'),
  IN: plan('IN', '91', '[6-9][0-9]{9}', '+91 98765 43210'),
  BR: plan('BR', '55', '[1-9]{2}9[0-9]{8}', '+55 11 91234 5678'),
  TR: plan('TR', '90', '5[0-9]{9}', '+90 532 123 45 67'),
  VN: plan('VN', '84', '[35789][0-9]{8}', '+84 912 345 678'),
  CO: plan('CO', '57', '3[0-9]{9}', '+57 321 123 4567'),
  TH: plan('TH', '66', '[689][0-9]{8}', '+66 81 234 5678'),
  KE: plan('KE', '254', '[17][0-9]{8}', '+254 712 345 678'),
  NG: plan('NG', '234', '[789][01][0-9]{8}', '+234 802 123 4567'),
  UG: plan('UG', '256', '7[0-9]{8}', '+256 772 123 456'),
  GH: plan('GH', '233', '[25][0-9]{8}', '+233 24 123 4567'),
  MX: plan('MX', '52', '[0-9]{10}', '+52 55 1234 5678'),
  PE: plan('PE', '51', '9[0-9]{8}', '+51 912 345 678'),
  CL: plan('CL', '56', '9[0-9]{8}', '+56 9 1234 5678'),
  AR: plan('AR', '54', '9[0-9]{10}', '+54 9 11 1234 5678'),
  ID: plan('ID', '62', '8[0-9]{8,11}', '+62 812 3456 7890'),
  PH: plan('PH', '63', '9[0-9]{9}', '+63 917 123 4567'),
  GB: plan('GB', '44', '7[0-9]{9}', '+44 7700 900123'),
}

/** Any E.164 number, for countries outside the table. */
const INTERNATIONAL: PhoneFormat = { pattern: '^\\+[1-9][0-9]{7,14}$', example: '+44 7700 900123' }

export function phoneFormat(country: string | undefined): PhoneFormat {
  return (country && FORMATS[country.toUpperCase()]) || INTERNATIONAL
}

/**
 * The payer's number in the country's form: spaces, dots, dashes and brackets dropped, the
 * calling code added when the merchant sent it apart (`payer_phone_country_code`) or left it out.
 * Undefined when the result does not fit the country's plan.
 */
export function normalizePhone(
  format: PhoneFormat,
  phone: string | undefined,
  countryCode?: string,
): string | undefined {
  if (!phone) return undefined
  const written = phone.replace(/[\s.()-]/g, '').replace(/^00/, '+')
  const code = countryCode ? `+${countryCode.replace(/\D/g, '')}` : format.calling_code
  // A national number may carry its trunk prefix 0 (but Benin's 01 is part of the number).
  const candidates = written.startsWith('+')
    ? [written]
    : code
      ? [`${code}${written}`, `${code}${written.replace(/^0/, '')}`]
      : []
  const pattern = new RegExp(format.pattern)
  return candidates.find((c) => pattern.test(c))
}
