import type { MethodChoice } from './checkout-view.js'
import type { Translate } from './i18n.js'

/**
 * The session's methods as a real radio group (native radios: arrow keys move the choice, the
 * group is announced with its name). A plain GET form: "Use this method" reloads the page with
 * that method's form, so choosing works without script and with the keyboard alone.
 */
export function MethodList({
  t,
  methods,
  selected,
  action,
  chosen,
}: {
  t: Translate
  methods: MethodChoice[]
  selected: string
  /** The page's own address. */
  action: string
  /** The language the payer picked on the page, kept across the reload. */
  chosen?: string
}) {
  if (methods.length < 2) return null
  return (
    <form method="get" action={action} className="method-choice" id="method-choice">
      {chosen ? <input type="hidden" name="lang" value={chosen} /> : null}
      <fieldset>
        <legend id="methods-title">{t('chooseMethod')}</legend>
        <div className="methods" role="radiogroup" aria-labelledby="methods-title">
          {methods.map((m) => {
            const current = m.id === selected
            const id = `method-${m.id.replace(/[^A-Za-z0-9_-]/g, '_')}`
            return (
              <label key={m.id} className="method" htmlFor={id} data-method={m.id}>
                <input
                  type="radio"
                  id={id}
                  name="method"
                  value={m.id}
                  defaultChecked={current}
                  aria-describedby={m.kind ? `${id}-kind` : undefined}
                />
                <span className="method-name">{m.title}</span>
                {m.kind && !m.isCard ? (
                  <span className="method-kind" id={`${id}-kind`}>
                    {m.kind}
                  </span>
                ) : null}
              </label>
            )
          })}
        </div>
        <button type="submit" className="btn btn-quiet" id="method-submit">
          {t('useMethod')}
        </button>
      </fieldset>
    </form>
  )
}
