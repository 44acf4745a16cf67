import { Field } from './Field.js'
import type { Translate } from './i18n.js'

export interface CardFieldsProps {
  t: Translate
  errors: Record<string, string>
  values: Record<string, string>
  cvvOptional: boolean
}

/** Number, expiry, security code and name: the card inputs of the hosted page and of the Hosted Payment Fields. */
export function CardFields({ t, errors, values, cvvOptional }: CardFieldsProps) {
  return (
    <>
      <Field
        t={t}
        id="card_number"
        name="card_number"
        label={t('cardNumber')}
        hint={t('cardNumberHint')}
        error={errors.card_number}
        inputMode="numeric"
        autoComplete="cc-number"
        pattern="[0-9 \-]{12,23}"
        maxLength={23}
        placeholder="1234 5678 9012 3456"
        check="card"
        dir="ltr"
      />
      <div className="row">
        <Field
          t={t}
          id="card_exp"
          name="card_exp"
          label={t('expiry')}
          hint={t('expiryHint')}
          error={errors.card_exp}
          value={values.card_exp}
          inputMode="numeric"
          autoComplete="cc-exp"
          pattern="(0?[1-9]|1[0-2]) ?[\/.\-]? ?([0-9]{2}|[0-9]{4})"
          maxLength={7}
          placeholder={t('expiryPlaceholder')}
          check="expiry"
          dir="ltr"
        />
        <Field
          t={t}
          id="card_cvv2"
          name="card_cvv2"
          label={t('cvv')}
          hint={t(cvvOptional ? 'cvvOptionalHint' : 'cvvHint')}
          error={errors.card_cvv2}
          required={!cvvOptional}
          inputMode="numeric"
          autoComplete="cc-csc"
          pattern="[0-9]{3,4}"
          maxLength={4}
          check="cvv"
          dir="ltr"
        />
      </div>
      <Field
        t={t}
        id="card_holder"
        name="card_holder"
        label={t('cardHolder')}
        error={errors.card_holder}
        value={values.card_holder}
        required={false}
        autoComplete="cc-name"
        maxLength={100}
      />
    </>
  )
}

/** Hidden fields the client script fills with the browser attributes of the Events section (3DS data). */
export function BrowserInfoFields() {
  const names = [
    'javascript',
    'color_depth',
    'screen_height',
    'screen_width',
    'timezone_offset',
    'language',
    'platform',
  ]
  return (
    <>
      {names.map((n) => (
        <input key={n} type="hidden" name={`bi_${n}`} value="" data-browser-info={n} />
      ))}
    </>
  )
}
