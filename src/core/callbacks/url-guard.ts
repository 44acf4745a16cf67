import type { EngineContext } from '../engine/context.js'
import { formatDateTime } from '../engine/format.js'
import type { CallbackUrlState } from '../engine/model.js'
import { MINUTE } from '../ports/clock.js'
import type { StoreOp } from '../ports/store.js'
import type { AttemptOutcome } from './attempt.js'

/**
 * docs/rules.md#url-blocking (platform rule): "five time-outs within five minutes on one notification URL …";
 * the sandbox counts refused connections with them (`unanswered`).
 */
export const BLOCK_AFTER_TIMEOUTS = 5
export const TIMEOUT_WINDOW_MS = 5 * MINUTE
/** "… block it for 15 minutes for every merchant that uses it". */
export const BLOCK_MS = 15 * MINUTE

/** The store collection holding each URL's counters (one record per URL that timed out). */
export const URL_STATES = 'callback_urls'

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
  /**
   * Counts a time-out; an acknowledged callback resets the counter ("a successful delivery resets
   * the counter"). Writes nothing: returns the store op of the URL's new state (undefined when
   * unchanged), which the caller commits in the same batch as the attempt it follows from.
   */
  record(url: string, now: number, outcome: AttemptOutcome): StoreOp | undefined
  /** Every URL with a time-out or a block, for the control API. */
  states(now: number): UrlState[]
}

/**
 * What counts toward the block: an attempt that got no answer at all, a time-out or a connection
 * refused, reset or never made (sandbox choice, docs/sandbox-choices.md: the platform counts
 * time-outs; a URL where nothing listens fails the same way, faster, and would otherwise be tried
 * at every retry of every payment). An HTTP answer, even a 500, is not counted.
 */
export const unanswered = (outcome: AttemptOutcome): boolean =>
  outcome.timed_out === true || (!outcome.acknowledged && outcome.status === undefined)

/** Why a URL is blocked, in the log and in each blocked attempt. */
export const BLOCK_REASON = '5 attempts without an answer (time-out or refused connection) within 5 minutes'

const recent = (state: CallbackUrlState, now: number) =>
  state.timeouts.filter((at) => at > now - TIMEOUT_WINDOW_MS)

/**
 * The platform's URL blocking rule, keyed by the URL itself (not the merchant): every merchant
 * whose callbacks go to a blocked URL has them logged as blocked, not sent. Sandbox time throughout,
 * so advancing the clock past the 15 minutes lifts the block. The counters live in the store
 * (collection `callback_urls`, one record per URL that timed out, at most five times kept each),
 * so a restart with `--data` keeps a blocked URL blocked, and the sandbox's reset clears them
 * with everything else. Nothing is kept in memory.
 */
export function createUrlGuard(ctx: Pick<EngineContext, 'logger' | 'store'>): UrlGuard {
  const read = (url: string) => ctx.store.get(URL_STATES, url)
  const put = (state: CallbackUrlState): StoreOp => ({
    collection: URL_STATES,
    kind: 'put',
    id: state.id,
    record: state,
  })

  return {
    blockedUntil(url, now) {
      const until = read(url)?.blocked_until
      return until !== undefined && now < until ? until : undefined
    },
    record(url, now, outcome) {
      const state = read(url)
      if (outcome.acknowledged) return state?.timeouts.length ? put({ ...state, timeouts: [] }) : undefined
      if (!unanswered(outcome)) return undefined
      const next: CallbackUrlState = state ? { ...state } : { id: url, timeouts: [], blocks: 0 }
      if (next.blocked_until !== undefined && now < next.blocked_until) return undefined
      next.timeouts = [...recent(next, now), now]
      if (next.timeouts.length >= BLOCK_AFTER_TIMEOUTS) {
        next.blocked_until = now + BLOCK_MS
        next.blocks++
        next.timeouts = []
        ctx.logger.warn(`callback URL blocked: ${BLOCK_REASON}`, {
          url,
          until: formatDateTime(next.blocked_until),
        })
      }
      return put(next)
    },
    states(now) {
      return ctx.store.list(URL_STATES).map((state) => {
        const timeouts = recent(state, now)
        const until = state.blocked_until
        const blocked = until !== undefined && now < until
        const last = timeouts[timeouts.length - 1]
        return {
          url: state.id,
          recent_timeouts: timeouts.length,
          blocked,
          ...(blocked ? { blocked_until: formatDateTime(until), blocked_until_ms: until } : {}),
          blocks: state.blocks,
          ...(last !== undefined ? { last_timeout_at: formatDateTime(last) } : {}),
        }
      })
    },
  }
}
