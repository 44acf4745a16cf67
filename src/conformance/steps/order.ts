import { fail, type ScenarioContext } from '../context.js'
import { interpolate } from '../interpolate.js'

/** The order a step names, else the scenario's latest (`order_number`, set by merchant.start). */
export function orderNumber(given: string | undefined, ctx: ScenarioContext): string {
  if (given) return interpolate(given, ctx.vars)
  const latest = ctx.vars.order_number
  return typeof latest === 'string'
    ? latest
    : fail('no order yet: start a payment first or name order_number')
}
