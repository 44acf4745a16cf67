import type { MethodChoice } from './checkout-view.js'
import type { Translate } from './i18n.js'

/**
 * The session's methods as links: each reloads the page with that method's form, so choosing
 * works without script and with the keyboard alone; the current one is marked for assistive
 * technology (aria-current).
 */
export function MethodList({
  t,
  methods,
  selected,
}: {
  t: Translate
  methods: MethodChoice[]
  selected: string
}) {
  if (methods.length < 2) return null
  return (
    <nav aria-labelledby="methods-title">
      <h2 id="methods-title">{t('chooseMethod')}</h2>
      <ul className="methods">
        {methods.map((m) => {
          const current = m.id === selected
          return (
            <li key={m.id}>
              <a href={m.href} aria-current={current ? 'true' : undefined} data-method={m.id}>
                <span className="dot" aria-hidden="true" />
                <span>{m.isCard ? t('cardTitle') : m.title}</span>
                {current ? <span className="sr-only"> ({t('selected')})</span> : null}
              </a>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
