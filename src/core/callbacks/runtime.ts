import type { EngineContext } from '../engine/context.js'
import { createDeliveryQueue, type DeliveryQueue, type DeliverySettings } from './delivery.js'
import { subscribeCallbacks } from './subscriber.js'

const queues = new WeakMap<EngineContext, DeliveryQueue>()

/** The gateway's callback queue (one per engine context), created on first use. */
export function callbacksOf(ctx: EngineContext, overrides?: Partial<DeliverySettings>): DeliveryQueue {
  let queue = queues.get(ctx)
  if (!queue) {
    queue = createDeliveryQueue(ctx, overrides)
    queues.set(ctx, queue)
  }
  return queue
}

/**
 * Starts turning the engine's `transaction` events into callbacks, and resumes deliveries a
 * previous run left unfinished in the store. Returns the stop function.
 */
export function startCallbacks(ctx: EngineContext, overrides?: Partial<DeliverySettings>): () => void {
  const queue = callbacksOf(ctx, overrides)
  queue.resume()
  const unsubscribe = subscribeCallbacks(ctx, queue)
  // A store that forgets old payments (retention) takes their undelivered callbacks with them.
  const unforget = ctx.store.retention?.onForget((ids) => queue.forgotten(ids))
  return () => {
    unforget?.()
    unsubscribe()
    queue.stop()
    queues.delete(ctx)
  }
}
