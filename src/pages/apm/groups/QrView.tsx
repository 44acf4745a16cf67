import type { PayerView } from '../../../core/apm/views.js'
import { QrImage, type ViewText, Waiting } from './common.js'

/** QR code shown (2.2.2): the EMVCo payload as a real code, the text for copy and paste, and the wait. */
export function QrView({
  view,
  svg,
  text,
}: {
  view: Extract<PayerView, { kind: 'qr' }>
  svg: string
  text: ViewText
}) {
  const { t, name, amount } = text
  return (
    <>
      <p id="apm-message">{t('apmQr', { method: name, amount })}</p>
      <QrImage svg={svg} label={t('apmQrAlt')} text={view.qr_payload} caption={t('apmQrCopy')} />
      <Waiting text={t('apmWaitPayment')} />
    </>
  )
}
