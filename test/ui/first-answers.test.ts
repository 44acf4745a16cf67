import { describe, expect, it } from 'vitest'
import type { ControlClient } from '../../src/ui/client.js'
import { filterQuery } from '../../src/ui/filters.js'
import { withFirstAnswers } from '../../src/ui/first-answers.js'

/** A client whose payments and clock answer with a call counter. */
function counting() {
  const calls: string[] = []
  const client = {
    baseUrl: 'http://sandbox.test',
    payments: async (q?: object) => {
      calls.push(`payments ${JSON.stringify(q)}`)
      return { payments: [], page: calls.length, per_page: 100, total: 0 }
    },
    clock: async () => {
      calls.push('clock')
      return { now_ms: calls.length }
    },
  } as unknown as ControlClient
  return { client, calls }
}

// Issue 14 point 4 ("Start-up under a second"): the console asks its first questions before it is drawn.
describe('the console’s first answers (src/ui/first-answers.ts)', () => {
  it('asks for the first page of payments and the clock at once, and hands each answer to the first call only', async () => {
    const { client, calls } = counting()
    const wrapped = withFirstAnswers(client)
    expect(calls).toEqual([`payments ${JSON.stringify(filterQuery({}, 1))}`, 'clock'])
    expect(wrapped.baseUrl).toBe('http://sandbox.test')
    expect(await wrapped.payments(filterQuery({}, 1))).toMatchObject({ page: 1 })
    expect(await wrapped.clock()).toMatchObject({ now_ms: 2 })
    expect(calls).toHaveLength(2)
    // Later calls, a refresh among them, go to the sandbox.
    expect(await wrapped.payments(filterQuery({}, 1))).toMatchObject({ page: 3 })
    expect(await wrapped.clock()).toMatchObject({ now_ms: 4 })
  })

  it('does not answer another question with the prefetched page', async () => {
    const { client, calls } = counting()
    const wrapped = withFirstAnswers(client)
    const filtered = filterQuery({ merchant: 'shop-two' }, 1)
    await wrapped.payments(filtered)
    expect(calls.at(-1)).toBe(`payments ${JSON.stringify(filtered)}`)
  })

  it('leaves no unhandled rejection when the sandbox is not there, and tells the first caller', async () => {
    const failing = {
      baseUrl: 'http://gone.test',
      payments: () => Promise.reject(new Error('ECONNREFUSED')),
      clock: () => Promise.reject(new Error('ECONNREFUSED')),
    } as unknown as ControlClient
    const wrapped = withFirstAnswers(failing)
    await new Promise((resolve) => setImmediate(resolve))
    await expect(wrapped.clock()).rejects.toThrow('ECONNREFUSED')
  })
})
