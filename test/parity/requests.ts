import type { Step } from './build.js'
import { CHECKOUT_STEPS } from './checkout-steps.js'
import { CONTROL_STEPS } from './control-steps.js'
import { PAGE_STEPS } from './page-steps.js'
import { S2S_STEPS } from './s2s-steps.js'

export type { RequestSpec, State, Step } from './build.js'

/** The one table both adapters run, in order (later steps use ids the earlier ones answered). */
export const STEPS: Step[] = [...CHECKOUT_STEPS, ...S2S_STEPS, ...PAGE_STEPS, ...CONTROL_STEPS]
