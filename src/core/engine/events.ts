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
  /** decisions.md §7: what a request was warned about (one entry per `Sandbox-Warning` header). */
  | {
      type: 'warning'
      warnings: { field: string; sent: string; documented: string; source: string }[]
      at: number
    }
  | { type: 'reset'; at: number }

export type EventListener = (event: EngineEvent) => void

export interface EventBus {
  emit(event: EngineEvent): void
  /** Returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void
}

export function createEventBus(): EventBus {
  const listeners = new Set<EventListener>()
  return {
    emit(event) {
      for (const listener of listeners) {
        try {
          listener(event)
        } catch {
          // A listener's failure (a closed stream) must never break the operation that emitted.
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
