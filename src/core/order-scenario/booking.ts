import { currencyExponent, fromMinor, toMinor } from '../engine/format.js'
import type { Payment } from '../engine/model.js'

/**
 * What the merchant should have booked for an order, in the merchant contract's words
 * (docs/conformance.md, inspect: `new`, `pending`, `authorized`, `paid`, `failed`, `refunded`,
 * `reversed`, `cancelled`), from where the gateway left the order's payments: the payment that
 * counts is the newest one that was not declined, else the newest. The sandbox never sees the
 * merchant's own books; it knows what it reported to it.
 */
export interface Booking {
  fields: Record<string, string>
  /** Where the expectation comes from, for the step's description. */
  because: string
}

const money = (amount: string, currency: string) => {
  const exponent = currencyExponent(currency)
  try {
    return fromMinor(toMinor(amount || '0', exponent), exponent)
  } catch {
    return amount
  }
}

export function expectedBooking(payments: Payment[]): Booking | undefined {
  const counted = [...payments].reverse().find((p) => p.status !== 'decline') ?? payments.at(-1)
  if (!counted) return undefined
  const currency = counted.order.currency
  const zero = money('0', currency)
  const captured = money(counted.amount_captured || counted.order.amount, currency)
  const refunded = money(counted.amount_refunded || '0', currency)
  const which =
    payments.length > 1
      ? `its newest payment${counted !== payments.at(-1) ? ' not declined' : ''}`
      : 'its payment'
  const because = `${which} ended ${counted.status}${counted.auth ? ' (held: auth)' : ''} at the gateway`
  switch (counted.status) {
    case 'settled':
      if (counted.auth && counted.amount_captured === '0')
        return { fields: { '$.state': 'authorized', '$.amount_paid': zero }, because }
      return {
        fields: {
          '$.state': 'paid',
          '$.amount_paid': captured,
          ...(refunded !== zero ? { '$.amount_refunded': refunded } : {}),
        },
        because,
      }
    case 'pending':
      return {
        fields: { '$.state': counted.auth ? 'authorized' : 'pending', '$.amount_paid': zero },
        because,
      }
    case 'prepare':
    case '3ds':
    case 'redirect':
      return { fields: { '$.state': 'pending', '$.amount_paid': zero }, because }
    case 'decline':
      return { fields: { '$.state': 'failed', '$.amount_paid': zero }, because }
    case 'refund':
      // docs/conformance.md, inspect: a partial refund keeps the order paid (the gateway may call it `refund`).
      if (toMinor(refunded, currencyExponent(currency)) < toMinor(captured, currencyExponent(currency)))
        return {
          fields: { '$.state': 'paid', '$.amount_paid': captured, '$.amount_refunded': refunded },
          because,
        }
      return { fields: { '$.state': 'refunded', '$.amount_refunded': refunded }, because }
    case 'reversal':
      return { fields: { '$.state': 'reversed', '$.amount_paid': zero }, because }
    case 'void':
      return { fields: { '$.state': 'cancelled' }, because }
    default:
      return undefined
  }
}
