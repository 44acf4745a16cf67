import type { EngineContext } from '../engine/context.js'
import type { EngineEvent } from '../engine/events.js'
import type { EngineModule } from '../engine/modules.js'
import { attachChain } from './chains.js'
import { startRunner, stopRunner } from './runner.js'

/**
 * Schedules' background work: chains start when their initial payment is approved, and scheduled
 * payments run on the sandbox clock (runner.ts). The schedule actions themselves are S2S CARD
 * actions (src/core/s2s-card/schedule-actions.ts).
 *
 * Registered before the callbacks module: listeners run in start order, so the chain (and the
 * initial payment's `first_recurring_date`) exists before the initial payment's callback is built.
 */
export const schedulesModule: EngineModule = {
  name: 'schedules',
  routes: () => [],
  start: (ctx) => startSchedules(ctx),
}

export function startSchedules(ctx: EngineContext): () => void {
  const runner = startRunner(ctx)
  runner.armAll()
  // Part of the operation (docs/architecture.md): the chain commits with the payment that starts
  // it, or the operation fails whole. An armed job whose chain never landed finds none and ends.
  const unsubscribe = ctx.events.subscribe(
    (event: EngineEvent) => {
      if (event.type === 'reset') return runner.disarmAll()
      // A charge transaction commits with its payment already stored in its final status, so the
      // chain can start on the transaction; the payment event covers any other path.
      if (event.type !== 'transaction' && event.type !== 'payment') return
      if (event.type === 'transaction' && event.status !== 'success') return
      const chain = attachChain(ctx, event.payment_id)
      if (chain) runner.arm(chain)
    },
    { partOfOperation: true },
  )
  return () => {
    unsubscribe()
    stopRunner(ctx)
  }
}
