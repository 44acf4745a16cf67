import type { ScenarioCard } from '../../generated/types.js'

/** docs/rules.md#test-cards: card 4111111111111111, any CVV; the expiry month picks the outcome. */
const MONTHS: Record<string, [string, string]> = {
  success: ['01', '2030'],
  decline: ['02', '2030'],
  capture_decline: ['03', '2030'],
  '3ds_success': ['05', '2030'],
  '3ds_decline': ['06', '2030'],
  redirect_success: ['12', '2030'],
  redirect_decline: ['12', '2039'],
}

export const TEST_CARD = '4111111111111111'
export const PAYER_EMAIL = 'doe@example.com'

export function cardFor(
  outcome: string | undefined,
  card: ScenarioCard | undefined,
): ScenarioCard | undefined {
  if (card) return card
  if (!outcome) return undefined
  const [exp_month, exp_year] = MONTHS[outcome] ?? MONTHS.success ?? ['01', '2030']
  return { number: TEST_CARD, exp_month, exp_year, cvv: '123', holder: 'John Doe' }
}

/** The Hosted Payment Fields body (docs/rules.md#beyond-the-interface) for a card. */
export const hpfBody = (card: ScenarioCard): Record<string, string> => ({
  card_number: card.number,
  card_exp_month: card.exp_month,
  card_exp_year: card.exp_year,
  ...(card.cvv ? { card_cvv2: card.cvv } : {}),
  ...(card.holder ? { card_holder: card.holder } : {}),
  ...(card.email ? { payer_email: card.email } : {}),
})

/** S2S CARD fields of a card, with the documented payer the kit plays. */
export const s2sCardFields = (card: ScenarioCard): Record<string, string> => ({
  card_number: card.number,
  card_exp_month: card.exp_month,
  card_exp_year: card.exp_year,
  ...(card.cvv ? { card_cvv2: card.cvv } : {}),
  payer_first_name: 'John',
  payer_last_name: 'Doe',
  payer_email: card.email ?? PAYER_EMAIL,
  payer_phone: '5551234567',
  payer_ip: '203.0.113.10',
})
