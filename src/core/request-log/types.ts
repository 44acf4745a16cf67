import type { Refusal } from '../engine/refusal.js'

/**
 * One request that passed the gateway's door, as support reads it (docs/rules.md#request-log):
 * what it concerned, what it carried (redacted: redact.ts) and what it was answered, with its
 * warnings, the rule of its refusal and the fault that answered it, if any.
 */
export interface RequestRecord {
  /** `req-<seq>`: stable for the sandbox's life (GET /sandbox/requests/:id). */
  id: string
  /** Order of arrival across every merchant. */
  seq: number
  /** When it arrived, on the sandbox's clock (epoch ms). */
  at: number
  /** When it was answered, on the sandbox's clock (a time-out fault moves the virtual clock). */
  answered_at: number
  method: string
  /** The normalised path, relative to the base path, page tokens removed. */
  path: string
  /** The route it matched (`/auth/:token`), absent when none did. */
  route?: string
  /** The API of the route: `checkout`, `s2s-card`, `s2s-apm`, `page`, `sandbox`; `none` when no route matched. */
  api: string
  /** S2S: the `action` field. */
  action?: string
  /** The configured merchant it concerns (its key); absent when none could be told. */
  merchant?: string
  /** The order it concerns (`order.number`, `order_id`, or the order of its payment). */
  order_id?: string
  /** The gateway's payment it concerns first (Checkout `payment_id`, S2S `trans_id`). */
  payment_id?: string
  /** Every payment it concerns: named in it, or written by its unit of work. */
  payment_ids: string[]
  /** The Checkout session it concerns (created, paid, or named by its token). */
  session_id?: string
  /** The callback deliveries its unit of work queued. */
  callbacks?: string[]
  request: {
    headers: Record<string, string>
    /** Parsed (JSON, form with bracket notation expanded) and redacted; absent when not read or too large. */
    body?: unknown
    bytes: number
    truncated?: boolean
  }
  response: {
    /** 0 when the connection was dropped (a `drop`, `timeout` or `lost` fault). */
    status: number
    headers: Record<string, string>
    /** The answer's text, redacted; absent for pages (HTML) and answers over the body limit. */
    body?: string
    bytes: number
    truncated?: boolean
  }
  /** docs/rules.md#warnings: the `Sandbox-Warning` headers it was answered with. */
  warnings: string[]
  /** docs/rules.md#rule-book: why the gateway refused it, when it did. */
  refusal?: Refusal
  /** The gateway fault (src/core/faults) that answered it: `timeout`, `error`, `drop`, `lost`, `late`. */
  fault?: string
}

/** A listing's filters (GET /sandbox/requests). */
export interface RequestQuery {
  merchant?: string
  order_id?: string
  payment_id?: string
  /** Only requests without a known merchant (unrouted, unknown keys, the control API). */
  unattributed?: boolean
  /** Newest first (default) or oldest first. */
  order?: 'asc' | 'desc'
  limit?: number
}

export interface RequestLogStats {
  /** Requests kept at most per merchant (0: the log is off). */
  per_merchant: number
  /** Requests held now, every merchant. */
  kept: number
  /** Requests recorded since the start (or the last reset). */
  recorded: number
  /** Requests forgotten to stay within the bound. */
  forgotten: number
}
