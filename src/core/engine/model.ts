import type {
  CheckoutPaymentStatus,
  MethodCatalogueGroupId,
  SandboxExportPayment,
  SandboxExportTransaction,
  SandboxMerchant,
} from '../../generated/types.js'
import type { StoreIndexes } from '../ports/store.js'

/**
 * The engine's records. Everything here is what the store holds, so: no full card number, no
 * security code, ever (a card is kept as its masked form plus what a token needs).
 */

/** The API a payment was made through (the export schema's `api`, as every record carries it). */
export type Api = SandboxExportPayment['api']
export type Operation = SandboxExportPayment['operation']
export type PaymentMode = 'SMS' | 'DMS' | 'SMS/DMS'

/** Checkout's lowercase payment statuses (docs/rules.md#transport); S2S answers the same upper-cased. */
export type PaymentStatus = CheckoutPaymentStatus

/** Transaction types and outcomes as schemas/sandbox/payment-export.schema.json defines them. */
export type TransactionType = SandboxExportTransaction['type']
export type TransactionStatus = SandboxExportTransaction['status']

export interface OrderData {
  number: string
  amount: string
  currency: string
  description: string
}

/** A card as the store may keep it. */
export interface StoredCard {
  /** First 6, masked middle, last 4: `411111******1111`. */
  masked: string
  bin: string
  last4: string
  brand: string
  exp_month: string
  exp_year: string
  holder?: string
}

export interface Session {
  id: string
  /** The API token: answered by `/api/v1/session/token` only; authorizes Token-header calls (docs/rules.md#sessions). */
  token: string
  /** The token in the payer's page URL (`/auth/<page_token>`): never authorizes an API call. */
  page_token: string
  merchant_key: string
  operation: Operation
  methods: string[]
  /** The validated request minus `hash` (it never holds card data: Checkout sessions carry none). */
  request: Record<string, unknown>
  /** Created through the session-token endpoint: paid through Hosted Payment Fields. */
  hosted_fields: boolean
  customer_ip?: string
  created_at: number
  expires_at: number
  status: 'open' | 'paid' | 'expired' | 'cancelled'
  payment_id?: string
  /** Card data the payer already entered (masked), kept across a session update. */
  entered_card?: StoredCard
}

export interface ThreeDsData {
  required: boolean
  outcome?: 'pass' | 'fail'
  authenticationFlow?: 'frictionless' | 'challenge'
  /** Values given by the merchant (`mpi_data`) or filled by the sandbox's collector. */
  attributes: Record<string, string>
}

export interface Payment {
  id: string
  api: Api
  merchant_key: string
  mid_id: string
  session_id?: string
  operation: Operation
  /** `card`, or the method identifier (`vcard`, `pix`, ...). */
  method: string
  /** Flat copy of `order.number`, indexed for lookups by order. */
  order_id: string
  order: OrderData
  status: PaymentStatus
  /** true when funds are only held (auth, DMS): capture settles, refund gives a reversal. */
  auth: boolean
  amount_captured: string
  amount_refunded: string
  /** `YYYY-MM-DD` (UTC) on which the payment settled: void is allowed on that day only. */
  financial_day?: string
  card?: StoredCard
  card_token?: string
  /** The session asked to save the card (2.1 req_token): a card_token is issued once the payment is approved. */
  req_token?: boolean
  recurring?: { init: boolean; token?: string; init_trans_id?: string; parent_payment_id?: string }
  schedule_id?: string
  custom_data?: Record<string, unknown>
  moto_type?: string
  three_ds?: ThreeDsData
  browser_info?: Record<string, unknown>
  payer?: Record<string, string>
  customer_ip?: string
  decline_reason?: string
  /** Test-card behaviour to apply on later steps (e.g. expiry month 03: capture declined). */
  scenario?: string
  /** S2S: the action that created the payment (SALE, AUTH, DEBIT, ...) and the request's `callback_url`. */
  action?: string
  callback_url?: string
  /** S2S: where the payer returns after the ACS or redirect page (the request's `term_url_3ds`). */
  return_url?: string
  descriptor?: string
  extended_data?: Record<string, unknown>
  /** Acquirer references: ARN is sent empty when missing, RRN beside it (Events). */
  arn?: string
  rrn?: string
  /** Card-on-file attributes (2.6), enabled per Protocol Mapping. */
  initiator?: string
  source?: string
  sequence?: string
  schedule_start_date?: string
  payment_schedule_amount?: string
  first_recurring_date?: string
  /** Paid with a saved card (`card_token` in the request), as opposed to a token the payment created. */
  token_used?: boolean
  /** Alternative payment methods: what the simulated connector keeps (src/core/apm). */
  apm?: ApmDetails
  created_at: number
  updated_at: number
}

/**
 * What the simulated connector keeps about an alternative-method payment, beside the payment's
 * own fields: the method as resolved through the catalogue and what the merchant sent for it.
 * `payer_language` lives here, not in `payer`, because the interface keeps it out of callbacks
 * and status responses (2.1.3: "request-only").
 */
export interface ApmDetails {
  /** The identifier as the merchant sent it (`brand`, or a session's method). */
  brand: string
  group: MethodCatalogueGroupId
  /** The payer's account in the method (S2S APM `identifier`); absent on Checkout payments. */
  identifier?: string
  return_url?: string
  /** The method's parameter object (`parameters[name]`), as validated. */
  parameters?: Record<string, unknown>
  language?: string
}

