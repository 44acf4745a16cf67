import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FieldError } from '../validation/index.js'
import { formatFieldError, SCHEMAS_DIR } from '../validation/index.js'
import { type GatewayResponse, htmlResponse, jsonResponse } from './http.js'
import type { Api } from './model.js'

export interface ErrorEntry {
  id: string
  api: Api | 'any'
  http_code: number
  error_code: number
  error_message: string
  /** `errors_item`: the message goes in `errors[]` under "Request data is invalid." */
  placement?: 'errors_item' | 'top'
  section?: string
}

export interface ErrorItem {
  error_code: number
  error_message: string
}

let catalogue: Map<string, ErrorEntry> | undefined

/** schemas/catalogue/errors.json: every row of the interface's Errors table plus the sandbox's own. */
export function errorCatalogue(): Map<string, ErrorEntry> {
  if (!catalogue) {
    const data = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'catalogue', 'errors.json'), 'utf8')) as {
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

/** An answer the interface defines as an error. Thrown by operations, turned into a response by the gateway. */
export class GatewayError extends Error {
  constructor(
    readonly entry: ErrorEntry,
    readonly items: ErrorItem[] = [],
  ) {
    super(entry.error_message)
  }
}

/** `throw fail('S2S_CARD_VOID_NOT_ALLOWED')` */
export function fail(id: string): GatewayError {
  const entry = errorEntry(id)
  if (entry.placement === 'errors_item') {
    return new GatewayError(errorEntry('REQUEST_DATA_INVALID'), [
      { error_code: entry.error_code, error_message: entry.error_message },
    ])
  }
  return new GatewayError(entry)
}

/** Field problems found by validation: "Request data is invalid." with one `path: message` item per field. */
export function invalid(errors: FieldError[]): GatewayError {
  const envelope = errorEntry('REQUEST_DATA_INVALID')
  return new GatewayError(
    envelope,
    errors.map((e) => ({ error_code: envelope.error_code, error_message: formatFieldError(e) })),
  )
}

/** The interface's envelope `{http_code, error_code, error_message, errors?}`; S2S answers add `result: "ERROR"`. */
export function errorResponse(error: GatewayError, api: Api | 'sandbox'): GatewayResponse {
  const { entry, items } = error
  const body: Record<string, unknown> = {
    ...(api === 's2s-card' || api === 's2s-apm' ? { result: 'ERROR' } : {}),
    http_code: entry.http_code,
    error_code: entry.error_code,
    error_message: entry.error_message,
  }
  if (items.length) body.errors = items
  return jsonResponse(entry.http_code, body)
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** A refusal on a hosted page (the payer's browser asked): the same row, as a small HTML page. */
export function errorPage(error: GatewayError): GatewayResponse {
  const message = escapeHtml(error.entry.error_message)
  return htmlResponse(
    error.entry.http_code,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${message}</title></head><body><main><h1>${message}</h1><p role="alert">${message}</p></main></body></html>`,
  )
}
