import { currencyExponent } from '../core/engine/format.js'
import { htmlLang, type Lang } from './i18n.js'

/**
 * An order amount as the payer reads it in their language (`10,00 €`, `$10.00`). The merchant's
 * decimal string is shown with its currency's own decimals; a code Intl does not know is shown as
 * `10.00 XYZ`.
 */
export function formatAmount(amount: string, currency: string, lang: Lang): string {
  const digits = currencyExponent(currency)
  try {
    return new Intl.NumberFormat(htmlLang(lang), {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(Number(amount))
  } catch {
    return `${amount} ${currency}`
  }
}
