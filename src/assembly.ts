import './schema-files.js'
import { apmControlModule } from './core/apm/control.js'
import { callbacksModule } from './core/callbacks/index.js'
import { checkoutSessionModule } from './core/checkout/module.js'
import { checkoutOperationsModule } from './core/checkout/operations/module.js'
import { controlModule } from './core/control/index.js'
import { faultsModule } from './core/faults/index.js'
import { supportModule } from './core/control/support.js'
import { requestLogModule } from './core/request-log/routes.js'
import { orderScenarioModule } from './core/order-scenario/routes.js'
import type { GatewayDeps } from './core/engine/context.js'
import { createGateway, type Gateway } from './core/engine/gateway.js'
import type { EngineModule } from './core/engine/modules.js'
import { apmPagesModule } from './pages/apm/module.js'
import { hostedPagesModule } from './pages/module.js'
import { s2sApmModule } from './core/s2s-apm/module.js'
import { s2sCardModule } from './core/s2s-card/module.js'
import { schedulesModule } from './core/schedules/module.js'

/**
 * The one assembly of the engine (docs/architecture.md): every feature of the gateway, in the
 * order their routes are matched. `serve`, `createSandbox`, the conformance kit, `gen` and the
 * tests build the engine from this list. It lives outside src/core because it joins the core
 * with the hosted pages; src/core itself imports nothing from pages, UI, adapters or Node I/O
 * beyond its data files (test/engine/boundaries.test.ts).
 */
export const DEFAULT_MODULES: EngineModule[] = [
  controlModule,
  faultsModule,
  checkoutSessionModule,
  checkoutOperationsModule,
  // Before callbacks: a chain starts before its initial payment's callback is built (schedules/module.ts).
  schedulesModule,
  callbacksModule,
  s2sCardModule,
  s2sApmModule,
  apmControlModule,
  supportModule,
  requestLogModule,
  orderScenarioModule,
  hostedPagesModule,
  apmPagesModule,
]

/** The gateway with every feature: what `serve`, the library and the kit run. */
export function assembleGateway(deps: GatewayDeps, modules: EngineModule[] = DEFAULT_MODULES): Gateway {
  return createGateway(deps, modules)
}
