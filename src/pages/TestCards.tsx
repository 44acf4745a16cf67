import type { Translate } from './i18n.js'

/** decisions.md 4: the expiry month picks the outcome of card 4111 1111 1111 1111. */
const CARDS: [string, string][] = [
  ['01', 'success'],
  ['02', 'decline'],
  ['05', '3-D Secure, then success'],
  ['06', '3-D Secure, then decline'],
  ['07', '3-D Secure without a challenge, then success'],
  ['12', 'redirect, then success'],
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
              <code>
                {month}/{year}
              </code>{' '}
              {outcome}
            </span>
            <button
              type="button"
              className="chip"
              hidden
              data-fill-number="4111111111111111"
              data-fill-exp={`${month}/${year}`}
            >
              {t('useCard')} {month}/{year}
            </button>
          </li>
        ))}
      </ul>
    </details>
  )
}
