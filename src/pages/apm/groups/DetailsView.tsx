import type { PayerView } from '../../../core/apm/views.js'
import { Facts } from './common.js'

/** Payment details shown to the payer (2.2.2): where to send the money and the reference. */
export function DetailsView({ view }: { view: Extract<PayerView, { kind: 'payment_details' }> }) {
  return (
    <>
      <p id="apm-message">{view.message}</p>
      <Facts id="apm-details" rows={view.details} />
    </>
  )
}
