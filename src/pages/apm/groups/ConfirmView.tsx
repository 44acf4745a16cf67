import type { PayerView } from '../../../core/apm/views.js'
import { countryName, Facts, type FactRow, type ViewText, Waiting } from './common.js'

type Kind = Extract<PayerView, { kind: 'app_confirmation' | 'device_confirmation' }>

/**
 * Confirmation in a mobile app and mobile-device confirmation (2.2.2: "moov-money and
 * mtn-mobile-money (Benin numbers), moov-togo and togocom (Togo numbers)"): the prompt, the phone
 * the request goes to, and a page that waits for the confirmation (simulator or control API).
 * A device confirmation always names the phone: the payer's number, else the number form it
 * expects; an app confirmation shows the phone only when the merchant sent one.
 */
export function ConfirmView({ view, text }: { view: Kind; text: ViewText }) {
  const { t, lang, name, amount } = text
  const { format, value, given } = view.phone
  const phone = value ?? given
  const device = view.kind === 'device_confirmation'
  const rows: FactRow[] = [
    ...(phone ? [{ label: t('apmPhone'), value: phone, ltr: true }] : []),
    ...(device && format.country
      ? [{ label: t('apmCountry'), value: countryName(format.country, lang) }]
      : []),
    ...(device && !phone ? [{ label: t('apmNumberFormat'), value: format.example, ltr: true }] : []),
  ]
  return (
    <>
      <p id="apm-message">
        {device ? t('apmDeviceConfirm', { amount }) : t('apmAppConfirm', { amount, method: name })}
      </p>
      {'auth_method' in view && view.auth_method ? <p id="apm-stk">{t('apmStkPrompt')}</p> : null}
      {rows.length ? <Facts id="apm-phone" rows={rows} /> : null}
      <Waiting text={t('apmWaitPhone')} />
    </>
  )
}
