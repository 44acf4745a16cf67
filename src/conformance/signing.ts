import {
  type CardRef,
  checkoutSignatures,
  s2sApmSignatures,
  s2sCardSignatures,
} from '../core/signatures/index.js'

/**
 * The merchant's side of decisions.md §1: the `hash` a request must carry. The kit uses it to
 * sign its own requests (gateway mode) and to check the merchant's (merchant mode). S2S CARD
 * follow-ups are signed over the original payment's e-mail and card, which the kit remembers
 * from the payments it has seen (`PaymentMemory`).
 */

export interface PaymentFacts {
  payerEmail: string
  card: CardRef
}

/** What the kit remembers of S2S payments, by trans_id and by order_id, to sign their follow-ups. */
export class PaymentMemory {
  private byTrans = new Map<string, PaymentFacts>()
  private byOrder = new Map<string, PaymentFacts>()
  private recurring = new Map<string, PaymentFacts>()

  /** A payment request (SALE, AUTH, DEBIT, ...) and the gateway's answer to it. */
  learn(body: Record<string, unknown>, answer: unknown): void {
    const facts = factsOfPaymentRequest(body)
    if (!facts) return
    const a = (answer ?? {}) as Record<string, unknown>
    if (typeof a.trans_id === 'string') this.byTrans.set(a.trans_id, facts)
    if (typeof body.order_id === 'string') this.byOrder.set(body.order_id, facts)
    if (typeof a.recurring_token === 'string') this.recurring.set(a.recurring_token, facts)
  }

  /** A secondary payment is signed over the initial one: its answer's trans_id inherits those facts. */
  learnRecurring(body: Record<string, unknown>, answer: unknown): void {
    const facts = this.forRecurring(body)
    const a = (answer ?? {}) as Record<string, unknown>
    if (!facts) return
    if (typeof a.trans_id === 'string') this.byTrans.set(a.trans_id, facts)
    if (typeof body.order_id === 'string') this.byOrder.set(body.order_id, facts)
  }

  /** Every payer the kit has seen: a payment the gateway made on its own (a schedule's) is signed over one of them. */
  all = (): PaymentFacts[] => [...new Set([...this.byTrans.values(), ...this.byOrder.values()])]

  forTrans = (transId: unknown) => (typeof transId === 'string' ? this.byTrans.get(transId) : undefined)
  forOrder = (orderId: unknown) => (typeof orderId === 'string' ? this.byOrder.get(orderId) : undefined)
  forRecurring(body: Record<string, unknown>): PaymentFacts | undefined {
    const first = body.recurring_first_trans_id ?? body.recurring_init_trans_id
    return (
      this.forTrans(first) ??
      (typeof body.recurring_token === 'string' ? this.recurring.get(body.recurring_token) : undefined)
    )
  }
}

const str = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v)

function factsOfPaymentRequest(body: Record<string, unknown>): PaymentFacts | undefined {
  const email = str(body.payer_email)
  if (typeof body.card_token === 'string' && body.card_token)
    return { payerEmail: email, card: { cardToken: body.card_token } }
  if (typeof body.card_number === 'string' && body.card_number)
    return { payerEmail: email, card: { cardNumber: body.card_number } }
  // CARD2CARD with the platform's names (platform-facts 4): the payer's card signs it.
  if (typeof body.payer_card_number === 'string' && body.payer_card_number)
    return { payerEmail: email, card: { cardNumber: body.payer_card_number } }
  return undefined
}

const order = (body: Record<string, unknown>) => {
  const o = (body.order ?? {}) as Record<string, unknown>
  return {
    number: str(o.number),
    amount: str(o.amount),
    currency: str(o.currency),
    description: str(o.description),
  }
}

/** The Checkout `hash` of a request to `path`; undefined for endpoints signed otherwise (Token header). */
export function checkoutHash(
  path: string,
  body: Record<string, unknown>,
  password: string,
): string | undefined {
  switch (path) {
    case '/api/v1/session':
    case '/api/v1/session/token':
      return checkoutSignatures.session(order(body), password)
    case '/api/v1/payment/capture':
    case '/api/v1/payment/refund':
      return checkoutSignatures.amountOperation(
        str(body.payment_id),
        body.amount === undefined ? undefined : str(body.amount),
        password,
      )
    case '/api/v1/payment/void':
    case '/api/v1/payment/retry':
      return checkoutSignatures.paymentOperation(str(body.payment_id), password)
    case '/api/v1/payment/status':
      return body.payment_id !== undefined
        ? checkoutSignatures.paymentOperation(str(body.payment_id), password)
        : checkoutSignatures.statusByOrder(str(body.order_id), password)
    case '/api/v1/payment/recurring':
      return checkoutSignatures.recurring(
        str(body.recurring_init_trans_id),
        str(body.recurring_token),
        order(body),
        password,
      )
    case '/api/v1/payment/card/credit':
      return checkoutSignatures.credit(
        {
          order_id: str(body.order_id),
          order_amount: str(body.order_amount),
          order_currency: str(body.order_currency),
          order_description: str(body.order_description),
        },
        password,
      )
    default:
      return undefined
  }
}

