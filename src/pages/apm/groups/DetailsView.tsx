import type { DetailRow, PayerView } from '../../../core/apm/views.js'
import type { MessageKey } from '../../i18n.js'
import { Facts, type ViewText } from './common.js'

const LABEL: Record<DetailRow['key'], MessageKey> = {
  beneficiary: 'detailBeneficiary',
  provider: 'detailProvider',
  account: 'detailAccount',
  reference: 'detailReference',
  amount: 'detailAmount',
  upi_id: 'detailUpiId',
}

/** Payment details shown to the payer (2.2.2): where to send the money and the reference. */
export function DetailsView({
  view,
  text,
}: {
  view: Extract<PayerView, { kind: 'payment_details' }>
  text: ViewText
}) {
  const { t, name, amount } = text
  const rows = view.details.map((row) => ({
    label: t(LABEL[row.key]),
    value: row.key === 'provider' ? name : row.key === 'amount' ? amount : row.value,
    ltr: row.key === 'account' || row.key === 'reference' || row.key === 'upi_id',
  }))
  return (
    <>
      <p id="apm-message">{t('apmDetails', { amount })}</p>
      <Facts id="apm-details" rows={rows} />
    </>
  )
}
