import { errorResponse, GatewayError } from '../core/engine/errors.js'
import type { Api } from '../core/engine/model.js'

/** The gateway's error envelope `{http_code, error_code, error_message, errors?}`. */
export interface GatewayErrorBody {
  http_code: number
  error_code: number
  error_message: string
  errors?: { error_code: number; error_message: string }[]
  result?: 'ERROR'
}

/**
 * The engine refused what a library helper asked (a payer action on a payment not waiting for
 * it, a card that fails validation): `body` is the envelope the same request would get over HTTP,
 * and the message names every field problem, so a failing test says what to fix.
 */
export class SandboxError extends Error {
  override name = 'SandboxError'
  constructor(
    readonly status: number,
    readonly body: GatewayErrorBody,
  ) {
    const items = body.errors?.map((e) => e.error_message) ?? []
    super(items.length ? `${body.error_message} ${items.join(' ')}` : body.error_message)
  }
}

/** Runs an engine operation, turning its catalogue error into a SandboxError (anything else is a bug: rethrown). */
export function orSandboxError<T>(api: Api | 'sandbox', operation: () => T): T {
  try {
    return operation()
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error
    const response = errorResponse(error, api)
    throw new SandboxError(response.status, JSON.parse(response.body) as GatewayErrorBody)
  }
}
