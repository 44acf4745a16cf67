import type { Refusal } from './refusal.js'

/** What the engine reports as it works: the control API's event stream, the CLI and the terminal UI listen. */
export type EngineEvent =
  | { type: 'payment'; payment_id: string; merchant_key: string; status: string; at: number }
  | {
      type: 'transaction'
      payment_id: string
      transaction_id: string
      kind: string
      status: string
      at: number
    }
  | {
      type: 'delivery'
      delivery_id: string
      payment_id?: string
      merchant_key: string
      state: string
      at: number
    }
  | { type: 'clock'; now: number; at: number }
  /** docs/rules.md#warnings: what a request was warned about (one entry per `Sandbox-Warning` header). */
  | {
      type: 'warning'
      warnings: { field: string; sent: string; documented: string; source: string }[]
      at: number
    }
  /** docs/rules.md#rule-book: a request the gateway refused, and why (the `Sandbox-Rule` header it answered). */
  | {
      type: 'refusal'
      method: string
      /** The path as the gateway read it (normalised, without the base path). */
      path: string
      /** The S2S action, for a request to an S2S route. */
      action?: string
      /** The merchant the request named, when the sandbox has it. */
      merchant_key?: string
      status: number
      refusal: Refusal
      at: number
    }
  | { type: 'reset'; at: number }

export type EventListener = (event: EngineEvent) => void

export interface EventBus {
  emit(event: EngineEvent): void
  /**
   * Returns the unsubscribe function. A listener that is `part of the operation` (the callbacks
   * module: the deliveries it creates commit with the payment) lets its failure fail the
   * operation, so its unit of work commits nothing; any other listener's failure (a closed
   * stream) never breaks the operation that emitted.
   */
  subscribe(listener: EventListener, options?: { partOfOperation?: boolean }): () => void
}

export function createEventBus(): EventBus {
  const listeners = new Map<EventListener, boolean>()
  return {
    emit(event) {
      let failure: { error: unknown } | undefined
      for (const [listener, partOfOperation] of listeners) {
        try {
          listener(event)
        } catch (error) {
          if (partOfOperation) failure ??= { error }
        }
      }
      if (failure) throw failure.error
    },
    subscribe(listener, options = {}) {
      listeners.set(listener, options.partOfOperation === true)
      return () => listeners.delete(listener)
    },
  }
}
