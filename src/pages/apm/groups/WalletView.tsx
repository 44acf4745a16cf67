import { QrImage, Waiting } from './common.js'

export interface WalletViewProps {
  wallet: string
  message: string
  /** 2.2.3: wallet1 in a browser without built-in support shows a code to scan with a phone. */
  scan?: { svg: string; url: string }
  flow: 'card' | 'virtual'
  card?: string
}

/**
 * Device wallets (2.2.3): the native button, or (wallet1 outside its own browser) "the payer scans
 * a displayed code with a phone ... and confirms there". The flow line says what the merchant can
 * do afterwards (rules 1 and 2).
 */
export function WalletView({ wallet, message, scan, flow, card }: WalletViewProps) {
  return (
    <>
      <p id="apm-message">{message}</p>
      {scan ? (
        <>
          <p id="apm-scan">Scan this code with your phone to pay with {wallet}, then confirm on the phone.</p>
          <QrImage svg={scan.svg} label={`Scan with your phone to pay with ${wallet}`} />
          <Waiting text="Waiting for the confirmation on your phone: this page updates by itself." />
        </>
      ) : (
        <p className="note" id="apm-native">
          The {wallet} button below stands for the browser's own wallet sheet.
        </p>
      )}
      <p className="note" id="apm-flow">
        {flow === 'card'
          ? `Card flow: the token is decrypted and the card ${card ?? ''} is stored; capture and recurring are available.`
          : 'Virtual flow: no card is stored; DMS capture and recurring payments are not available.'}
      </p>
    </>
  )
}
