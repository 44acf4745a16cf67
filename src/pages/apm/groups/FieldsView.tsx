import { type FactRow, Facts, type ViewText } from './common.js'
import { SandboxMessages } from './MessageView.js'

/** An input the page still asks for (the catalogue's `collects_on_page`, 2.2.2), ready to render. */
export interface AskedField {
  name: string
  label: string
  required: boolean
  inputMode?: 'numeric' | 'tel' | 'email' | 'text'
  error?: string
  value?: string
}

export interface FieldsViewProps {
  text: ViewText
  fields: AskedField[]
  /** What the payer (or the merchant) already gave for the method's fields, shown back to them. */
  given?: FactRow[]
  /** The view is only the inputs under another group's view (no introduction). */
  inline?: boolean
  /** beeline: "OTP sent to payer"; the page asks for it. */
  otp?: { to?: string; error?: string }
  /** axxi-cash: "the payer then gets a PDF ticket". */
  ticketUrl?: string
  /** one-collection: "details shown after Pay". */
  details?: FactRow[]
}

/**
 * Extra fields on the hosted page (2.2.2): the method's fields the payer still has to fill
 * (fairpay's by billing country) and those already given, beeline's code, axxi-cash's ticket and
 * one-collection's details. The inputs belong to the outcome form (`form="apm-outcome"`), so
 * approving sends them; the server checks them and keeps them on the payment.
 */
export function FieldsView({ text, fields, given = [], inline, otp, ticketUrl, details }: FieldsViewProps) {
  const { t, name } = text
  const asking = fields.length > 0 || Boolean(otp)
  return (
    <>
      {inline ? null : (
        <p id="apm-message">{asking ? t('apmFieldsIntro', { method: name }) : t('apmFieldsDone')}</p>
      )}
      {given.length ? (
        <>
          <h3 className="facts-title" id="apm-given-title">
            {t('apmFieldsGiven')}
          </h3>
          <Facts id="apm-given" rows={given} />
        </>
      ) : null}
      {details ? <Facts id="apm-details" rows={details} /> : null}
      {ticketUrl ? (
        <p>
          <a className="btn btn-quiet" id="apm-ticket" href={ticketUrl} download="payment-ticket.pdf">
            {t('apmTicket')}
          </a>
        </p>
      ) : null}
      {fields.map((field) => (
        <Input key={field.name} {...field} optionalText={t('optional')} />
      ))}
      {otp ? (
        <>
          <p id="apm-otp-sent">
            {otp.to ? t('apmOtpSentTo', { phone: otp.to }) : t('apmOtpSent')} <SandboxMessages t={t} />
          </p>
          <Input
            name="otp_code"
            label={t('field_otp')}
            required
            inputMode="numeric"
            optionalText={t('optional')}
            {...(otp.error ? { error: otp.error } : {})}
          />
        </>
      ) : null}
    </>
  )
}

function Input({
  name,
  label,
  required,
  inputMode,
  error,
  value,
  optionalText,
}: AskedField & { optionalText: string }) {
  const id = `apm-field-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required ? null : <span className="opt"> ({optionalText})</span>}
      </label>
      <input
        id={id}
        name={name === 'otp_code' ? name : `field[${name}]`}
        form="apm-outcome"
        defaultValue={value}
        inputMode={inputMode}
        dir={inputMode && inputMode !== 'text' ? 'ltr' : undefined}
        autoComplete={name === 'otp_code' ? 'one-time-code' : undefined}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  )
}
