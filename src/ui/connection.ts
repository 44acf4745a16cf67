import { type ControlClient, TokenRefusedError } from './client.js'
import type { EngineEvent } from './client-types.js'

/** What the header and the banner say about the link to the sandbox. */
export type ConnectionState =
  | { kind: 'connecting' }
  | { kind: 'connected'; since: number; reconnected: boolean }
  | { kind: 'reconnecting'; attempt: number; retryInMs: number; error: string; since: number }
  /** The sandbox answers but refuses the console's control token (none given, or another one). */
  | { kind: 'token'; given: boolean; error: string; since: number }

export interface FollowOptions {
  onEvent(event: EngineEvent): void
  onState(state: ConnectionState): void
  /** Waits between attempts; the last one repeats. */
  delaysMs?: number[]
  now?: () => number
}

export const DEFAULT_DELAYS_MS = [500, 1000, 2000, 3000, 5000]

/**
 * Follows the sandbox's event stream for as long as the console runs. When the stream ends or
 * cannot be opened (the sandbox stopped, restarted, the network went), it says so and tries
 * again with growing waits; once back it says it reconnected. Returns the stop function.
 */
export function followSandbox(client: ControlClient, options: FollowOptions): () => void {
  const delays = options.delaysMs ?? DEFAULT_DELAYS_MS
  const now = options.now ?? Date.now
  const controller = new AbortController()
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined

  const loop = async () => {
    let attempt = 0
    let lostAt = 0
    let everConnected = false
    while (!stopped) {
      let error = 'the event stream ended'
      let token: TokenRefusedError | undefined
      try {
        const stream = client.events(controller.signal, () => {
          options.onState({ kind: 'connected', since: now(), reconnected: everConnected })
          everConnected = true
          attempt = 0
        })
        for await (const event of stream) options.onEvent(event)
      } catch (caught) {
        error = (caught as Error)?.message ?? String(caught)
        if (caught instanceof TokenRefusedError) token = caught
      }
      if (stopped) return
      if (attempt === 0) lostAt = now()
      const retryInMs = delays[Math.min(attempt, delays.length - 1)] ?? 1000
      attempt++
      // Not offline: the sandbox is there and says why it will not talk (it is asked again, in case it restarts).
      if (token) options.onState({ kind: 'token', given: token.given, error, since: lostAt })
      else options.onState({ kind: 'reconnecting', attempt, retryInMs, error, since: lostAt })
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, retryInMs)
      })
    }
  }

  options.onState({ kind: 'connecting' })
  void loop()
  return () => {
    stopped = true
    if (timer) clearTimeout(timer)
    controller.abort()
  }
}
