import type { ImportResult } from '../core/control/support-import.js'
import type { MerchantAction, MerchantRequest } from '../core/control/support-merchant.js'
import type { PaymentExport } from '../core/control/support-export.js'
import type { EngineEvent } from '../core/engine/events.js'
import type { Chain, Delivery, Payment, Schedule, Session, Transaction } from '../core/engine/model.js'
import type { RequestQuery, RequestRecord } from '../core/request-log/types.js'

/**
 * What the control API answers, as the console reads it. Type-only imports of the engine's own
 * records: nothing of the engine is loaded by them.
 */
export type {
  EngineEvent,
  RequestRecord,
  ImportResult,
  MerchantAction,
  MerchantRequest,
  Payment,
  PaymentExport,
  Transaction,
}

export interface Health {
  status: string
  now: string
  clock: 'virtual' | 'system'
}

export interface ClockView {
  mode: 'virtual' | 'system'
  now: string
  now_ms: number
}

export interface PaymentsQuery {
  merchant?: string
  order_id?: string
  payment_id?: string
  status?: string
  method?: string
  api?: string
  /** Part of a payment id or order id, searched by the sandbox across every payment. */
  search?: string
  from?: string
  to?: string
  order?: 'asc' | 'desc'
  page?: string
  per_page?: string
}

export interface PaymentsPage {
  payments: Payment[]
  page: number
  per_page: number
  total: number
}

export interface PaymentDetail {
  payment: Payment
  transactions: Transaction[]
  session?: Session
}

export interface CallbacksQuery {
  merchant?: string
  payment_id?: string
  order_id?: string
  state?: string
  kind?: string
  api?: string
  /** Part of a delivery, payment or order id, searched by the sandbox across every callback. */
  search?: string
  from?: string
  to?: string
  order?: 'asc' | 'desc'
  page?: string
  per_page?: string
}

export type DeliveryView = Delivery

export interface DeliveriesPage {
  deliveries: DeliveryView[]
  total: number
}

export interface DeliveryDetail extends DeliveryView {
  request: { method: string; url: string; content_type: string; body: string }
}

export interface MidView {
  id: string
  payment_mode?: string
  moto?: boolean
  card_on_file?: boolean
  zero_amount?: boolean
  override_link_target?: string | null
  [key: string]: unknown
}

export interface MerchantView {
  key: string
  name?: string
  notification_url?: string
  mids: MidView[]
  protocol_mapping: Record<string, unknown>
  wallets: string[]
}

export type ChainView = Pick<Chain, 'id' | 'state' | 'amount' | 'currency' | 'runs_done' | 'runs'> & {
  initial_payment_id: string
  next_run_at?: number
  next_run?: string
}

export type ScheduleView = Schedule & { chains: ChainView[]; next_run?: string }

export interface PayerAnswer {
  payment_id: string
  status: string
  api_status: string
  decline_reason?: string
}

export type ApmOutcome = 'approve' | 'decline' | 'pending' | 'expire'

/** The gateway's answer to a request the console sent as the merchant. */
export interface SentAnswer {
  status: number
  body: unknown
}

/** GET /sandbox/requests (docs/rules.md#request-log): the query as the control API reads it. */
export type RequestsQuery = Omit<RequestQuery, 'limit' | 'unattributed'> & {
  limit?: string
  unattributed?: 'true'
}

export interface RequestsPage {
  requests: RequestRecord[]
  total: number
  log: { per_merchant: number; kept: number; recorded: number; forgotten: number }
}
