import type { SandboxResetRequest } from '../../generated/types.js'
import { formatDateTime } from '../engine/format.js'
import { jsonResponse } from '../engine/http.js'
import type { EngineModule } from '../engine/modules.js'
import { declareControlRoute } from '../engine/pipeline.js'
import { clockRoutes, rememberClock } from './clock.js'
import { merchantRoutes } from './merchants.js'
import { payerDoorRoutes } from './payer-door.js'
import { recordRoutes } from './records.js'

/**
 * The sandbox control API (docs/rules.md#beyond-the-interface): under `/sandbox/...` only, never mixed into
 * `/api/v1`. Errors use the plain envelope (api `sandbox`).
 */
export const controlModule: EngineModule = {
  name: 'control',
  // The library's and the kit's payer actions: through gateway.handle, never as HTTP endpoints.
  inProcessRoutes: (ctx) => payerDoorRoutes(ctx),
  routes: (ctx) => [
    ...clockRoutes(ctx),
    declareControlRoute<SandboxResetRequest>({
      method: 'POST',
      path: '/sandbox/reset',
      summary: 'Forget every session, payment, callback and schedule; merchants and the clock stay',
      pipeline: { schema: 'sandbox/reset-request' },
      response: 'control/reset-response',
      handler: () => {
        // Merchants created through POST /sandbox/merchants are not records of payments: they stay.
        const created = ctx.store.list('merchants')
        ctx.store.clear()
        for (const merchant of created) ctx.store.put('merchants', merchant)
        // The clock is not part of the reset; keeping its time lets a restart resume from it.
        rememberClock(ctx)
        const now = ctx.clock.now()
        ctx.events.emit({ type: 'reset', at: now })
        return jsonResponse(200, { status: 'reset', now: formatDateTime(now) })
      },
    }),
    ...merchantRoutes(ctx),
    ...recordRoutes(ctx),
  ],
}
