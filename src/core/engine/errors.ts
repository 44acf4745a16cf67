import type { FieldError } from '../validation/field-error.js'
import type { ErrorCatalogueEntry } from '../../generated/types.js'
import { schemaData } from '../ports/schema-source.js'
import { formatFieldError } from '../validation/field-error.js'
import { type GatewayResponse, htmlResponse, jsonResponse } from './http.js'
import type { Api } from './model.js'
import type { Refusal } from './refusal.js'
import type { RuleId } from './rules.js'

/** A row of schemas/catalogue/errors.json, typed by its schema (never copied by hand). */
export type ErrorEntry = ErrorCatalogueEntry

export interface ErrorItem {
  error_code: number
  error_message: string
}

let catalogue: Map<string, ErrorEntry> | undefined

/** schemas/catalogue/errors.json: every row of the interface's Errors table plus the sandbox's own. */
export function errorCatalogue(): Map<string, ErrorEntry> {
  if (!catalogue) {
    const data = schemaData('catalogue/errors.json') as {
      errors: ErrorEntry[]
    }
    catalogue = new Map(data.errors.map((e) => [e.id, e]))
  }
  return catalogue
}

export function errorEntry(id: string): ErrorEntry {
  const entry = errorCatalogue().get(id)
  if (!entry) throw new Error(`No error catalogue entry ${id}`)
  return entry
}

/**
 * What a refusal says beyond its catalogue row (docs/rules.md#rule-book): the rule a field's
 * schema, a signing formula or a state-table row applied, the fields refused, the formula and its
 * inputs. Given where the refusal is raised; the row's own `rule` and `field` fill the rest.
 */
export type RefusalDetail = Partial<Omit<Refusal, 'row'>>

/** An answer the interface defines as an error. Thrown by operations, turned into a response by the gateway. */
export class GatewayError extends Error {
  constructor(
    readonly entry: ErrorEntry,
    readonly items: ErrorItem[] = [],
    /** The catalogue row that was raised, when it is answered inside another envelope. */
    readonly row?: ErrorEntry,
    readonly detail: RefusalDetail = {},
  ) {
    // An answer, not a fault: no stack is captured (none is ever shown; capturing one was about
    // 3% of the route fuzz test's time, which is mostly refusals).
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    super(entry.error_message)
    Error.stackTraceLimit = limit
  }

  /** Why: the rule, the fields, the formula (refusal.ts), as the gateway sends it beside the answer. */
  get refusal(): Refusal {
    const answered = this.row ?? this.entry
    const { rule, fields, ...rest } = this.detail
    const refused = fields ?? (answered.field ? [answered.field] : [])
    return {
      rule: rule ?? (answered.rule as RuleId),
      ...(refused.length ? { fields: refused } : {}),
      ...rest,
      row: answered.id,
    }
  }
}

/** `throw fail('S2S_CARD_VOID_NOT_ALLOWED')`; `detail` when the rule or the field is the raiser's to say. */
export function fail(id: string, detail: RefusalDetail = {}): GatewayError {
  const entry = errorEntry(id)
  if (entry.placement === 'errors_item') {
    return new GatewayError(
      errorEntry('REQUEST_DATA_INVALID'),
      [{ error_code: entry.error_code, error_message: entry.error_message }],
      entry,
      detail,
    )
  }
  return new GatewayError(entry, [], entry, detail)
}

/**
 * Field problems found by validation: "Request data is invalid." with one `path: message` item per
 * field; the refusal names every field and the rule of the first.
 */
export function invalid(errors: FieldError[]): GatewayError {
  const envelope = errorEntry('REQUEST_DATA_INVALID')
  return new GatewayError(
    envelope,
    errors.map((e) => ({ error_code: envelope.error_code, error_message: formatFieldError(e) })),
    undefined,
    fieldDetail(errors),
  )
}

/** The rule of the first field problem and every field path, once each. */
export function fieldDetail(errors: { path: string; rule: RuleId }[]): RefusalDetail {
  const fields = [...new Set(errors.map((e) => e.path).filter(Boolean))]
  return { ...(errors[0] ? { rule: errors[0].rule } : {}), ...(fields.length ? { fields } : {}) }
}

/**
 * docs/rules.md#transport, Checkout: validation, signature and business refusals answer HTTP 400
 * `{"error_code":0,"error_message":"Request data is invalid.","errors":[…]}`, each refusal one
 * item (`hash: Hash is not valid.`, the platform's 205xxx/208xxx codes). The interface's Errors
 * table rows, the Token refusals (401, 403) and transport errors (413, 415) keep their own form.
 */
export function checkoutForm(error: GatewayError): GatewayError {
  const swapped = error.row?.checkout_row
  if (swapped) return checkoutForm(fail(swapped, error.detail))
  const { entry } = error
  const envelope = errorEntry('CHECKOUT_REQUEST_DATA_INVALID')
  if (entry.id === 'REQUEST_DATA_INVALID')
    return new GatewayError(envelope, error.items, error.row, error.detail)
  if (entry.interface_row || entry.http_code !== 400 || entry.format === 'html' || entry === envelope)
    return error
  return new GatewayError(
    envelope,
    [{ error_code: entry.error_code, error_message: entry.error_message }],
    entry,
    error.detail,
  )
}

/**
 * The answer a catalogue row gets on an API: `{status, error_code, error_message, item?}` where
 * `item` is the `errors[]` entry that carries it. For tools that check answers (conformance kit).
 */
export function answerForm(
  id: string,
  api: Api | 'sandbox',
): { http_code: number; error_code: number; error_message: string; item?: ErrorItem } {
  const raised = fail(id)
  const error = api === 'checkout' ? checkoutForm(raised) : raised
  const { entry, items } = error
  return {
    http_code: entry.http_code,
    error_code: entry.error_code,
    error_message: entry.error_message,
    ...(items[0] ? { item: items[0] } : {}),
  }
}

/**
 * The interface's envelope `{http_code, error_code, error_message, errors?}`; S2S answers add
 * `result: "ERROR"`. The refusal (the rule, the fields) rides beside the body, which stays the
 * platform's; the gateway sends it as the `Sandbox-Rule` header.
 */
export function errorResponse(raised: GatewayError, api: Api | 'sandbox'): GatewayResponse {
  const error = api === 'checkout' ? checkoutForm(raised) : raised
  if (error.entry.format === 'html') return errorPage(error)
  const { entry, items } = error
  const body: Record<string, unknown> = {
    ...(api === 's2s-card' || api === 's2s-apm' ? { result: 'ERROR' } : {}),
    http_code: entry.http_code,
    error_code: entry.error_code,
    error_message: entry.error_message,
  }
  if (items.length) body.errors = items
  // A refusal while the sandbox is full or cannot store says when to come back.
  const headers: Record<string, string> = entry.retry_after
    ? { 'retry-after': String(entry.retry_after) }
    : {}
  return { ...jsonResponse(entry.http_code, body, headers), refusal: error.refusal }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** A refusal on a hosted page (the payer's browser asked): the same row, as a small HTML page. */
export function errorPage(error: GatewayError): GatewayResponse {
  const message = escapeHtml(error.entry.error_message)
  const page = htmlResponse(
    error.entry.http_code,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${message}</title></head><body><main><h1>${message}</h1><p role="alert">${message}</p></main></body></html>`,
  )
  return { ...page, refusal: error.refusal }
}
