import type { SandboxOrderScenarioQuery } from '../../generated/types.js'
import { jsonResponse } from '../engine/http.js'
import type { EngineModule } from '../engine/modules.js'
import { declareControlRoute } from '../engine/pipeline.js'
import { orderScenario } from './build.js'

/** GET /sandbox/orders/:order_id/scenario (docs/rules.md#request-log): one order, as a scenario to keep it fixed. */
export const orderScenarioModule: EngineModule = {
  name: 'order-scenario',
  routes: (ctx) => [
    declareControlRoute<SandboxOrderScenarioQuery>({
      method: 'GET',
      path: '/sandbox/orders/:order_id/scenario',
      summary:
        'An order as the sandbox observed it (requests, payer choices, callbacks and answers, clock moves, faults), as a conformance scenario',
      pipeline: { query: 'sandbox/order-scenario-query' },
      response: 'control/order-scenario-response',
      handler: ({ input, params }) => {
        const orderId = params.order_id ?? ''
        const scenario = orderScenario(ctx, orderId, input.merchant)
        const file = `order-${orderId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80)}.scenario.json`
        return jsonResponse(200, scenario, { 'content-disposition': `attachment; filename="${file}"` })
      },
    }),
  ],
}
