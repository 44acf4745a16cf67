import type { PayerView } from '../../../core/apm/views.js'
import { Facts, QrImage, Waiting } from './common.js'

/**
 * Crypto wallet address (crypto-btg, awcc): the address in its coin's form (2.2.2 awcc
 * `crypto_type`, `network_type`, `bech32`) as text and as a code; crypto-btg has "no fixed amount".
 */
export function CryptoView({
  view,
  svg,
}: {
  view: Extract<PayerView, { kind: 'crypto_address' }>
  svg: string
}) {
  const rows = [
    { label: 'Currency', value: view.crypto_type },
    { label: 'Network', value: view.network },
    { label: 'Address format', value: view.format },
    {
      label: 'Amount',
      value:
        view.amount && view.currency ? `${view.amount} ${view.currency}` : 'Any amount (no fixed amount)',
    },
  ]
  return (
    <>
      <p id="apm-message">Send {view.crypto_type} to this address.</p>
      <p>
        <code id="apm-address" style={{ overflowWrap: 'anywhere', fontSize: '.9375rem' }}>
          {view.address}
        </code>
      </p>
      <QrImage svg={svg} label={`${view.crypto_type} address QR code`} />
      <Facts id="apm-crypto" rows={rows} />
      <Waiting text="Waiting for the transfer: this page updates by itself." />
    </>
  )
}
