import { findMethod } from '../core/payments/methods.js'
import type { MethodCatalogueEntry } from '../generated/types.js'
import type { MessageKey, Translate } from './i18n.js'

type Named = Pick<MethodCatalogueEntry, 'payer_kind' | 'display_name'>

/** What the method is, in the payer's language (catalogue `payer_kind`): "Bank transfer", "E-wallet". */
export const methodKind = (entry: Named | undefined, t: Translate): string =>
  t(`kind_${entry?.payer_kind ?? 'online_payment'}` as MessageKey)

/**
 * The name a payer reads on every page: the brand they know (catalogue `display_name`: Pix, BLIK,
 * Airtel Money), else a plain description in their language. Never the catalogue's own title or
 * behaviour group, which are written for developers.
 */
export const methodName = (entry: Named | undefined, t: Translate): string =>
  entry?.display_name ?? methodKind(entry, t)

/** The same for a method identifier (an alias, a family member): unknown identifiers read "Online payment". */
export const methodNameOf = (id: string, t: Translate): string => methodName(findMethod(id), t)
