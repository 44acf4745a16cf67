import type { PayerView } from '../../../core/apm/views.js'
import type { ViewText } from './common.js'

type Kind = Extract<PayerView, { kind: 'redirect' | 'widget' | 'mobile_app' }>

/**
 * Redirect (the provider's own page), widget page and mobile-app redirect (2.2.2 behaviour groups):
 * the sandbox page stands for the provider's page, widget or app; the app link is the one a phone
 * would open.
 */
export function RedirectView({ view, text }: { view: Kind; text: ViewText }) {
  const { t, name } = text
  const message =
    view.kind === 'widget'
      ? t('apmWidget', { method: name })
      : view.kind === 'mobile_app'
        ? t('apmMobileApp', { method: name })
        : t('apmRedirect', { method: name })
  return (
    <>
      <p id="apm-message">{message}</p>
      {view.kind === 'widget' ? (
        <div
          id="apm-widget"
          style={{
            border: '1px dashed #c5cbe0',
            borderRadius: 12,
            padding: 16,
            marginBottom: 16,
            textAlign: 'center',
          }}
        >
          {t('apmWidgetBox')}
        </div>
      ) : null}
      {view.kind === 'mobile_app' ? (
        <p>
          <a className="btn btn-quiet" id="apm-app-link" href={view.app_link}>
            {t('apmOpenApp')}
          </a>
        </p>
      ) : null}
    </>
  )
}
