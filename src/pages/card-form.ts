import type { GatewayRequest } from '../core/engine/http.js'
import { browserInfoFrom } from './browser-info.js'
import type { CheckoutView } from './checkout-view.js'
import { type FormInput, fieldError, readBillingAndTerms, readExpiry, text } from './form-input.js'
import type { Translate } from './i18n.js'

export interface CardForm extends FormInput {
  /** The body for payWithCard (docs/rules.md#beyond-the-interface shape). */
  card: Record<string, unknown>
  billing: Record<string, string>
}

/**
 * The card form as posted (urlencoded; spaces allowed in the number), checked for what the payer
 * can fix before anything is sent: blanks and formats. The Luhn digit, an expiry in the past and
 * the security-code rule are the engine's checks, answered through `engineErrors`.
 */
export function readCardForm(
  t: Translate,
  view: Pick<CheckoutView, 'cvvOptional'> &
    Partial<Pick<CheckoutView, 'askState' | 'askPhoneCode' | 'phone' | 'terms'>>,
  body: Record<string, unknown>,
  request: GatewayRequest,
  options: { billing: boolean } = { billing: true },
): CardForm {
  const input: FormInput = { errors: [], values: {} }
  const number = text(body, 'card_number', 40).replace(/[\s-]/g, '')
  const expiry = readExpiry(body)
  const cvv = text(body, 'card_cvv2', 8)
  const holder = text(body, 'card_holder', 100)
  input.values.card_exp = text(body, 'card_exp', 12)
  input.values.card_holder = holder

  if (!number) input.errors.push(fieldError(t, 'card_number', 'cardNumber', 'errorRequired'))
  else if (!/^[0-9]{12,19}$/.test(number)) {
    input.errors.push(fieldError(t, 'card_number', 'cardNumber', 'errorCardNumber'))
  }
  if (!expiry) {
    const blank = !input.values.card_exp && !text(body, 'card_exp_month')
    input.errors.push(fieldError(t, 'card_exp', 'expiry', blank ? 'errorRequired' : 'errorExpiry'))
  }
  if (!cvv && !view.cvvOptional) input.errors.push(fieldError(t, 'card_cvv2', 'cvv', 'errorRequired'))
  else if (cvv && !/^[0-9]{3,4}$/.test(cvv)) input.errors.push(fieldError(t, 'card_cvv2', 'cvv', 'errorCvv'))

  const billing = options.billing ? readBillingAndTerms(t, view, body, input) : ({} as Record<string, string>)
  const card: Record<string, unknown> = {
    card_number: number,
    card_exp_month: expiry?.month ?? '',
    card_exp_year: expiry?.year ?? '',
    ...(cvv ? { card_cvv2: cvv } : {}),
    ...(holder ? { card_holder: holder } : {}),
    browser_info: browserInfoFrom(body, request),
  }
  return { ...input, card, billing }
}
