import type { EngineContext } from '../core/engine/context.js'
import type { Session } from '../core/engine/model.js'

/**
 * Runs a payer operation with what the page collected already in the session (billing fields,
 * method parameters), so the payment records them as if the merchant had sent them. When the
 * operation refuses, the session is put back as it was: a refused form changes nothing.
 */
export function withCollected<T>(
  ctx: EngineContext,
  session: Session,
  collected: { billing?: Record<string, string>; parameters?: Record<string, unknown>; method?: string },
  operation: () => T,
): T {
  const billing = collected.billing ?? {}
  const hasParameters =
    collected.method !== undefined && collected.parameters && Object.keys(collected.parameters).length
  if (!Object.keys(billing).length && !hasParameters) return operation()
  const request = session.request as {
    billing_address?: Record<string, unknown>
    parameters?: Record<string, Record<string, unknown>>
  }
  const parameters = { ...(request.parameters ?? {}) }
  if (hasParameters && collected.method) {
    parameters[collected.method] = { ...(parameters[collected.method] ?? {}), ...collected.parameters }
  }
  ctx.store.put('sessions', {
    ...session,
    request: {
      ...session.request,
      ...(Object.keys(billing).length
        ? { billing_address: { ...(request.billing_address ?? {}), ...billing } }
        : {}),
      ...(hasParameters ? { parameters } : {}),
    },
  })
  try {
    return operation()
  } catch (error) {
    const now = ctx.store.get('sessions', session.id)
    if (now && !now.payment_id) ctx.store.put('sessions', session)
    throw error
  }
}
