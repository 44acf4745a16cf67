import type { CallbacksQuery, PaymentsQuery } from './client-types.js'

/**
 * A list filter. The sandbox applies all of it, across every stored payment or callback (its
 * indexes answer in milliseconds), so the console never filters a partial list itself.
 */
export interface PaymentFilter {
  merchant?: string
  /** Payment status, or a callback's delivery state. */
  status?: string
  order?: string
  /** Method identifier (`card`, `vcard`, ...); on callbacks, the kind (`sale`, `SALE`, `refund`, ...). */
  method?: string
  /** Free text: part of an order number or payment id (callbacks: or delivery id). */
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
  kind: 'method',
  state: 'status',
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
      return {
        problem: `Unknown filter "${token.slice(0, at)}": use merchant:, status:, order:, method: (or state:, kind:)`,
      }
    if (!value) return { problem: `"${token}" needs a value after the colon` }
    filter[key] = value
  }
  if (words.length) filter.text = words.join(' ')
  return { filter }
}

/**
 * The filter in the words of its list: on callbacks, a delivery's `state:` and `kind:` (what
 * the callbacks query asks for), on payments `status:` and `method:`.
 */
export function describeFilter(filter: PaymentFilter, list: 'payments' | 'callbacks' = 'payments'): string {
  const word = (k: keyof PaymentFilter) =>
    list === 'callbacks' && k === 'status' ? 'state' : list === 'callbacks' && k === 'method' ? 'kind' : k
  const parts = (['merchant', 'status', 'order', 'method'] as const).flatMap((k) =>
    filter[k] ? [`${word(k)}:${filter[k]}`] : [],
  )
  if (filter.text) parts.push(`"${filter.text}"`)
  return parts.join(' ')
}

/** Rows the console asks for at a time; `]` and `[` page through the rest. */
export const PAGE_SIZE = 100

/** The payments query: every part of the filter is the sandbox's to apply. */
export const filterQuery = (filter: PaymentFilter, page = 1): PaymentsQuery => ({
  ...(filter.merchant ? { merchant: filter.merchant } : {}),
  ...(filter.status ? { status: filter.status.toLowerCase() } : {}),
  ...(filter.order ? { order_id: filter.order } : {}),
  ...(filter.method ? { method: filter.method.toLowerCase() } : {}),
  ...(filter.text ? { search: filter.text } : {}),
  page: String(page),
  per_page: String(PAGE_SIZE),
})

/** The callbacks query: the same filter words, for deliveries (status: is the state, method: the kind). */
export const callbackQuery = (filter: PaymentFilter, paymentId?: string, page = 1): CallbacksQuery => ({
  ...(paymentId ? { payment_id: paymentId } : {}),
  ...(filter.merchant ? { merchant: filter.merchant } : {}),
  ...(filter.status ? { state: filter.status.toLowerCase() } : {}),
  ...(filter.order ? { order_id: filter.order } : {}),
  ...(filter.method ? { kind: filter.method } : {}),
  ...(filter.text ? { search: filter.text } : {}),
  page: String(page),
  per_page: String(PAGE_SIZE),
})

/** `101-200 of 5,018` */
export function pageSummary(page: number, shown: number, total: number): string {
  if (!total) return '0'
  const first = (page - 1) * PAGE_SIZE + 1
  return shown ? `${first}-${first + shown - 1} of ${total}` : `none on page ${page} of ${total}`
}
