import { callbacksModule } from './callbacks/index.js'
import { checkoutSessionModule } from './checkout/module.js'
import { checkoutOperationsModule } from './checkout/operations/module.js'
import { controlModule } from './control/index.js'
import type { EngineModule } from './engine/modules.js'
import { s2sCardModule } from './s2s-card/module.js'

/**
 * Every feature of the gateway, in the order their routes are matched. `createSandbox`, `serve`
 * and the tests build the engine from this list.
 */
export const DEFAULT_MODULES: EngineModule[] = [
  controlModule,
  checkoutSessionModule,
  checkoutOperationsModule,
  callbacksModule,
  s2sCardModule,
]
