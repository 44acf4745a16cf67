import type { PayerView } from '../../../core/apm/views.js'
import { QrImage, Waiting } from './common.js'

/** QR code shown (2.2.2): the EMVCo payload as a real code, the text for copy and paste, and the wait. */
export function QrView({ view, svg }: { view: Extract<PayerView, { kind: 'qr' }>; svg: string }) {
  return (
    <>
      <p id="apm-message">{view.message}</p>
      <QrImage svg={svg} label="Payment QR code" text={view.qr_payload} />
      <Waiting text="Waiting for the payment: this page moves on by itself once it is confirmed." />
    </>
  )
}