const PAYMENT_ACTIONS = new Set(['SALE', 'AUTH', 'DEBIT'])
const RECURRING_ACTIONS = new Set(['RECURRING_SALE', 'RECURRING_DEBIT'])
const TRANSACTION_ACTIONS = new Set([
  'CAPTURE',
  'VOID',
  'CREDITVOID',
  'GET_TRANS_STATUS',
  'GET_TRANS_DETAILS',
])
const SCHEDULE_ACTIONS = new Set([
  'UPDATE_SCHEDULE',
  'DELETE_SCHEDULE',
  'PAUSE',
  'RUN',
  'PAUSE_SCHEDULE',
  'RUN_SCHEDULE',
  'SCHEDULE_INFO',
  'DESCHEDULE',
])

/** Why a request cannot be signed: the kit has not seen the payment it refers to. */
export class UnsignableError extends Error {}

/** The S2S CARD `hash` of an action (decisions.md §1). */
export function s2sCardHash(
  action: string,
  body: Record<string, unknown>,
  password: string,
  memory: PaymentMemory,
): string | undefined {
  if (PAYMENT_ACTIONS.has(action)) {
    const facts = factsOfPaymentRequest(body)
    return facts ? s2sCardSignatures.payment(facts.payerEmail, password, facts.card) : undefined
  }
  if (RECURRING_ACTIONS.has(action)) {
    const facts = memory.forRecurring(body)
    if (!facts)
      throw new UnsignableError(
        `cannot sign ${action}: the kit has not seen the initial payment ${str(body.recurring_first_trans_id ?? body.recurring_init_trans_id)}`,
      )
    return s2sCardSignatures.payment(facts.payerEmail, password, facts.card)
  }
  if (TRANSACTION_ACTIONS.has(action)) {
    // An unknown trans_id (an error-row scenario) is signed over empty payer data: the gateway
    // must answer "not found" before it could check a signature it has nothing to compute from.
    const facts = memory.forTrans(body.trans_id) ?? { payerEmail: '', card: { cardNumber: '' } }
    return s2sCardSignatures.transaction(facts.payerEmail, password, str(body.trans_id), facts.card)
  }
  if (action === 'GET_TRANS_STATUS_BY_ORDER') {
    const facts = memory.forOrder(body.order_id) ?? { payerEmail: '', card: { cardNumber: '' } }
    return s2sCardSignatures.byOrder(facts.payerEmail, password, str(body.order_id), facts.card)
  }
  if (action === 'CREATE_SCHEDULE') return s2sCardSignatures.createSchedule(password)
  if (SCHEDULE_ACTIONS.has(action)) return s2sCardSignatures.schedule(str(body.schedule_id), password)
  // decisions.md §1: CARD2CARD Formula 1 over the payer's card; CREDIT2CARD Formula 5.
  if (action === 'CARD2CARD')
    return s2sCardSignatures.card2card(
      typeof body.payer_email === 'string' ? body.payer_email : undefined,
      password,
      str(body.payer_card_number ?? body.card_number),
    )
  if (action === 'CREDIT2CARD')
    return s2sCardSignatures.credit2card(
      password,
      typeof body.card_token === 'string'
        ? { cardToken: body.card_token }
        : { cardNumber: str(body.card_number) },
    )
  if (action === 'RETRY') {
    const facts = memory.forTrans(body.trans_id) ?? { payerEmail: '', card: { cardNumber: '' } }
    return s2sCardSignatures.payment(facts.payerEmail, password, facts.card)
  }
  return undefined
}

/** The S2S APM `hash` of an action (decisions.md §1; Authentication 3). */
export function s2sApmHash(
  action: string,
  body: Record<string, unknown>,
  password: string,
): string | undefined {
  switch (action) {
    case 'SALE':
    case 'DEBIT2VIRTUAL':
    case 'DEBIT2VIRTUAL_CALC':
      return s2sApmSignatures.payment(
        str(body.identifier),
        str(body.order_id),
        str(body.order_amount),
        str(body.order_currency),
        password,
      )
    case 'CREDIT2VIRTUAL':
    case 'CREDIT2CRYPTO':
      return s2sApmSignatures.credit2virtual(
        str(body.order_id),
        typeof body.order_amount === 'string' ? body.order_amount : undefined,
        str(body.order_currency),
        password,
      )
    case 'CREDITVOID':
      return s2sApmSignatures.creditvoid(str(body.trans_id), password)
    case 'CAPTURE':
    case 'VOID':
    case 'GET_TRANS_STATUS':
    case 'DEBIT2VIRTUAL_COMPLETE':
      return s2sApmSignatures.transaction(str(body.trans_id), password)
    default:
      return undefined
  }
}

/** The hash a request at (api, path or action) must carry, or undefined when it carries none. */
export function expectedHash(
  api: 'checkout' | 's2s-card' | 's2s-apm',
  where: { path: string; action?: string },
  body: Record<string, unknown>,
  password: string,
  memory: PaymentMemory,
): string | undefined {
  if (api === 'checkout') return checkoutHash(where.path, body, password)
  if (api === 's2s-apm') return s2sApmHash(where.action ?? '', body, password)
  return s2sCardHash(where.action ?? '', body, password, memory)
}
