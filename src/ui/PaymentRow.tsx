import { Text } from 'ink'
import type { Payment } from './client-types.js'
import { cell, cellRight, shortId, shortTime } from './format.js'
import { StatusText } from './StatusText.js'
import { useTheme } from './theme.js'

/**
 * Column widths of the payments list at a given terminal width (80 columns is the smallest). From
 * 120 columns the API and the payment's short id are shown too and the merchant column widens;
 * from 156 the full payment id (what a support ticket quotes). The order column takes what is
 * left: 15 at 80 columns, 32 at 120 (issue 33: it was cut to 8 at 120 by the full id).
 */
export const FULL_ID_FROM = 156

export function paymentColumns(width: number) {
  const wide = width >= 120
  const fixed = {
    cursor: 2,
    time: 11,
    status: 10,
    amount: 13,
    method: 9,
    merchant: wide ? 18 : 14,
    api: wide ? 9 : 0,
    id: width >= FULL_ID_FROM ? 36 : wide ? 8 : 0,
  }
  const gaps = wide ? 8 : 6
  const used = Object.values(fixed).reduce((a, b) => a + b, 0) + gaps
  return { ...fixed, order: Math.max(8, width - used) }
}

export function PaymentHeader({ width }: { width: number }) {
  const theme = useTheme()
  const c = paymentColumns(width)
  const text = [
    cell('', c.cursor - 1),
    cell('created', c.time),
    cell('status', c.status),
    cellRight('amount', c.amount),
    cell('method', c.method),
    cell('order', c.order),
    cell('merchant', c.merchant),
    ...(c.id ? [cell('api', c.api), cell(c.id < 36 ? 'id' : 'payment id', c.id)] : []),
  ].join(' ')
  return <Text {...theme.tone('muted')}>{text}</Text>
}

/** `> 11-02 10:00  settled      25.00 EUR card    order-1001   demo-merchant` */
export function PaymentRow({
  payment,
  selected,
  width,
}: {
  payment: Payment
  selected: boolean
  width: number
}) {
  const theme = useTheme()
  const c = paymentColumns(width)
  const amount = `${payment.order.amount} ${payment.order.currency}`
  return (
    <Text wrap="truncate" {...(selected ? theme.tone('accent') : {})} bold={selected && theme.colors}>
      {selected ? '> ' : '  '}
      {cell(shortTime(payment.created_at), c.time)} <StatusText status={payment.status} width={c.status} />{' '}
      {cellRight(amount, c.amount)} {cell(payment.method, c.method)} {cell(payment.order_id, c.order)}{' '}
      {cell(payment.merchant_key, c.merchant)}
      {c.id ? ` ${cell(payment.api, c.api)} ${cell(c.id < 36 ? shortId(payment.id) : payment.id, c.id)}` : ''}
    </Text>
  )
}
