import type { PayerView } from '../../../core/apm/views.js'
import { Facts, type ViewText, Waiting } from './common.js'

/** Message with payment link (2.2.2 ptn-email, ptn-sms): what was sent, to whom; the link opens this page. */
export function MessageView({
  view,
  text,
}: {
  view: Extract<PayerView, { kind: 'message_link' }>
  text: ViewText
}) {
  const { t } = text
  const email = view.channel === 'email'
  const rows = [
    { label: t('apmSentBy'), value: email ? t('channelEmail') : t('channelSms') },
    ...(view.recipient ? [{ label: t('apmSentTo'), value: view.recipient, ltr: true }] : []),
    { label: t('apmLink'), value: view.link, ltr: true },
    ...(view.security_question ? [{ label: t('apmSecurityQuestion'), value: view.security_question }] : []),
  ]
  return (
    <>
      <p id="apm-message">{email ? t('apmLinkEmail') : t('apmLinkSms')}</p>
      <Facts id="apm-sent" rows={rows} />
      <p className="note">
        <SandboxMessages t={t} />
      </p>
      <Waiting text={t('apmWaitLink')} />
    </>
  )
}

/** "Sandbox: nothing is really sent; the message is at GET /sandbox/messages" with the path as code. */
export function SandboxMessages({ t }: { t: ViewText['t'] }) {
  const [before = '', after = ''] = t('apmSandboxMessages').split('{path}')
  return (
    <>
      {before}
      <code dir="ltr">GET /sandbox/messages</code>
      {after}
    </>
  )
}
