import type { Redirect } from '../core/callbacks/redirect.js'
import { Document } from './Document.js'
import type { Lang, MessageKey, Translate } from './i18n.js'
import { Shell } from './Shell.js'

export type StatusKind = 'success' | 'declined' | 'cancelled' | 'expired' | 'notFound' | 'payout'

const WORDS: Record<StatusKind, [MessageKey, MessageKey, 'success' | 'error' | 'neutral']> = {
  success: ['statusSuccess', 'statusSuccessText', 'success'],
  declined: ['statusDeclined', 'statusDeclinedText', 'error'],
  cancelled: ['statusCancelled', 'statusCancelledText', 'neutral'],
  expired: ['statusExpired', 'statusExpiredText', 'neutral'],
  notFound: ['statusNotFound', 'statusNotFoundText', 'error'],
  payout: ['statusPayout', 'statusPayoutText', 'neutral'],
}

export interface StatusPageProps {
  t: Translate
  lang: Lang
  base: string
  kind: StatusKind
  /** Values for the text's placeholders (`{method}`). */
  values?: Record<string, string>
  /** Extra line under the text (a decline reason). */
  detail?: string
  /** The merchant URL to continue to, opened in its effective url_target. */
  next?: Pick<Redirect, 'url' | 'target'>
  back?: { href: string; label: string }
  /** What the client script should know (the Hosted Payment Fields result for the parent page). */
  data?: Record<string, unknown>
}

/**
 * A payment's end (or a page that cannot be shown), with the way back to the shop. The continue
 * link carries the effective url_target; the client script opens it at once where it may, and
 * inside an iframe with `_top` leaves the payer a button that opens a new window (2.1).
 */
export function StatusPage({ t, lang, base, kind, values, detail, next, back, data }: StatusPageProps) {
  const [title, text, tone] = WORDS[kind]
  const newWindow = next?.target === '_blank'
  return (
    <Document
      lang={lang}
      title={`${t(title)} · ${t('documentTitle')}`}
      base={base}
      data={{ page: 'status', status: kind, ...(next ? { handoff: next } : {}), ...data }}
    >
      <Shell t={t}>
        <div className="card">
          <div className="status" role="status">
            <div className={`icon icon-${tone}`} aria-hidden="true" />
            <h1>{t(title)}</h1>
            <p>{t(text, values)}</p>
            {detail ? <p>{detail}</p> : null}
            <div className="actions">
              {next ? (
                <a
                  className="btn"
                  id="continue"
                  href={next.url}
                  target={next.target}
                  rel={newWindow ? 'noopener' : undefined}
                >
                  {t('continueToShop')}
                  {newWindow ? <span className="sr-only"> ({t('opensNewWindow')})</span> : null}
                </a>
              ) : null}
              {back ? (
                <a className="btn btn-quiet" href={back.href}>
                  {back.label}
                </a>
              ) : null}
            </div>
          </div>
        </div>
      </Shell>
    </Document>
  )
}
