import { QrImage, type ViewText, Waiting } from './common.js'

export interface WalletViewProps {
  text: ViewText
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
export function WalletView({ text, scan, flow, card }: WalletViewProps) {
  const { t, name, amount } = text
  return (
    <>
      <p id="apm-message">{t('apmWalletConfirm', { amount })}</p>
      {scan ? (
        <>
          <p id="apm-scan">{t('apmWalletScan', { method: name })}</p>
          <QrImage svg={scan.svg} label={t('apmWalletScan', { method: name })} />
          <Waiting text={t('apmWaitPhone')} />
        </>
      ) : (
        <p className="note" id="apm-native">
          {t('apmWalletNative', { method: name })}
        </p>
      )}
      <p className="note" id="apm-flow">
        {flow === 'card' ? t('walletCardFlow', { card: card ?? '' }) : t('walletVirtualFlow')}
      </p>
    </>
  )
}
