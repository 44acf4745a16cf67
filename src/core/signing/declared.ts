import { checkoutSessionModule } from '../checkout/module.js'
import { checkoutOperationsModule } from '../checkout/operations/module.js'
import type { EngineContext } from '../engine/context.js'
import type { EngineModule } from '../engine/modules.js'
import type { Pipeline } from '../engine/pipeline.js'
import { s2sApmModule } from '../s2s-apm/module.js'
import { s2sCardModule } from '../s2s-card/module.js'
import type { SigningFormula } from '../signatures/formulas.js'

/**
 * Which formula signs which request, read from the declarations (pipeline.ts `formula`) of the
 * signed APIs' routes and action tables, never from a table of its own: the conformance kit, the
 * library's `signRequest` and the OpenAPI document all ask here, so a new declared route or action
 * is signed everywhere the day it is declared.
 */
export interface DeclaredSigning {
  formula: SigningFormula
  /** How a signer finds the original payment the formula reads (`needsOriginal`). */
  originalBy?: 'trans_id' | 'order_id' | 'recurring'
}

export type SignedApi = 'checkout' | 's2s-card' | 's2s-apm'

/** The modules whose requests carry a `hash` (their API routes build no state from the context). */
const SIGNED_MODULES: EngineModule[] = [
  checkoutSessionModule,
  checkoutOperationsModule,
  s2sCardModule,
  s2sApmModule,
]
const NO_CONTEXT = {} as EngineContext

const signingOf = (pipeline: Pipeline<unknown, unknown>): DeclaredSigning | undefined =>
  pipeline.formula
    ? { formula: pipeline.formula, ...(pipeline.originalBy ? { originalBy: pipeline.originalBy } : {}) }
    : undefined

/**
 * The declared signing of a Checkout route (by path) or of an S2S action (by `action`), or
 * undefined when it carries no `hash` (Token routes, unknown actions). Read from the live
 * declarations at each call.
 */
export function declaredSigning(
  api: SignedApi,
  where: { path?: string; action?: string },
): DeclaredSigning | undefined {
  for (const module of SIGNED_MODULES) {
    for (const route of module.routes(NO_CONTEXT)) {
      const declared = route.declared
      if (api === 'checkout' && route.api === 'checkout' && route.path === where.path)
        return declared?.kind === 'pipeline' ? signingOf(declared.pipeline) : undefined
      // S2S CARD's own table is /v2/post's (/post adds the APM debits and payouts); S2S APM's is /post-va's.
      const table = api === 's2s-card' ? '/v2/post' : api === 's2s-apm' ? '/post-va' : undefined
      if (route.path === table && declared?.kind === 'actions') {
        const action = where.action
        const found = action && Object.hasOwn(declared.actions, action) ? declared.actions[action] : undefined
        return found ? signingOf(found.pipeline) : undefined
      }
    }
  }
  return undefined
}

/** Every declared signing of an API: Checkout by path, S2S by action (the OpenAPI document lists them). */
export function declaredSignings(api: SignedApi): Map<string, DeclaredSigning> {
  const out = new Map<string, DeclaredSigning>()
  for (const module of SIGNED_MODULES) {
    for (const route of module.routes(NO_CONTEXT)) {
      const declared = route.declared
      if (api === 'checkout' && route.api === 'checkout' && declared?.kind === 'pipeline') {
        const signing = signingOf(declared.pipeline)
        if (signing) out.set(route.path, signing)
      }
      const table = api === 's2s-card' ? '/v2/post' : api === 's2s-apm' ? '/post-va' : undefined
      if (route.path === table && declared?.kind === 'actions') {
        for (const [action, { pipeline }] of Object.entries(declared.actions)) {
          const signing = signingOf(pipeline)
          if (signing) out.set(action, signing)
        }
      }
    }
  }
  return out
}
