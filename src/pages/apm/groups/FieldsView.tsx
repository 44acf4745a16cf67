import type { PayerView } from '../../../core/apm/views.js'
import { Facts } from './common.js'

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
  view: Extract<PayerView, { kind: 'extra_page_fields' }>
  fields: AskedField[]
  /** beeline: "OTP sent to payer"; the page asks for it. */
  otp?: { to?: string; error?: string }
  /** axxi-cash: "the payer then gets a PDF ticket". */
  ticketUrl?: string
  /** one-collection: "details shown after Pay". */
  details?: { label: string; value: string }[]
}

/**
 * Extra fields on the hosted page (2.2.2): what is still missing (fairpay's by billing country),
 * beeline's code, axxi-cash's ticket and one-collection's details. The inputs belong to the
 * outcome form (`form="apm-outcome"`), so approving sends them.
 */
export function FieldsView({ view, fields, otp, ticketUrl, details }: FieldsViewProps) {
  return (
    <>
      <p id="apm-message">{view.message}</p>
      {details ? <Facts id="apm-details" rows={details} /> : null}
      {ticketUrl ? (
        <p>
          <a className="btn btn-quiet" id="apm-ticket" href={ticketUrl} download="payment-ticket.pdf">
            Download the payment ticket (PDF)
          </a>
        </p>
      ) : null}
      {fields.map((field) => (
        <Input key={field.name} {...field} />
      ))}
      {otp ? (
        <>
          <p id="apm-otp-sent">
            A one-time code was sent by SMS{otp.to ? ` to ${otp.to}` : ''} (sandbox: see GET
            /sandbox/messages).
          </p>
          <Input
            name="otp_code"
            label="One-time code"
            required
            inputMode="numeric"
            {...(otp.error ? { error: otp.error } : {})}
          />
        </>
      ) : null}
    </>
  )
}

function Input({ name, label, required, inputMode, error, value }: AskedField) {
  const id = `apm-field-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required ? null : <span className="opt"> (optional)</span>}
      </label>
      <input
        id={id}
        name={name === 'otp_code' ? name : `field[${name}]`}
        form="apm-outcome"
        defaultValue={value}
        inputMode={inputMode}
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
