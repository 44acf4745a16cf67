import { apmControlModule } from './apm/control.js'
import { callbacksModule } from './callbacks/index.js'
import { checkoutSessionModule } from './checkout/module.js'
import { checkoutOperationsModule } from './checkout/operations/module.js'
import { controlModule } from './control/index.js'
import { supportModule } from './control/support.js'
import type { EngineModule } from './engine/modules.js'
import { apmPagesModule } from '../pages/apm/module.js'
import { hostedPagesModule } from '../pages/module.js'
import { s2sApmModule } from './s2s-apm/module.js'
import { s2sCardModule } from './s2s-card/module.js'
import { schedulesModule } from './schedules/module.js'

/**
 * Every feature of the gateway, in the order their routes are matched. `createSandbox`, `serve`
 * and the tests build the engine from this list.
 */
export const DEFAULT_MODULES: EngineModule[] = [
  controlModule,
  checkoutSessionModule,
  checkoutOperationsModule,
  // Before callbacks: a chain starts before its initial payment's callback is built (schedules/module.ts).
  schedulesModule,
  callbacksModule,
  s2sCardModule,
  s2sApmModule,
  apmControlModule,
  supportModule,
  hostedPagesModule,
  apmPagesModule,
]
