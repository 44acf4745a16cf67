import type { SandboxResetRequest } from '../../generated/types.js'
import type { SandboxMerchant } from '../engine/context.js'
import { formatDateTime } from '../engine/format.js'
import { jsonResponse } from '../engine/http.js'
import type { EngineModule } from '../engine/modules.js'
import { validated } from '../engine/request-validation.js'
import { clockRoutes, rememberClock } from './clock.js'
import { recordRoutes } from './records.js'

/**
 * The sandbox control API (decisions.md §6): under `/sandbox/...` only, never mixed into
 * `/api/v1`. Errors use the plain envelope (api `sandbox`).
 */
export const controlModule: EngineModule = {
  name: 'control',
  routes: (ctx) => [
    ...clockRoutes(ctx),
    {
      method: 'POST',
      path: '/sandbox/reset',
      summary: 'Forget every session, payment, callback and schedule; merchants and the clock stay',
      request: 'sandbox/reset-request.schema.json',
      api: 'sandbox',
      handler: ({ body }) => {
        validated<SandboxResetRequest>('sandbox/reset-request', body)
        ctx.store.clear()
        // The clock is not part of the reset; keeping its time lets a restart resume from it.
        rememberClock(ctx)
        const now = ctx.clock.now()
        ctx.events.emit({ type: 'reset', at: now })
        return jsonResponse(200, { status: 'reset', now: formatDateTime(now) })
      },
    },
    {
      method: 'GET',
      path: '/sandbox/merchants',
      summary: 'Configured merchants, MIDs and Protocol Mapping (never passwords)',
      api: 'sandbox',
      handler: () => jsonResponse(200, { merchants: ctx.config.merchants.map(publicMerchant) }),
    },
    ...recordRoutes(ctx),
  ],
}

/** A merchant as the control API shows it: never its password, nor a wallet's keys. */
export function publicMerchant(merchant: SandboxMerchant) {
  return {
    key: merchant.key,
    ...(merchant.name ? { name: merchant.name } : {}),
    notification_url: merchant.notification_url,
    mids: merchant.mids,
    protocol_mapping: merchant.protocol_mapping ?? {},
    wallets: Object.keys(merchant.wallets ?? {}),
  }
}
