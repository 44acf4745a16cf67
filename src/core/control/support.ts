import type { EngineModule } from '../engine/modules.js'
import { exportRoutes } from './support-export.js'
import { importRoutes } from './support-import.js'
import { merchantRequestRoutes } from './support-merchant.js'
import { payerRoutes } from './support-payer.js'
import { scheduleRoutes } from './support-schedules.js'

/**
 * The control routes the support console (src/ui, `paysandbox tui`) needs beyond the basic
 * control API (docs/rules.md#beyond-the-interface: "plus whatever the CLI, the terminal UI and the scenario runner
 * need"): card payer steps, export and import of one payment's history, follow-ups prepared as
 * the merchant would send them, and schedules. Under `/sandbox/...` only; every merchant's records
 * are visible here, as the control API is the operator's view.
 */
export const supportModule: EngineModule = {
  name: 'support',
  routes: (ctx) => [
    ...payerRoutes(ctx),
    ...exportRoutes(ctx),
    ...importRoutes(ctx),
    ...merchantRequestRoutes(ctx),
    ...scheduleRoutes(ctx),
  ],
}
