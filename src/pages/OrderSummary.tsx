import type { Translate } from './i18n.js'

export interface OrderSummaryProps {
  t: Translate
  merchant: string
  amount: string
  orderNumber: string
  description?: string
}

/** Who is paid, how much, for what: the first thing the payer reads. */
export function OrderSummary({ t, merchant, amount, orderNumber, description }: OrderSummaryProps) {
  return (
    <section className="summary" aria-label={t('amountDue')}>
      <p className="merchant">{t('payTo', { merchant })}</p>
      <h1 className="amount">
        <span className="sr-only">{t('amountDue')}: </span>
        {amount}
      </h1>
      <p className="order">
        {t('orderNumber', { number: orderNumber })}
        {description ? ` · ${description}` : ''}
      </p>
    </section>
  )
}
