import type { MessageKey, Translate } from './i18n.js'

/** docs/rules.md#test-cards: the expiry month picks the outcome of card 4111 1111 1111 1111. */
const CARDS: [string, MessageKey][] = [
  ['01', 'tcSuccess'],
  ['02', 'tcDecline'],
  ['05', 'tc3dsSuccess'],
  ['06', 'tc3dsDecline'],
  ['07', 'tcFrictionless'],
  ['12', 'tcRedirect'],
]

/**
 * The sandbox's test cards, folded away under the form. The "use" buttons fill the form (client
 * script); they stay hidden without it, where the list still tells what to type.
 */
export function TestCards({ t, year }: { t: Translate; year: string }) {
  return (
    <details className="testcards">
      <summary>{t('testCards')}</summary>
      <p>{t('testCardsIntro')}</p>
      <ul>
        {CARDS.map(([month, outcome]) => (
          <li key={month}>
            <span>
              <code dir="ltr">
                {month}/{year}
              </code>{' '}
              {t(outcome)}
            </span>
            <button
              type="button"
              className="chip"
              hidden
              data-fill-number="4111111111111111"
              data-fill-exp={`${month}/${year}`}
            >
              {t('useCard')}{' '}
              <bdi dir="ltr">
                {month}/{year}
              </bdi>
            </button>
          </li>
        ))}
      </ul>
    </details>
  )
}
