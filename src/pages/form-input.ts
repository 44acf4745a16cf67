import type { GatewayError } from '../core/engine/errors.js'
import type { Refusal } from '../core/engine/refusal.js'
import type { CheckoutView } from './checkout-view.js'
import type { PageError } from './ErrorSummary.js'
import type { MessageKey, Translate } from './i18n.js'

/** What a submitted form gave: problems to show, and values to keep on the page when it is shown again. */
export interface FormInput {
  errors: PageError[]
  /** Values to put back in the form (never the card number or the security code). */
  values: Record<string, string>
}

export const text = (body: Record<string, unknown>, name: string, max = 200): string => {
  const value = body[name]
  return typeof value === 'string' ? value.trim().slice(0, max) : ''
}

export function fieldError(t: Translate, field: string, label: MessageKey, message: MessageKey): PageError {
  const rule =
    message === 'errorRequired'
      ? 'required-fields'
      : field.startsWith('card_')
        ? 'card-data'
        : 'field-formats'
  return { field, label: t(label), message: t(message), rule }
}

/** What a form answered 422 refused: the fields, and the rule of the first problem (docs/rules.md#rule-book). */
export function formRefusal(errors: PageError[]): Refusal {
  const fields = [...new Set(errors.flatMap((e) => (e.field ? [e.field] : [])))]
  return { rule: errors[0]?.rule ?? 'field-formats', ...(fields.length ? { fields } : {}) }
}

const PHONE_CODE = /^[0-9]+(-[0-9]+)*$/
const TICKED = new Set(['on', '1', 'yes', 'true'])

/**
 * The billing fields the page asked for (state, phone country code and phone) and the Terms &
 * Conditions box. Answers the billing values to keep with the session.
 */
export function readBillingAndTerms(
  t: Translate,
  view: Partial<Pick<CheckoutView, 'askState' | 'askPhoneCode' | 'phone' | 'terms'>>,
  body: Record<string, unknown>,
  input: FormInput,
): Record<string, string> {
  const billing: Record<string, string> = {}
  if (view.askState) {
    const state = text(body, 'billing_state', 50)
    input.values.billing_state = state
    if (!state) input.errors.push(fieldError(t, 'billing_state', 'state', 'errorRequired'))
    else billing.state = state
  }
  if (view.askPhoneCode) {
    const code = text(body, 'phone_country_code', 20).replace(/^\+/, '')
    const phone = text(body, 'phone', 25)
    input.values.phone_country_code = code
    input.values.phone = phone
    if (code && (code.length > 10 || !PHONE_CODE.test(code))) {
      input.errors.push(fieldError(t, 'phone_country_code', 'phoneCountryCode', 'errorPhoneCode'))
    } else if (!code && (phone || view.phone)) {
      // A number without its country code cannot be dialled: the code is needed once a phone is known.
      input.errors.push(fieldError(t, 'phone_country_code', 'phoneCountryCode', 'errorRequired'))
    } else if (code) billing.phone_country_code = code
    if (phone) billing.phone = phone
  }
  if (view.terms && !TICKED.has(text(body, 'terms'))) {
    input.errors.push(fieldError(t, 'terms', 'termsLink', 'errorTerms'))
  }
  return billing
}

/** `MM/YY`, `MM/YYYY`, `MMYY` or separate month and year fields, as the engine's two-digit month and four-digit year. */
export function readExpiry(body: Record<string, unknown>): { month: string; year: string } | undefined {
  const month = text(body, 'card_exp_month', 4)
  const year = text(body, 'card_exp_year', 4)
  const match =
    month && year
      ? [month, year]
      : /^(\d{1,2})\s*[/.-]?\s*(\d{2}|\d{4})$/.exec(text(body, 'card_exp', 12))?.slice(1)
  if (!match) return undefined
  const [m = '', y = ''] = match
  const mm = m.padStart(2, '0')
  if (!/^(0[1-9]|1[0-2])$/.test(mm) || !/^(\d{2}|\d{4})$/.test(y)) return undefined
  return { month: mm, year: y.length === 2 ? `20${y}` : y }
}

/**
 * The engine's field problems (`card_number: This value is not a valid card number.`) in the
 * payer's language, on the field of the page that holds the value.
 */
export function engineErrors(t: Translate, error: GatewayError): PageError[] {
  const { rule } = error.refusal
  return engineProblems(t, error).map((e) => ({ ...e, rule }))
}

function engineProblems(t: Translate, error: GatewayError): PageError[] {
  const out: PageError[] = []
  for (const item of error.items) {
    const [path = ''] = item.error_message.split(':', 1)
    const message = item.error_message.slice(path.length + 1)
    if (path === 'card_number') out.push(fieldError(t, 'card_number', 'cardNumber', 'errorCardNumber'))
    else if (path === 'card_exp_month' || path === 'card_exp_year') {
      const key = /expired/i.test(message) ? 'errorCardExpired' : 'errorExpiry'
      out.push(fieldError(t, 'card_exp', 'expiry', key))
    } else if (path === 'card_cvv2') {
      out.push(fieldError(t, 'card_cvv2', 'cvv', /blank/i.test(message) ? 'errorRequired' : 'errorCvv'))
    } else out.push({ message: `${t('errorGeneric')} (${item.error_message})` })
  }
  if (!out.length) out.push({ message: `${t('errorGeneric')} (${error.entry.error_message})` })
  return out.filter((e, i) => out.findIndex((o) => o.field === e.field && o.message === e.message) === i)
}
