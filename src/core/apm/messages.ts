import type { EngineContext } from '../engine/context.js'
import type { EngineEvent } from '../engine/events.js'
import { formatDateTime } from '../engine/format.js'
import { md5 } from '../signatures/index.js'
import { apmPageUrl } from './connector.js'
import { isApmPayment } from './types.js'

/**
 * (sandbox) The messages the simulated connectors "send" to payers: the payment link of ptn-email
 * and ptn-sms (2.2.2 "Message with payment link: ptn-email (e-mail), ptn-sms (SMS)") and beeline's
 * one-time code (2.2.2 "OTP sent to payer"). Nothing leaves the sandbox: each message is written
 * to the log and kept here, readable through `GET /sandbox/messages`, so a tester (or a scenario)
 * follows the link or types the code. Kept in memory per engine, emptied by the sandbox's reset.
 */
export interface SentMessage {
  id: string
  payment_id: string
  merchant_key: string
  method: string
  kind: 'payment_link' | 'otp'
  channel: 'email' | 'sms'
  /** Who it was sent to, when the merchant or the page gave the address or number. */
  to?: string
  text: string
  /** The simulator page the link opens (payment links). */
  link?: string
  sent_at: string
}

const LOGS = new WeakMap<EngineContext, SentMessage[]>()

const logOf = (ctx: EngineContext): SentMessage[] => {
  let log = LOGS.get(ctx)
  if (!log) {
    log = []
    LOGS.set(ctx, log)
  }
  return log
}

/** Messages sent so far, oldest first; only one payment's when `paymentId` is given. */
export function sentMessages(ctx: EngineContext, paymentId?: string): SentMessage[] {
  const log = logOf(ctx)
  return paymentId ? log.filter((m) => m.payment_id === paymentId) : [...log]
}

/** beeline's one-time code: six digits derived from the payment id, so seeded runs repeat it. */
export const beelineOtp = (paymentId: string): string =>
  (BigInt(`0x${md5(`${paymentId}:otp`)}`) % 1_000_000n).toString().padStart(6, '0')

const PAYMENT_LINK = new Set(['ptn-email', 'ptn-sms'])

/** Sends what the payment's method sends when its payer is sent to the simulator page (once). */
export function sendPayerMessages(ctx: EngineContext, paymentId: string): void {
  const payment = ctx.store.get('payments', paymentId)
  if (!isApmPayment(payment) || payment.status !== 'redirect') return
  if (sentMessages(ctx, paymentId).length) return
  const payer = payment.payer ?? {}
  const phone = payer.payer_phone
    ? `${payer.payer_phone_country_code ? `+${payer.payer_phone_country_code} ` : ''}${payer.payer_phone}`
    : undefined
  const base = {
    payment_id: payment.id,
    merchant_key: payment.merchant_key,
    method: payment.method,
    sent_at: formatDateTime(ctx.clock.now()),
  }
  let message: Omit<SentMessage, 'id'> | undefined
  if (PAYMENT_LINK.has(payment.method)) {
    const channel = payment.method === 'ptn-sms' ? 'sms' : 'email'
    const to = channel === 'email' ? (payer.payer_email ?? payment.apm.identifier) : phone
    const link = apmPageUrl(ctx, payment.id)
    message = {
      ...base,
      kind: 'payment_link',
      channel,
      ...(to ? { to } : {}),
      link,
      text: `Pay ${payment.order.amount} ${payment.order.currency} for order ${payment.order_id}: ${link}`,
    }
  } else if (payment.method === 'beeline') {
    message = {
      ...base,
      kind: 'otp',
      channel: 'sms',
      ...(phone ? { to: phone } : {}),
      text: `Your beeline confirmation code is ${beelineOtp(payment.id)}.`,
    }
  }
  if (!message) return
  const sent = { id: ctx.ids.uuid(), ...message }
  logOf(ctx).push(sent)
  ctx.logger.info('payer message sent (sandbox: not delivered)', { ...sent })
}

/** Listens to the engine: a payment reaching its simulator page triggers its method's message. */
export function startMessages(ctx: EngineContext): () => void {
  return ctx.events.subscribe((event: EngineEvent) => {
    if (event.type === 'reset') logOf(ctx).splice(0)
    else if (event.type === 'payment' && event.status === 'redirect') sendPayerMessages(ctx, event.payment_id)
  })
}
