import { describe, expect, it } from 'vitest'
import { compareAnswers } from '../../src/replay/compare.js'
import { RoleMap } from '../../src/replay/roles.js'

/** docs/replay.md, "What is compared": volatile values by their role, the rest by their value. */
const json = (status: number, body: unknown) => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

describe('roles and differences', () => {
  it('pairs an id the first time, sends it rewritten after, and tells another id in its place', () => {
    const roles = new RoleMap()
    const a = '131cb15d-0dc7-4946-a906-5251a0ffbc5a'
    const b = 'cbcaa136-1fdd-4034-b674-00bfa1f47de4'
    expect(
      compareAnswers(
        json(200, { payment_id: a, status: 'settled' }),
        json(200, { payment_id: b, status: 'settled' }),
        roles,
        'step 1',
      ),
    ).toEqual([])
    expect(roles.rewrite(`{"payment_id":"${a}"}`)).toBe(`{"payment_id":"${b}"}`)
    const other = '00000000-1111-4222-8333-444444444444'
    const diff = compareAnswers(
      json(200, { payment_id: a }),
      json(200, { payment_id: other }),
      roles,
      'step 2',
    )
    expect(diff).toEqual([
      {
        at: '$.payment_id',
        recorded: `"${a}"`,
        sandbox: `"${other}"`,
        note: `the recorded value stands for "${b}" ($.payment_id of step 1), not this one`,
      },
    ])
  })

  it('learns a token inside a URL, encoded placeholders included', () => {
    const roles = new RoleMap()
    const diff = compareAnswers(
      json(200, { redirect_url: 'http://gw/auth/[token-1]' }),
      json(200, { redirect_url: 'http://gw/auth/Zx81kQ0aPb7sT2uV9wY4' }),
      roles,
      'step 1',
    )
    expect(diff).toEqual([])
    expect(roles.rewrite('/auth/%5Btoken-1%5D/pay')).toBe('/auth/Zx81kQ0aPb7sT2uV9wY4/pay')
  })

  it('compares dates by their form, hashes by their presence, everything else by value', () => {
    const roles = new RoleMap()
    const diff = compareAnswers(
      json(200, { date: '2026-12-06 10:06:12', hash: 'a'.repeat(40), amount: '10.00', extra: 1 }),
      json(400, { date: '2026-11-02 10:00:00', hash: 'b'.repeat(40), amount: '10.0', more: 2 }),
      roles,
      'step 1',
    )
    expect(diff).toEqual([
      { at: 'status', recorded: '200', sandbox: '400' },
      { at: '$.amount', recorded: '"10.00"', sandbox: '"10.0"' },
      { at: '$.extra', recorded: '1', note: 'missing from the sandbox answer' },
      { at: '$.more', sandbox: '2', note: 'not in the recorded answer' },
    ])
  })
})
