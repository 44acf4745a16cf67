import type { ControlClient } from './client.js'
import { filterQuery } from './filters.js'

/**
 * The console's first questions, asked before it is drawn: the first page of payments (what the
 * payments view asks for first) and the sandbox clock. Their answers travel while ink and react
 * start, so the first frame with data comes that much sooner (issue 14: "Start-up under a second
 * on the same machine as `serve`"). Each answer goes to the first call that asks exactly that
 * question; every other call, and every later one, goes to the sandbox.
 */
export function withFirstAnswers(client: ControlClient): ControlClient {
  const firstPage = JSON.stringify(filterQuery({}, 1))
  let payments: ReturnType<ControlClient['payments']> | undefined = client.payments(filterQuery({}, 1))
  let clock: ReturnType<ControlClient['clock']> | undefined = client.clock()
  // Not an unhandled rejection if nobody asks: a failure is told to whoever asks, as a fresh call's would be.
  payments.catch(() => {})
  clock.catch(() => {})
  return {
    ...client,
    payments(query) {
      const answer = payments
      payments = undefined
      return answer && JSON.stringify(query ?? {}) === firstPage ? answer : client.payments(query)
    },
    clock() {
      const answer = clock
      clock = undefined
      return answer ?? client.clock()
    },
  }
}
