import { fail } from '../engine/errors.js'
import { jsonResponse } from '../engine/http.js'
import type { EngineModule, OperationHandler } from '../engine/modules.js'
import type { S2sApmAction } from './action.js'
import { calcAction } from './calc.js'
import { followUpActions } from './follow-up-actions.js'
import { paymentActions } from './payment-actions.js'
import { statusAction } from './status-action.js'

/** Endpoints: "S2S APM actions: SALE, DEBIT2VIRTUAL, DEBIT2VIRTUAL_CALC, CAPTURE, VOID, CREDITVOID, GET_TRANS_STATUS." */
const ACTIONS: Record<string, S2sApmAction> = {
  ...paymentActions,
  DEBIT2VIRTUAL_CALC: calcAction,
  ...followUpActions,
  GET_TRANS_STATUS: statusAction,
}

const dispatch: OperationHandler = ({ body, ctx }) => {
  const action = typeof body.action === 'string' ? body.action : undefined
  const run = action && Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined
  if (!run) throw fail('S2S_APM_ACTION_UNKNOWN')
  return jsonResponse(200, run({ body, ctx }))
}

/** S2S APM: every action at `POST /post-va` (decisions.md §2), form-urlencoded or multipart. */
export const s2sApmModule: EngineModule = {
  name: 's2s-apm',
  routes: () => [{ method: 'POST', path: '/post-va', api: 's2s-apm', handler: dispatch }],
}
