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
  // The order number and the description are the merchant's text in any script: each is isolated
  // (<bdi>), so in a right-to-left page a long Latin order number and the description do not run
  // into each other or into the translated words around them.
  // (The translation's own isolation marks around the number give way to the element.)
  const [before = '', after = ''] = t('orderNumber', { number: '\uE000' })
    .replace(/\u2068?\uE000\u2069?/, '\uE000')
    .split('\uE000')
  return (
    <section className="summary" aria-label={t('amountDue')}>
      <p className="merchant">{t('payTo', { merchant })}</p>
      <h1 className="amount">
        <span className="sr-only">{t('amountDue')}: </span>
        {amount}
      </h1>
      <p className="order">
        {before}
        <bdi>{orderNumber}</bdi>
        {after}
        {description ? (
          <>
            {' · '}
            <bdi>{description}</bdi>
          </>
        ) : null}
      </p>
    </section>
  )
}
