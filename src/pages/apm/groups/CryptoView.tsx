import type { PayerView } from '../../../core/apm/views.js'
import { formatAmount } from '../../amount.js'
import { Facts, QrImage, type ViewText, Waiting } from './common.js'

/**
 * Crypto wallet address (crypto-btg, awcc): the address in its coin's form (2.2.2 awcc
 * `crypto_type`, `network_type`, `bech32`) as text and as a code, with the order's amount;
 * crypto-btg's address has "no fixed amount", which the page says beside the order's amount.
 */
export function CryptoView({
  view,
  svg,
  text,
}: {
  view: Extract<PayerView, { kind: 'crypto_address' }>
  svg: string
  text: ViewText
}) {
  const { t, lang } = text
  const rows = [
    { label: t('cryptoCurrency'), value: view.crypto_type, ltr: true },
    { label: t('cryptoNetwork'), value: view.network, ltr: true },
    { label: t('cryptoFormat'), value: view.format, ltr: true },
    // The order's amount in its currency: an address with "no fixed amount" (crypto-btg) still
    // pays this order, so the payer reads what it is worth (the sandbox quotes no exchange rate).
    {
      label: t('detailAmount'),
      value: view.amount && view.currency ? formatAmount(view.amount, view.currency, lang) : text.amount,
    },
  ]
  return (
    <>
      <p id="apm-message">{t('apmCryptoSend', { currency: view.crypto_type })}</p>
      <p>
        <code id="apm-address" dir="ltr" style={{ overflowWrap: 'anywhere', fontSize: '.9375rem' }}>
          {view.address}
        </code>
      </p>
      <QrImage svg={svg} label={t('cryptoQrAlt', { currency: view.crypto_type })} />
      <Facts id="apm-crypto" rows={rows} />
      {view.amount ? null : <p id="apm-crypto-amount">{t('cryptoAnyAmount', { amount: text.amount })}</p>}
      <Waiting text={t('apmWaitTransfer')} />
    </>
  )
}
