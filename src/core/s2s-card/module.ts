import { fail } from '../engine/errors.js'
import { jsonResponse } from '../engine/http.js'
import type { EngineModule, OperationHandler } from '../engine/modules.js'
import { APM_ACTIONS_AT_POST, dispatchApm, S2S_APM_ACTIONS } from '../s2s-apm/module.js'
import type { S2sCardAction } from './action.js'
import { paymentActions } from './payment-actions.js'
import { withPlatformRows } from '../engine/platform-rows.js'
import { scheduleActions } from './schedule-actions.js'

const ACTIONS: Record<string, S2sCardAction> = { ...paymentActions, ...scheduleActions }

/**
 * `/v2/post` answers `redirect_params` as an array of `{name, value}` (docs/rules.md#transport); every
 * other field is the same as on `/post`.
 */
function asV2(body: Record<string, unknown>): Record<string, unknown> {
  const params = body.redirect_params
  if (!params || typeof params !== 'object' || Array.isArray(params)) return body
  return {
    ...body,
    redirect_params: Object.entries(params as Record<string, unknown>).map(([name, value]) => ({
      name,
      value: String(value),
    })),
  }
}

const dispatch =
  (v2: boolean): OperationHandler =>
  (input) => {
    const { body, ctx, request } = input
    const action = typeof body.action === 'string' ? body.action : undefined
    // docs/rules.md#responses: the S2S APM debits and payouts are also accepted at /post.
    if (!v2 && action && APM_ACTIONS_AT_POST.has(action)) return dispatchApm(input)
    const run = action && Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined
    if (!run) throw fail('S2S_CARD_ACTION_UNKNOWN')
    const answer = withPlatformRows(() => run({ body, ctx, request }))
    return jsonResponse(200, v2 ? asV2(answer) : answer)
  }

/** S2S CARD: every action at `POST /post` and `/v2/post`, form-urlencoded or multipart. */
export const s2sCardModule: EngineModule = {
  name: 's2s-card',
  routes: () => [
    {
      method: 'POST',
      path: '/post',
      api: 's2s-card',
      handler: dispatch(false),
      // Every action served here is declared (pipeline.ts declareAction), the APM ones at /post too.
      declared: {
        kind: 'actions',
        actions: {
          ...ACTIONS,
          ...Object.fromEntries(
            [...APM_ACTIONS_AT_POST].flatMap((a) => (S2S_APM_ACTIONS[a] ? [[a, S2S_APM_ACTIONS[a]]] : [])),
          ),
        },
      },
    },
    {
      method: 'POST',
      path: '/v2/post',
      api: 's2s-card',
      handler: dispatch(true),
      declared: { kind: 'actions', actions: ACTIONS },
    },
  ],
}
