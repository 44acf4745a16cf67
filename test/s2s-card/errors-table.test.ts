import { describe, expect, it } from 'vitest'
import { interfaceExcerpt } from '../helpers/interface-excerpts.js'
import {
  followUp,
  KEY,
  orderHash,
  paid,
  type S2sGateway,
  saleForm,
  saleHash,
  setup,
  snapshot,
} from './helpers.js'

/**
 * Every row of the interface's Errors table that S2S CARD payment actions answer, run against the
 * engine and compared cell by cell ("Codes and messages in the interface's Errors table are exact
 * and must be reproduced to the character", docs/rules.md#transport). The schedule rows are the schedule
 * actions' (test/schedules); `size` is Checkout's. The table is read from the interface's Errors
 * section, kept verbatim in data/interface/errors.md (docs/interface-data.md).
 */

interface Row {
  condition: string
  http: string
  code: string
  message: string
}

function errorsTable(): Row[] {
  return interfaceExcerpt('errors')
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| Condition') && !l.startsWith('|---'))
    .map((l) => {
      const [condition, http, code, message] = l.slice(2, -2).split(' | ') as [string, string, string, string]
      return { condition, http, code, message }
    })
}

type Scenario = (t: S2sGateway) => Promise<{ status: number; body: Record<string, unknown> }>

const SCENARIOS: Record<string, Scenario> = {
  'S2S CARD GET_TRANS_STATUS with unknown `trans_id`': (t) =>
    t.post(followUp('GET_TRANS_STATUS', 'unknown-id')),
  'S2S CARD GET_TRANS_STATUS_BY_ORDER with unknown `order_id`': (t) =>
    t.post({
      action: 'GET_TRANS_STATUS_BY_ORDER',
      client_key: KEY,
      order_id: 'ORDER-404',
      hash: orderHash('ORDER-404'),
    }),
  'S2S CARD CAPTURE with unknown `trans_id`': (t) => t.post(followUp('CAPTURE', 'unknown-id')),
  'S2S CARD VOID or CREDITVOID with unknown `trans_id`': (t) => t.post(followUp('VOID', 'unknown-id')),
  'S2S CARD RECURRING_SALE with an unknown initial pair': (t) =>
    t.post({
      action: 'RECURRING_SALE',
      client_key: KEY,
      order_id: 'O-2',
      order_amount: '1.00',
      order_description: 'Monthly',
      recurring_first_trans_id: 'unknown-id',
      recurring_token: 'unknown-token',
      hash: saleHash(),
    }),
  'MOTO payment with no MOTO-enabled MID': (t) => t.post(saleForm({ moto_type: 'phone_moto' })),
  'Zero amount on plain SALE or purchase': (t) => t.post(saleForm({ order_amount: '0.00' })),
  'VOID on a not-yet-captured authorization': async (t) => {
    const { trans_id } = await paid(t, { auth: 'Y', order_id: 'HELD' })
    return t.post(followUp('VOID', trans_id))
  },
}

/** The answer's message as the interface writes it: the envelope's, or the single `errors[]` item's. */
function messageOf(body: Record<string, unknown>, expected: string): string {
  const items = (body.errors ?? []) as { error_message: string }[]
  return items.some((i) => i.error_message === expected) ? expected : String(body.error_message)
}

const rows = errorsTable()
const s2sRows = rows.filter((r) => SCENARIOS[r.condition])

describe('the interface Errors table, S2S CARD payment rows', () => {
  it('has a scenario for every S2S CARD row except the schedule ones', () => {
    const s2s = rows.filter((r) => r.condition.startsWith('S2S CARD') && !r.condition.includes('SCHEDULE'))
    expect(s2s.filter((r) => !SCENARIOS[r.condition])).toEqual([])
    expect(s2sRows).toHaveLength(Object.keys(SCENARIOS).length)
  })

  it.each(s2sRows.map((r) => [r.condition, r] as const))('%s', async (_, row) => {
    const t = setup()
    await paid(t) // something to leave untouched
    const before = snapshot(t)
    const scenario = SCENARIOS[row.condition] as Scenario
    const { status, body } = await scenario(t)
    expect(body.result).toBe('ERROR')
    if (row.http !== 'not shown') expect(status).toBe(Number(row.http))
    if (row.code !== 'not shown') expect(body.error_code).toBe(Number(row.code))
    if (row.message !== 'not shown') expect(messageOf(body, row.message)).toBe(row.message)
    // Errors: "Invalid identifier in a status lookup before 6.7.0 | 400 | 100000 | This value is not correct." is retired.
    expect(body.error_message).not.toBe('This value is not correct.')
    if (row.condition !== 'VOID on a not-yet-captured authorization') expect(snapshot(t)).toBe(before)
  })

  // Errors: "S2S CARD VOID or CREDITVOID": the same row for both actions.
  it('answers CREDITVOID of an unknown trans_id like VOID', async () => {
    const t = setup()
    expect((await t.post(followUp('CREDITVOID', 'unknown-id'))).body).toEqual({
      result: 'ERROR',
      http_code: 400,
      error_code: 100000,
      error_message: 'Payment not found.',
    })
  })
})
