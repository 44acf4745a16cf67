import type { RuleId } from '../core/engine/rules.js'
import type { Translate } from './i18n.js'

/** A problem to show: on a field (its input id and label), or about the whole form. */
export interface PageError {
  field?: string
  label?: string
  message: string
  /** The rule it applies (docs/rules.md#rule-book), for the page's `Sandbox-Rule`. */
  rule?: RuleId
}

/**
 * The list of problems above a form. It is a live region from the start (role=alert), so screen
 * readers announce it both when the server renders errors and when the client script fills it;
 * each item links to its field.
 */
export function ErrorSummary({ errors, t }: { errors: PageError[]; t: Translate }) {
  return (
    <div className="alert alert-error" id="error-summary" role="alert" tabIndex={-1}>
      {errors.length ? (
        <>
          <h2>{t('errorSummary')}</h2>
          <ul>
            {errors.map((e) => (
              <li key={`${e.field ?? 'form'}-${e.message}`}>
                {e.field ? (
                  <a href={`#${e.field}`}>{e.label ? `${e.label}: ${e.message}` : e.message}</a>
                ) : (
                  e.message
                )}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  )
}
