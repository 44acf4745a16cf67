import { fail } from '../engine/errors.js'
import { jsonResponse } from '../engine/http.js'
import type { EngineModule, OperationHandler } from '../engine/modules.js'
import { s2sForm } from '../engine/platform-rows.js'
import type { S2sApmAction } from './action.js'
import { calcAction, completeAction } from './calc.js'
import { followUpActions } from './follow-up-actions.js'
import { paymentActions } from './payment-actions.js'
import { statusAction } from './status-action.js'

/**
 * Endpoints: "S2S APM actions: SALE, DEBIT2VIRTUAL, DEBIT2VIRTUAL_CALC, CAPTURE, VOID, CREDITVOID,
 * GET_TRANS_STATUS"; docs/rules.md#beyond-the-interface adds DEBIT2VIRTUAL_COMPLETE, CREDIT2VIRTUAL, CREDIT2CRYPTO.
 * Every action is declared (pipeline.ts declareAction): schema, credential, signature formula
 * (formulas.ts), load and the release check; the route declares the table.
 */
export const S2S_APM_ACTIONS: Record<string, S2sApmAction> = {
  ...paymentActions,
  DEBIT2VIRTUAL_CALC: calcAction,
  DEBIT2VIRTUAL_COMPLETE: completeAction,
  ...followUpActions,
  GET_TRANS_STATUS: statusAction,
}

/**
 * docs/rules.md#responses: these S2S APM actions are "also accepted at `/post`" (the vendor's collection
 * sends them there). Their request schemas say so with `x-endpoint.alsoAt`, which puts them in the
 * OpenAPI `/post` entry; test/openapi.test.ts checks that the two agree.
 */
export const APM_ACTIONS_AT_POST = new Set([
  'DEBIT2VIRTUAL',
  'DEBIT2VIRTUAL_CALC',
  'DEBIT2VIRTUAL_COMPLETE',
  'CREDIT2VIRTUAL',
  'CREDIT2CRYPTO',
])

export const dispatchApm: OperationHandler = ({ body, ctx }) => {
  const action = typeof body.action === 'string' ? body.action : undefined
  const run = action && Object.hasOwn(S2S_APM_ACTIONS, action) ? S2S_APM_ACTIONS[action] : undefined
  if (!run) throw fail('S2S_APM_ACTION_UNKNOWN')
  try {
    return jsonResponse(200, run({ body, ctx }))
  } catch (error) {
    // docs/rules.md#transport: the platform's 204xxx/205xxx/208xxx rows where they apply.
    throw s2sForm(error)
  }
}

/** S2S APM: every action at `POST /post-va` (docs/rules.md#transport), form-urlencoded or multipart. */
export const s2sApmModule: EngineModule = {
  name: 's2s-apm',
  routes: () => [
    {
      method: 'POST',
      path: '/post-va',
      api: 's2s-apm',
      handler: dispatchApm,
      declared: { kind: 'actions', actions: S2S_APM_ACTIONS },
    },
  ],
}
