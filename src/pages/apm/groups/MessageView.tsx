import type { PayerView } from '../../../core/apm/views.js'
import { Facts, Waiting } from './common.js'

/** Message with payment link (2.2.2 ptn-email, ptn-sms): what was sent, to whom; the link opens this page. */
export function MessageView({ view }: { view: Extract<PayerView, { kind: 'message_link' }> }) {
  const rows = [
    { label: 'Sent by', value: view.channel === 'email' ? 'E-mail' : 'SMS' },
    ...(view.recipient ? [{ label: 'To', value: view.recipient }] : []),
    { label: 'Link', value: view.link },
    ...(view.security_question ? [{ label: 'Security question', value: view.security_question }] : []),
  ]
  return (
    <>
      <p id="apm-message">
        A payment link was sent by {view.channel === 'email' ? 'e-mail' : 'SMS'}. The sandbox delivers
        nothing: read the message at GET /sandbox/messages.
      </p>
      <Facts id="apm-sent" rows={rows} />
      <Waiting text="Waiting for the payment through the link: this page updates by itself." />
    </>
  )
}
