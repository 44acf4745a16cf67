import { describe, expect, it } from 'vitest'
import { createRequestLog } from '../../src/core/request-log/log.js'
import type { RequestRecord } from '../../src/core/request-log/types.js'

/** The request log's store (docs/rules.md#request-log): a ring per merchant, indexes kept with it. */

let at = 0
const record = (
  merchant: string | undefined,
  order: string,
  payments: string[] = [],
): Omit<RequestRecord, 'id' | 'seq'> => ({
  at: ++at,
  answered_at: at,
  method: 'POST',
  path: '/api/v1/session',
  api: 'checkout',
  ...(merchant ? { merchant } : {}),
  order_id: order,
  ...(payments[0] ? { payment_id: payments[0] } : {}),
  payment_ids: payments,
  request: { headers: {}, bytes: 0 },
  response: { status: 200, headers: {}, bytes: 0 },
  warnings: [],
})

describe('the request log store', () => {
  it('forgets a full ring oldest first, from its indexes too', () => {
    const log = createRequestLog(2)
    log.add(record('m', 'o1', ['p1']))
    log.add(record('m', 'o1', ['p1']))
    log.add(record('m', 'o2', ['p2']))
    expect(log.query({ merchant: 'm', order_id: 'o1' }).records.map((r) => r.id)).toEqual(['req-2'])
    expect(log.query({ payment_id: 'p1' }).total).toBe(1)
    expect(log.get('req-1')).toBeUndefined()
    log.add(record('m', 'o3'))
    expect(log.query({ merchant: 'm', order_id: 'o1' }).total).toBe(0)
    expect(log.query({ payment_id: 'p1' }).total).toBe(0)
    expect(log.stats()).toMatchObject({ kept: 2, recorded: 4, forgotten: 2 })
  })

  it('lists every merchant newest first by merging their rings, within the limit', () => {
    const log = createRequestLog(10)
    log.add(record('a', 'a1'))
    log.add(record('b', 'b1'))
    log.add(record(undefined, 'x'))
    log.add(record('a', 'a2'))
    expect(log.query({ limit: 3 }).records.map((r) => r.order_id)).toEqual(['a2', 'x', 'b1'])
    expect(log.query({ limit: 3 }).total).toBe(4)
    expect(log.query({ merchant: 'a', order: 'asc' }).records.map((r) => r.order_id)).toEqual(['a1', 'a2'])
    expect(log.query({ unattributed: true }).records.map((r) => r.order_id)).toEqual(['x'])
    // The same order number under two merchants is two orders; without a merchant, both.
    log.add(record('b', 'a1'))
    expect(log.query({ order_id: 'a1', merchant: 'a' }).total).toBe(1)
    expect(log.query({ order_id: 'a1' }).total).toBe(2)
  })
})
