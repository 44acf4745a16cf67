import type { EngineContext } from '../engine/context.js'
import { formatDateTime } from '../engine/format.js'
import { MINUTE } from '../ports/clock.js'
import type { AttemptOutcome } from './attempt.js'

/** decisions.md §3 (platform rule): "five time-outs within five minutes on one notification URL …". */
export const BLOCK_AFTER_TIMEOUTS = 5
export const TIMEOUT_WINDOW_MS = 5 * MINUTE
/** "… block it for 15 minutes for every merchant that uses it". */
export const BLOCK_MS = 15 * MINUTE

export interface UrlState {
  url: string
  /** Sandbox times of the time-outs still inside the five-minute window. */
  recent_timeouts: number
  blocked: boolean
  blocked_until?: string
  blocked_until_ms?: number
  /** How many times this URL has been blocked since the start (or the last reset). */
  blocks: number
  last_timeout_at?: string
}

export interface UrlGuard {
  /** The end of the URL's block, when it is blocked at `now`. */
  blockedUntil(url: string, now: number): number | undefined
  /** Counts a time-out; an acknowledged callback resets the counter ("a successful delivery resets the counter"). */
  record(url: string, now: number, outcome: AttemptOutcome): void
  /** Every URL with a time-out or a block, for the control API. */
  states(now: number): UrlState[]
  clear(): void
}

interface Entry {
  timeouts: number[]
  blockedUntil?: number
  blocks: number
}

/**
 * The platform's URL blocking rule, keyed by the URL itself (not the merchant): every merchant
 * whose callbacks go to a blocked URL has them logged as blocked, not sent. Sandbox time throughout,
 * so advancing the clock past the 15 minutes lifts the block. Memory: one entry per URL that
 * timed out, at most five times kept each.
 */
export function createUrlGuard(ctx: Pick<EngineContext, 'logger'>): UrlGuard {
  const entries = new Map<string, Entry>()

  const prune = (entry: Entry, now: number) => {
    while (entry.timeouts.length && (entry.timeouts[0] as number) <= now - TIMEOUT_WINDOW_MS)
      entry.timeouts.shift()
  }

  return {
    blockedUntil(url, now) {
      const until = entries.get(url)?.blockedUntil
      return until !== undefined && now < until ? until : undefined
    },
    record(url, now, outcome) {
      if (outcome.acknowledged) {
        const entry = entries.get(url)
        if (entry?.timeouts.length) entry.timeouts = []
        return
      }
      if (!outcome.timed_out) return
      let entry = entries.get(url)
      if (!entry) {
        entry = { timeouts: [], blocks: 0 }
        entries.set(url, entry)
      }
      if (entry.blockedUntil !== undefined && now < entry.blockedUntil) return
      entry.timeouts.push(now)
      prune(entry, now)
      if (entry.timeouts.length >= BLOCK_AFTER_TIMEOUTS) {
        entry.blockedUntil = now + BLOCK_MS
        entry.blocks++
        entry.timeouts = []
        ctx.logger.warn('callback URL blocked: 5 time-outs within 5 minutes', {
          url,
          until: formatDateTime(entry.blockedUntil),
        })
      }
    },
    states(now) {
      const out: UrlState[] = []
      for (const [url, entry] of entries) {
        prune(entry, now)
        const blocked = entry.blockedUntil !== undefined && now < entry.blockedUntil
        const last = entry.timeouts[entry.timeouts.length - 1]
        out.push({
          url,
          recent_timeouts: entry.timeouts.length,
          blocked,
          ...(blocked && entry.blockedUntil !== undefined
            ? { blocked_until: formatDateTime(entry.blockedUntil), blocked_until_ms: entry.blockedUntil }
            : {}),
          blocks: entry.blocks,
          ...(last !== undefined ? { last_timeout_at: formatDateTime(last) } : {}),
        })
      }
      return out
    },
    clear() {
      entries.clear()
    },
  }
}
