import type { EngineContext } from '../engine/context.js'
import type { Session } from '../engine/model.js'

/**
 * Runs a payer operation with what the page collected already in the session (billing fields,
 * method parameters), so the payment records them as if the merchant had sent them. When the
 * operation refuses, the session is put back as it was: a refused form changes nothing (the
 * page then answers the form again, so its unit of work commits: the put-back must be explicit).
 */
export function withCollected<T>(
  ctx: EngineContext,
  session: Session,
  collected: { billing?: Record<string, string>; parameters?: Record<string, unknown>; method?: string },
  operation: (session: Session) => T,
): T {
  const billing = collected.billing ?? {}
  const hasParameters =
    collected.method !== undefined && collected.parameters && Object.keys(collected.parameters).length
  if (!Object.keys(billing).length && !hasParameters) return operation(session)
  const request = session.request as {
    billing_address?: Record<string, unknown>
    parameters?: Record<string, Record<string, unknown>>
  }
  const parameters = { ...(request.parameters ?? {}) }
  if (hasParameters && collected.method) {
    parameters[collected.method] = { ...(parameters[collected.method] ?? {}), ...collected.parameters }
  }
  const collectedSession: Session = {
    ...session,
    request: {
      ...session.request,
      ...(Object.keys(billing).length
        ? { billing_address: { ...(request.billing_address ?? {}), ...billing } }
        : {}),
      ...(hasParameters ? { parameters } : {}),
    },
  }
  ctx.store.put('sessions', collectedSession)
  try {
    return operation(collectedSession)
  } catch (error) {
    const now = ctx.store.get('sessions', session.id)
    if (now && !now.payment_id) ctx.store.put('sessions', session)
    throw error
  }
}
