import { Field } from './Field.js'
import type { Translate } from './i18n.js'

export interface BillingFieldsProps {
  t: Translate
  askState: boolean
  askPhoneCode: boolean
  phone?: string
  errors: Record<string, string>
  values: Record<string, string>
}

/**
 * 2.1.3: the state, asked only for CA, US, JP, AU and IN billing countries; the phone country
 * code, asked "in a separate field next to the phone" when the merchant omitted it.
 */
export function BillingFields({ t, askState, askPhoneCode, phone, errors, values }: BillingFieldsProps) {
  if (!askState && !askPhoneCode) return null
  return (
    <fieldset>
      <legend>{t('billingDetails')}</legend>
      {askState ? (
        <Field
          t={t}
          id="billing_state"
          name="billing_state"
          label={t('state')}
          error={errors.billing_state}
          value={values.billing_state}
          autoComplete="address-level1"
          maxLength={50}
        />
      ) : null}
      {askPhoneCode ? (
        <div className="row phone">
          <Field
            t={t}
            id="phone_country_code"
            name="phone_country_code"
            label={t('phoneCountryCode')}
            hint={t('phoneCountryCodeHint')}
            error={errors.phone_country_code}
            value={values.phone_country_code}
            required={Boolean(phone)}
            inputMode="numeric"
            autoComplete="tel-country-code"
            pattern="\+?[0-9]+(-[0-9]+)*"
            maxLength={11}
            check="phone-code"
            dir="ltr"
          />
          <Field
            t={t}
            id="phone"
            name="phone"
            label={t('phone')}
            error={errors.phone}
            value={values.phone ?? phone}
            required={false}
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            dir="ltr"
            maxLength={25}
          />
        </div>
      ) : null}
    </fieldset>
  )
}
