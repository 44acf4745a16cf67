import type { CheckoutSessionTokenRequest } from '../../generated/types.js'
import type { EngineContext, SandboxMerchant, SandboxMid } from '../engine/context.js'
import { FieldProblems } from '../payments/field-errors.js'
import { routeSession } from '../payments/routing.js'
import { findSavedCard } from '../payments/tokens.js'
import { validate } from '../validation/index.js'
import { findMethod, type MethodAliases, resolveMethodId, unknownMethodHint } from '../payments/methods.js'

/** A session request as stored: the session and session-token shapes (the latter adds customer.ip). */
export type SessionRequest = CheckoutSessionTokenRequest

/**
 * The rules a session must meet beyond its schema, checked at creation and again after an update:
 * methods and their parameters (2.2), the card token, the zero amount (2.1.1), MOTO (2.5) and
 * routing by payment mode (6.7.0). Answers the MID the session's payments would use.
 */
export function checkSessionRules(
  ctx: EngineContext,
  merchant: SandboxMerchant,
  request: SessionRequest,
): SandboxMid {
  const problems = new FieldProblems()
  const aliases = merchant.method_aliases
  checkMethods(request, problems, aliases)
  checkParameters(request, problems, aliases)
  if (request.card_token !== undefined && !findSavedCard(ctx, merchant.key, request.card_token)) {
    problems.addRow('CHECKOUT_SESSION_CARD_TOKEN_UNKNOWN')
  }
  problems.throwIfAny()
  return routeSession(
    merchant,
    request,
    (request.methods ?? []).map((id) => resolveMethodId(id, aliases)),
  )
}

/**
 * 2.2 with docs/rules.md#method-identifiers: identifiers, the catalogue's public aliases (`applepay`, `googlepay`)
 * and the merchant's `method_aliases`; an unknown one is answered with its closest valid ones.
 */
function checkMethods(request: SessionRequest, problems: FieldProblems, aliases?: MethodAliases): void {
  request.methods?.forEach((id, i) => {
    const entry = findMethod(id, aliases)
    if (!entry) {
      // Near matches for the first few unknown identifiers; the rest get the plain sentence.
      problems.addRow('CHECKOUT_METHOD_UNKNOWN', `methods[${i}]`, i < 5 ? unknownMethodHint(id, aliases) : '')
    } else if (!entry.operations.includes(request.operation)) {
      problems.addRow('CHECKOUT_METHOD_OPERATION_UNSUPPORTED', `methods[${i}]`)
    }
  })
}

/** `parameters.<id>` against that method's schema; keys naming no known method are ignored, as extra fields are. */
export function checkParameters(
  request: Pick<SessionRequest, 'parameters'>,
  problems: FieldProblems,
  aliases?: MethodAliases,
): void {
  for (const [id, value] of Object.entries(request.parameters ?? {})) {
    const schema = findMethod(id, aliases)?.parameters_schema
    if (!schema) continue
    const result = validate(schema, value)
    if (!result.valid) problems.addSchemaErrors(result.errors, `parameters.${id}`)
  }
}