export interface Transaction {
  id: string
  payment_id: string
  type: TransactionType
  status: TransactionStatus
  amount: string
  created_at: number
  decline_reason?: string
  /** Follow-up parameters (2.7) as sent. */
  parameters?: Record<string, unknown>
}

export interface SavedCard {
  /** The card_token. */
  id: string
  merchant_key: string
  card: StoredCard
  payee_first_name?: string
  payee_last_name?: string
  /** Registered with the acquirer as a stored credential (card-on-file MID). */
  card_on_file: boolean
  created_at: number
}

export interface Schedule {
  id: string
  merchant_key: string
  state: 'running' | 'paused' | 'deleted'
  /** The parameters as sent (strings), CREATE_SCHEDULE merged with every UPDATE_SCHEDULE since. */
  params: Record<string, string>
  created_at: number
  updated_at?: number
}

/** One scheduled payment of a chain: made (payment_id), free (a zero amount: recorded, not charged) or failed. */
export interface ChainRun {
  /** 0-based position among the chain's scheduled payments (trial payments come first). */
  n: number
  due_at: number
  amount: string
  trial: boolean
  status: 'charged' | 'free' | 'error'
  payment_id?: string
}

/**
 * A recurring chain run by a schedule (src/core/schedules): an initial payment with `schedule_id`
 * and the secondary payments the schedule makes from it. Its calendar: the next payment is due
 * `steps` intervals after `anchor_at`, months keeping `anchor_day` (clamped to shorter months).
 */
export interface Chain {
  /** The initial payment's id (its recurring_init_trans_id): one chain per initial payment. */
  id: string
  schedule_id: string
  merchant_key: string
  state: 'active' | 'completed' | 'descheduled' | 'stopped'
  /** Amount of the regular (non-trial) payments: payment_schedule_amount, else the initial amount. */
  amount: string
  currency: string
  /** When the initial payment was approved: what delayed_first_payment counts from. */
  start_at: number
  /** schedule_start_date (2.1) when the merchant set one: it overrides delayed_first_payment. */
  start_date?: string
  anchor_at: number
  anchor_day: number
  steps: number
  /** Due time of the next scheduled payment; absent once the chain no longer runs. */
  next_run_at?: number
  runs_done: number
  runs: ChainRun[]
  created_at: number
  updated_at: number
}

/** One callback to deliver, with every attempt (docs/rules.md#callback-log: every attempt is logged and can be replayed). */
export interface Delivery {
  id: string
  merchant_key: string
  payment_id: string
  order_id: string
  api: Api
  /** What the callback reports, e.g. `sale`, `3ds`, `refund` (Checkout `type`) or the S2S action. */
  kind: string
  url: string
  /** The form fields as sent (flat keys, bracket notation for nested values). */
  fields: Record<string, string>
  /** Position among this payment's callbacks: delivered strictly in this order. */
  seq: number
  state: 'queued' | 'delivering' | 'retrying' | 'acknowledged' | 'failed'
  attempts: DeliveryAttempt[]
  next_attempt_at?: number
  /** Set on a replay: the delivery it repeats. */
  replay_of?: string
  /** The transaction it reports, so one transaction never gives two callbacks. */
  transaction_id?: string
  transaction_status?: string
  created_at: number
}

export interface DeliveryAttempt {
  at: number
  status?: number
  /** First 500 characters of the answer. */
  body_excerpt?: string
  error?: string
  /** The attempt timed out (docs/rules.md#callbacks URL blocking counts these). */
  timed_out?: boolean
  /** Not sent: the URL was blocked (docs/rules.md#callbacks "Blocked deliveries are logged as such"). */
  blocked?: boolean
  latency_ms: number
  acknowledged: boolean
}

/**
 * One notification URL's time-outs and block (docs/rules.md#callbacks URL blocking), keyed by the URL:
 * stored so that a restart with `--data` keeps a blocked URL blocked until its 15 minutes pass.
 */
export interface CallbackUrlState {
  /** The notification URL. */
  id: string
  /** Sandbox times of the time-outs counted since the last success or block. */
  timeouts: number[]
  blocked_until?: number
  /** How many times this URL has been blocked since the start (or the last reset). */
  blocks: number
}

/**
 * A merchant created through the control API (POST /sandbox/merchants), keyed by its merchant key:
 * kept with the store's data, so a data file keeps it across restarts and a reset keeps it.
 */
export interface StoredMerchant {
  id: string
  merchant: SandboxMerchant
  created_at: number
}

export interface EngineMeta {
  id: 'meta'
  clock_ms: number
  seq: number
}

export interface Collections {
  sessions: Session
  payments: Payment
  transactions: Transaction
  cards: SavedCard
  schedules: Schedule
  chains: Chain
  deliveries: Delivery
  callback_urls: CallbackUrlState
  merchants: StoredMerchant
  meta: EngineMeta
}

export const STORE_INDEXES: StoreIndexes<Collections> = {
  sessions: ['token', 'page_token', 'merchant_key'],
  payments: ['merchant_key', 'session_id', 'order_id'],
  transactions: ['payment_id'],
  cards: ['merchant_key'],
  schedules: ['merchant_key'],
  chains: ['schedule_id', 'merchant_key'],
  deliveries: ['merchant_key', 'payment_id', 'order_id'],
}
