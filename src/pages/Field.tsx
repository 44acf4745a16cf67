import type { Translate } from './i18n.js'

export interface FieldProps {
  id: string
  name: string
  label: string
  t: Translate
  hint?: string
  /** The message shown under the field; the field is then marked invalid and points to it. */
  error?: string
  required?: boolean
  value?: string
  type?: 'text' | 'tel' | 'email'
  inputMode?: 'numeric' | 'tel' | 'email' | 'text'
  autoComplete?: string
  pattern?: string
  maxLength?: number
  placeholder?: string
  options?: string[]
  /** The client script's validation rule for this field (`card`, `expiry`, `cvv`, `phone-code`). */
  check?: string
  /** `ltr` for numbers and codes (card number, expiry, phone): they read left to right in every language. */
  dir?: 'ltr'
}

/**
 * One labelled input: the label names it, the hint and the error are tied to it with
 * aria-describedby, and an invalid field says so (aria-invalid). The error element is always
 * present so the client script can fill it in place.
 */
export function Field(props: FieldProps) {
  const { id, name, label, hint, error, required = true, t } = props
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = `${id}-error`
  const describedBy = [hintId, errorId].filter(Boolean).join(' ')
  const common = {
    id,
    name,
    required,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
    'data-check': props.check,
    dir: props.dir,
  }
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required ? null : <span className="opt"> ({t('optional')})</span>}
      </label>
      {props.options ? (
        <select {...common} defaultValue={props.value ?? ''}>
          <option value="" disabled={required}>
            —
          </option>
          {props.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          type={props.type ?? 'text'}
          inputMode={props.inputMode}
          autoComplete={props.autoComplete}
          pattern={props.pattern}
          maxLength={props.maxLength}
          placeholder={props.placeholder}
          defaultValue={props.value}
          spellCheck={false}
        />
      )}
      {hint ? (
        <span className="hint" id={hintId}>
          {hint}
        </span>
      ) : null}
      <p className="field-error" id={errorId}>
        {error ?? ''}
      </p>
    </div>
  )
}
