import type { Payment, PaymentsQuery } from './client-types.js'

/** The payments list filter: what the sandbox filters, plus what the console filters itself. */
export interface PaymentFilter {
  merchant?: string
  status?: string
  order?: string
  /** Method identifier (`card`, `vcard`, ...): the control API has no method filter, so the console applies it. */
  method?: string
  /** Free text: part of an order number or payment id. */
  text?: string
}

const KEYS: Record<string, keyof PaymentFilter> = {
  merchant: 'merchant',
  m: 'merchant',
  status: 'status',
  s: 'status',
  order: 'order',
  o: 'order',
  method: 'method',
}

/** `status:settled method:card merchant:demo-merchant order:o-1 text` -> a filter, or the word it cannot read. */
export function parseFilter(input: string): { filter: PaymentFilter } | { problem: string } {
  const filter: PaymentFilter = {}
  const words: string[] = []
  for (const token of input.trim().split(/\s+/).filter(Boolean)) {
    const at = token.indexOf(':')
    if (at < 0) {
      words.push(token)
      continue
    }
    const key = KEYS[token.slice(0, at).toLowerCase()]
    const value = token.slice(at + 1)
    if (!key)
      return { problem: `Unknown filter "${token.slice(0, at)}": use merchant:, status:, order:, method:` }
    if (!value) return { problem: `"${token}" needs a value after the colon` }
    filter[key] = value
  }
  if (words.length) filter.text = words.join(' ')
  return { filter }
}

export function describeFilter(filter: PaymentFilter): string {
  const parts = (['merchant', 'status', 'order', 'method'] as const).flatMap((k) =>
    filter[k] ? [`${k}:${filter[k]}`] : [],
  )
  if (filter.text) parts.push(`"${filter.text}"`)
  return parts.join(' ')
}

/** The query the sandbox filters by (newest 100). */
export const filterQuery = (filter: PaymentFilter): PaymentsQuery => ({
  ...(filter.merchant ? { merchant: filter.merchant } : {}),
  ...(filter.status ? { status: filter.status.toLowerCase() } : {}),
  ...(filter.order ? { order_id: filter.order } : {}),
  per_page: '100',
})

/** What the console filters itself, after the sandbox's answer. */
export function matchesLocally(payment: Payment, filter: PaymentFilter): boolean {
  if (filter.method && payment.method.toLowerCase() !== filter.method.toLowerCase()) return false
  if (filter.text) {
    const text = filter.text.toLowerCase()
    if (!payment.order_id.toLowerCase().includes(text) && !payment.id.toLowerCase().includes(text))
      return false
  }
  return true
}
