import type { Translate } from './i18n.js'

/** The strings the client script shows (its own validation and timers), in the page's language. */
export const clientMessages = (t: Translate) => ({
  required: t('errorRequired'),
  card: t('errorCardNumber'),
  expiry: t('errorExpiry'),
  expired: t('errorCardExpired'),
  cvv: t('errorCvv'),
  phoneCode: t('errorPhoneCode'),
  terms: t('errorTerms'),
  invalid: t('errorInvalid'),
  generic: t('errorGeneric'),
  summary: t('errorSummary'),
  processing: t('processing'),
  expiresIn: t('expiresIn'),
  newWindow: t('opensNewWindow'),
  declined: t('declinedNotice'),
  success: t('statusSuccess'),
  successText: t('statusSuccessText'),
})

/** `59:30`, or `1:05:00` past an hour. */
export function formatSeconds(total: number): string {
  const s = Math.max(0, Math.floor(total))
  const hours = Math.floor(s / 3600)
  const minutes = Math.floor((s % 3600) / 60)
  const seconds = String(s % 60).padStart(2, '0')
  return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`
}

/** The field id of a method's extra field (its name may hold dots: `bankDetails.cbu`). */
export const methodFieldId = (name: string): string => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`
