import type { MerchantAction, MerchantRequest, Payment, SentAnswer } from './client-types.js'
import { wrap } from './lines.js'
import type { Ui } from './ui-context.js'

export type PayerMove = 'approve' | 'decline' | 'expire' | 'pending'

const isApm = (payment: Payment) => 'apm' in payment

const PAYER_WORDS: Record<PayerMove, string> = {
  approve: 'approve the APM payment',
  decline: 'decline the APM payment',
  expire: 'let the APM payment expire',
  pending: 'leave the APM payment pending',
}

/**
 * The payer's side: an APM's simulator outcome, a card's 3DS result, or the payer's return from
 * a card redirect (whose outcome is the test card's own). Asked for confirmation first.
 */
export function payerAction(ui: Ui, payment: Payment, move: PayerMove): void {
  const { client } = ui
  const id = payment.id
  let run: (() => Promise<{ status: string; decline_reason?: string }>) | undefined
  let what = PAYER_WORDS[move]
  if (isApm(payment)) run = () => client.apmOutcome(id, move)
  else if (payment.status === '3ds' && (move === 'approve' || move === 'decline')) {
    const result = move === 'approve' ? 'pass' : 'fail'
    what = `${result} 3DS for the payer`
    run = () => client.threeDs(id, result)
  } else if (payment.status === 'redirect' && move === 'approve') {
    what = 'bring the payer back from the redirect (the test card decides the outcome)'
    run = () => client.payerReturn(id)
  }
  if (!run) {
    ui.notify(
      payment.status === 'redirect'
        ? "A card redirect ends with the test card's own outcome: press a to bring the payer back."
        : `The payer has nothing to do (${move}): the payment is ${payment.status}.`,
      'warn',
    )
    return
  }
  const act = run
  ui.confirm({
    title: `${what}?`,
    lines: [
      `payment ${id}`,
      `order ${payment.order_id}, ${payment.order.amount} ${payment.order.currency}, now ${payment.status}`,
    ],
    run: async () => {
      const answer = await act()
      return `Payment is now ${answer.status}${answer.decline_reason ? ` (${answer.decline_reason})` : ''}.`
    },
  })
}

/**
 * Capture, refund or void as the merchant would: the sandbox signs the request with the
 * merchant's password, the console shows it, and on yes sends it to the merchant endpoint.
 */
export function merchantAction(ui: Ui, payment: Payment, action: Exclude<MerchantAction, 'status'>): void {
  if (action === 'void') return void prepare(ui, payment, action)
  ui.prompt({
    label: `${action} amount in ${payment.order.currency} (empty: the full amount, as the merchant omits it)`,
    hint: `order ${payment.order.amount}, captured ${payment.amount_captured || '0'}, refunded ${payment.amount_refunded || '0'}`,
    onSubmit: (amount) => void prepare(ui, payment, action, amount.trim() || undefined),
  })
}

async function prepare(ui: Ui, payment: Payment, action: MerchantAction, amount?: string): Promise<void> {
  let request: MerchantRequest
  try {
    request = await ui.client.merchantRequest(payment.id, action, amount)
  } catch (error) {
    return ui.notify(`Could not prepare the ${action}: ${(error as Error).message}`, 'bad')
  }
  ui.confirm({
    title: `${action} ${amount ? `${amount} ${payment.order.currency}` : 'the full amount'} as ${payment.merchant_key}?`,
    lines: [
      `${request.method} ${request.path}  (${request.content_type})`,
      ...wrap(request.body, ui.width - 6),
    ],
    run: async () => describeAnswer(action, await ui.client.send(request)),
  })
}

/** `capture: HTTP 200, status settled`; a refusal is thrown with the gateway's own message. */
export function describeAnswer(action: string, answer: SentAnswer): string {
  const body = (answer.body ?? {}) as Record<string, unknown>
  if (typeof body !== 'object') return `${action}: HTTP ${answer.status} ${String(answer.body).slice(0, 60)}`
  if (answer.status >= 400 || body.result === 'ERROR') {
    const items = Array.isArray(body.errors)
      ? body.errors.map((e: { error_message?: string }) => e.error_message)
      : []
    const detail = [body.error_message, ...items].filter(Boolean).join(' ')
    throw new Error(`the gateway refused the ${action} (HTTP ${answer.status}): ${detail}`)
  }
  const parts = [
    'result',
    'status',
    'trans_status',
    'payment_status',
    'error_message',
    'reason',
    'decline_reason',
  ]
    .filter((k) => body[k] !== undefined)
    .map((k) => `${k} ${String(body[k])}`)
  return `${action}: HTTP ${answer.status}${parts.length ? `, ${parts.join(', ')}` : ''}`
}

/** A curl command that repeats the merchant's status lookup of this payment, signed. */
export async function copyStatusCurl(ui: Ui, payment: Payment): Promise<void> {
  try {
    const request = await ui.client.merchantRequest(payment.id, 'status')
    ui.copy(request.curl)
    ui.showText(
      "curl: the merchant's status lookup of this payment (copied to the clipboard if the terminal allows)",
      [...wrap(request.curl, ui.width - 2).map((l) => [{ text: l }])],
    )
  } catch (error) {
    ui.notify(`Could not build the curl command: ${(error as Error).message}`, 'bad')
  }
}
