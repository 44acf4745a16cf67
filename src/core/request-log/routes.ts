import type { SandboxRequestsQuery } from '../../generated/types.js'
import { fail } from '../engine/errors.js'
import { jsonResponse } from '../engine/http.js'
import type { EngineModule } from '../engine/modules.js'
import { declareControlRoute } from '../engine/pipeline.js'
import { recordRequest, requestLogOf, startTrace } from './index.js'
import type { RequestRecord } from './types.js'

/**
 * GET /sandbox/requests and GET /sandbox/requests/:id (docs/rules.md#request-log): the request
 * log, read through its indexes (merchant and order, payment id, record id). A reset empties it
 * with the rest of the sandbox's records.
 */
export const requestLogModule: EngineModule = {
  name: 'request-log',
  // The lifecycle's record step (engine/modules.ts LifecycleHooks): gateway.handle calls it once per request.
  hooks: { startTrace, recordRequest },
  routes: (ctx) => [
    declareControlRoute<SandboxRequestsQuery>({
      method: 'GET',
      path: '/sandbox/requests',
      summary:
        'The request log: the requests the gateway answered, by merchant, order or payment, with what they carried (masked), their answers, warnings and the rule of each refusal',
      pipeline: { query: 'sandbox/requests-query' },
      response: 'control/requests-response',
      handler: ({ input }) => {
        const log = requestLogOf(ctx)
        const { records, total } = log.query({
          ...(input.merchant !== undefined ? { merchant: input.merchant } : {}),
          ...(input.order_id !== undefined ? { order_id: input.order_id } : {}),
          ...(input.payment_id !== undefined ? { payment_id: input.payment_id } : {}),
          ...(input.unattributed === 'true' ? { unattributed: true } : {}),
          ...(input.order ? { order: input.order } : {}),
          ...(input.limit ? { limit: Number(input.limit) } : {}),
        })
        return jsonResponse(200, { requests: records, total, log: log.stats() })
      },
    }),
    declareControlRoute<undefined, RequestRecord>({
      method: 'GET',
      path: '/sandbox/requests/:id',
      summary:
        'One request of the request log, whole: what it carried (masked), its answer, warnings, refusal',
      pipeline: {
        load: (c, params) => {
          const record = requestLogOf(c).get(params.id ?? '')
          if (!record) throw fail('SANDBOX_REQUEST_NOT_FOUND')
          return record
        },
      },
      response: 'control/request-response',
      handler: ({ loaded }) => jsonResponse(200, loaded),
    }),
  ],
  start: (ctx) =>
    ctx.events.subscribe((event) => {
      if (event.type === 'reset') requestLogOf(ctx).clear()
    }),
}
