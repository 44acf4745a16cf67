import type { SandboxMerchant } from '../engine/context.js'
import type { EngineContext } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import type { Payment, StoredCard } from '../engine/model.js'
import { issueRecurringToken } from './tokens.js'

/**
 * The device wallets' two flows (2.2.3 "Flow rules for both wallets"):
 * 1. "By default payments are virtual: card details are not stored, DMS capture and recurring
 *    creation are limited."
 * 2. "Card flow applies only when the decryption private key is set in the panel and the payment
 *    provider supports card flow. Then ... the card data is stored ..., and capture in DMS mode,
 *    recurring ..., smart routing and cascading are available."
 * 3. "When either condition is missing, the payment follows the virtual flow."
 * 4. "When the provider supports card flow but does not accept decrypted data, the platform still
 *    stores the card, but smart routing and cascading are unavailable."
 */

export const WALLETS = ['wallet1', 'wallet2'] as const
export type WalletId = (typeof WALLETS)[number]

export const isWallet = (method: string): method is WalletId =>
  (WALLETS as readonly string[]).includes(method)

export interface WalletFlow {
  flow: 'card' | 'virtual'
  /** Rule 4: false when the provider does not accept decrypted data (or in the virtual flow). */
  smart_routing: boolean
}

/** The flow of a wallet for a merchant, from its Wallets tab (config `wallets`). */
export function walletFlow(merchant: SandboxMerchant | undefined, wallet: WalletId): WalletFlow {
  const settings = merchant?.wallets?.[wallet]
  // wallet1 names the decryption key "Processing Private Key"; wallet2 "Private Key (required only
  // when the platform decrypts the token)".
  const key =
    wallet === 'wallet1'
      ? (settings as { processing_private_key?: string } | undefined)?.processing_private_key
      : (settings as { private_key?: string } | undefined)?.private_key
  const providerSupports = settings?.provider_supports_card_flow !== false
  if (!key || !providerSupports) return { flow: 'virtual', smart_routing: false }
  return { flow: 'card', smart_routing: settings?.provider_accepts_decrypted_data !== false }
}

/** The flow a wallet payment followed: a card-flow payment keeps the decrypted card (masked). */
export const paymentWalletFlow = (payment: Payment): WalletFlow['flow'] | undefined =>
  isWallet(payment.method) ? (payment.card ? 'card' : 'virtual') : undefined

/**
 * (sandbox) Refuses what rule 1 limits in the virtual flow: a DMS capture or a recurring payment
 * from a virtual-flow wallet payment. Call before capturing or charging a secondary payment.
 */
export function assertWalletAllows(payment: Payment, operation: 'capture' | 'recurring'): void {
  if (paymentWalletFlow(payment) !== 'virtual') return
  throw fail(operation === 'capture' ? 'WALLET_VIRTUAL_FLOW_CAPTURE' : 'WALLET_VIRTUAL_FLOW_RECURRING')
}

/**
 * (sandbox) The card a decrypted sandbox wallet token carries: the platform's success test card,
 * kept masked like every stored card, with an expiry two years after the payment.
 */
export function decryptedWalletCard(ctx: EngineContext, wallet: WalletId): StoredCard {
  const year = new Date(ctx.clock.now()).getUTCFullYear() + 2
  return {
    masked: '411111******1111',
    bin: '411111',
    last4: '1111',
    brand: 'visa',
    exp_month: '01',
    exp_year: String(year),
    holder: `${wallet} payer`,
  }
}

/**
 * A wallet payment the payer approved: a recurring chain it initializes (card flow only: the
 * virtual flow refuses one at payment time) gets its token. Changes `payment` only (the caller
 * stores it).
 */
export function completeWalletApproval(ctx: EngineContext, payment: Payment): void {
  if (!isWallet(payment.method) || paymentWalletFlow(payment) !== 'card') return
  if (payment.status === 'settled' || payment.status === 'pending') issueRecurringToken(ctx, payment)
}
