import type { ScenarioClockAdvanceStep } from '../../generated/types.js'
import { fail, type ScenarioContext, StepSkipped, settle } from '../context.js'
import { sendToGateway } from '../http.js'

/** clock.advance: the scenario's virtual clock (or an external paysandbox's clock) moves ahead. */
export async function clockAdvance(step: ScenarioClockAdvanceStep, ctx: ScenarioContext): Promise<unknown> {
  if (!ctx.hosted && !ctx.controlApi)
    throw new StepSkipped(
      'skipped: needs clock control (POST /sandbox/clock/advance exists on a paysandbox only)',
    )
  const answer = await sendToGateway(ctx, {
    method: 'POST',
    path: '/sandbox/clock/advance',
    json: { seconds: step.seconds },
  })
  if (answer.status !== 200)
    fail(`the clock did not move: HTTP ${answer.status} ${answer.text.slice(0, 300)}`)
  // Retries and scheduled payments the move made due are sent before the next step looks.
  await settle(ctx)
  return answer.body
}
