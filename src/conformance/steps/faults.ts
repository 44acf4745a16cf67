import { addFault, DEFAULT_HOLD_SECONDS } from '../../core/faults/index.js'
import type { ScenarioGatewayFaultStep } from '../../generated/types.js'
import { fail, type ScenarioContext, StepSkipped } from '../context.js'
import { sendToGateway } from '../http.js'

/**
 * gateway.fault: the next matching requests to the scenario's gateway fail (src/core/faults). On
 * the kit's own gateway a time-out moves the scenario's virtual clock, so nothing waits for real,
 * unless the rule holds the answer (`late`, `hold_seconds`): that hold is real time, so that the
 * merchant's own HTTP client times out, and ends as soon as it does.
 */
export async function gatewayFault(step: ScenarioGatewayFaultStep, ctx: ScenarioContext): Promise<unknown> {
  const rule = {
    mode: step.mode,
    ...(step.match ? { match: step.match } : {}),
    ...(step.count !== undefined ? { count: step.count } : {}),
    ...(step.seconds !== undefined ? { seconds: step.seconds } : {}),
    ...(step.status !== undefined ? { status: step.status } : {}),
    ...(step.hold_seconds !== undefined ? { hold_seconds: step.hold_seconds } : {}),
  }
  const held = rule.hold_seconds ?? (rule.mode === 'late' ? DEFAULT_HOLD_SECONDS : 0)
  ctx.holdMs = Math.max(ctx.holdMs ?? 0, held * 1000)
  if (ctx.hosted) return { fault: addFault(ctx.hosted.gateway.ctx, rule) }
  if (!ctx.controlApi)
    throw new StepSkipped('skipped: needs gateway faults (POST /sandbox/faults exists on a paysandbox only)')
  const answer = await sendToGateway(ctx, { method: 'POST', path: '/sandbox/faults', json: rule })
  if (answer.status === 404)
    throw new StepSkipped('skipped: this paysandbox has no gateway faults (POST /sandbox/faults)')
  if (answer.status !== 201) fail(`the fault was not set: HTTP ${answer.status} ${answer.text.slice(0, 300)}`)
  return answer.body
}
