import type { MethodCatalogueEntry } from '../generated/types.js'
import { canonicalMethodId, findMethod } from '../core/payments/methods.js'
import { sessionRequest } from '../core/sessions/session-access.js'
import type { OrderData, Session } from '../core/engine/model.js'
import { isMotoType } from '../core/payments/card.js'
import { formatAmount } from './amount.js'
import { missingFields, type PageField } from './method-fields.js'
import { methodKind, methodName } from './method-name.js'
import { merchantName, type PageContext, pagePath, paymentOf } from './page-context.js'

export interface MethodChoice {
  id: string
  /** The payer-facing name (brand, or a plain description in the page's language). */
  title: string
  /** What it is, in plain words, under a brand name ("E-wallet" under "Papara"). */
  kind?: string
  group: string
  href: string
  isCard: boolean
}

export interface CheckoutView {
  token: string
  merchant: string
  order: OrderData
  amountText: string
  methods: MethodChoice[]
  selected: MethodChoice
  /** The fields the selected (non-card) method still needs from the payer. */
  fields: PageField[]
  /** 2.1.3: the state field, for CA, US, JP, AU and IN only, when the merchant sent none. */
  askState: boolean
  /** 2.1.3: "When omitted, the hosted page collects it in a separate field next to the phone." */
  askPhoneCode: boolean
  phone?: string
  /** 2.5: the security code is optional for MOTO sessions. */
  cvvOptional: boolean
  /** The Terms & Conditions checkbox, where the mapping enables it and the method allows it. */
  terms?: { url: string }
  expiresInSeconds: number
  /** The engine's clock: a virtual one moves only when advanced, so the page does not count down by itself. */
  clock: 'virtual' | 'system'
  /** The reason of the session's last payment, when it was declined (the payer may try again). */
  declineReason?: string
}

/** 2.1.3: "Collected from the payer only when country is CA, US, JP, AU or IN". */
export const STATE_COUNTRIES = new Set(['CA', 'US', 'JP', 'AU', 'IN'])

/**
 * Events: the checkbox "is not shown for one-click wallet buttons, crypto, custom forms, Hosted
 * Payment Fields and methods with their own form". Wallets and crypto are read from the catalogue
 * (group, or a crypto method named as such); "their own form" is the provider's widget.
 */
const NO_TERMS_GROUPS = new Set(['wallet', 'crypto_address', 'widget'])
const CRYPTO_METHODS = new Set(['txn', 'txn-f', 'hayvn', 'm2p-debit', 'awcc'])

export function termsApply(entry: Pick<MethodCatalogueEntry, 'id' | 'group'>): boolean {
  return !NO_TERMS_GROUPS.has(entry.group) && !CRYPTO_METHODS.has(entry.id) && !/crypto/i.test(entry.id)
}

/**
 * The methods the page offers: the session's `methods`, in the merchant's order. Without them
 * (sandbox): the methods the merchant's MIDs list; a MID that lists none serves every method,
 * which the page shows as the card form alone rather than the whole catalogue.
 */
export function offeredMethods(page: PageContext, session: Session): string[] {
  const fromMids = () => {
    const ids = (page.merchant?.mids ?? []).flatMap((mid) => mid.methods ?? ['card'])
    return ids.length ? ids : ['card']
  }
  const ids = session.methods.length ? session.methods : fromMids()
  const offered = [...new Set(ids)].filter((id) => findMethod(id)?.operations.includes(session.operation))
  return offered.length ? offered : ['card']
}

/**
 * Two choices must never read the same: methods without a brand share their kind's name (txn and
 * hayvn are both "Cryptocurrency", vcard is "Card" beside the card form), so a name used more than
 * once carries the method's identifier, e.g. "Cryptocurrency (txn)". The card form itself
 * (`card`) keeps the plain name.
 */
export function distinctTitles(methods: MethodChoice[]): MethodChoice[] {
  const uses = new Map<string, number>()
  for (const m of methods) uses.set(m.title, (uses.get(m.title) ?? 0) + 1)
  return methods.map((m) =>
    (uses.get(m.title) ?? 0) > 1 && !(m.isCard && m.id === 'card')
      ? { ...m, title: `${m.title} (${m.id})` }
      : m,
  )
}

export function checkoutView(page: PageContext, session: Session, requested?: string): CheckoutView {
  const request = sessionRequest(session)
  const billing = (request.billing_address ?? {}) as Record<string, string | undefined>
  const methods: MethodChoice[] = distinctTitles(
    offeredMethods(page, session).map((id) => {
      const entry = findMethod(id)
      const title = methodName(entry, page.t)
      const kind = methodKind(entry, page.t)
      return {
        id,
        title,
        ...(kind !== title ? { kind } : {}),
        group: entry?.group ?? 'none_described',
        href: pagePath(page, `/auth/${encodeURIComponent(session.page_token)}`, { method: id }),
        isCard: canonicalMethodId(id) === 'card',
      }
    }),
  )
  const selected =
    methods.find((m) => m.id === requested) ??
    (requested === 'card' ? methods.find((m) => m.isCard) : undefined) ??
    (methods[0] as MethodChoice)
  const entry = findMethod(selected.id)
  const mapping = page.merchant?.protocol_mapping?.terms_and_conditions
  const payment = paymentOf(page.ctx, session)
  const country = billing.country?.toUpperCase()
  return {
    token: session.page_token,
    merchant: merchantName(page),
    order: request.order,
    amountText: formatAmount(request.order.amount, request.order.currency, page.lang),
    methods,
    selected,
    fields: entry && !selected.isCard ? missingFields(entry, selected.id, request) : [],
    askState: country !== undefined && STATE_COUNTRIES.has(country) && !billing.state,
    askPhoneCode: !billing.phone_country_code,
    ...(billing.phone ? { phone: billing.phone } : {}),
    cvvOptional: isMotoType(request.moto_type),
    ...(mapping?.enabled && entry && termsApply(entry)
      ? { terms: { url: mapping.url ?? `${page.base}/terms` } }
      : {}),
    expiresInSeconds: Math.max(0, Math.ceil((session.expires_at - page.ctx.clock.now()) / 1000)),
    clock: page.ctx.clock.kind,
    ...(payment?.status === 'decline' ? { declineReason: payment.decline_reason ?? '' } : {}),
  }
}
