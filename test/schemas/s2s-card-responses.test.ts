import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { validate } from '../../src/core/validation/index.js'
import { expectInvalidAt, expectValid, withField } from '../helpers/schema.js'

type Form = Record<string, unknown>
const fixture = (name: string): Form =>
  JSON.parse(readFileSync(new URL(`../../fixtures/payloads/s2s-card/${name}.json`, import.meta.url), 'utf8'))
const valid = (schema: string, data: unknown) => expectValid(schema, data, 'bracket')
const refusedOnlyAt = (schema: string, data: unknown, path: string, message?: string) => {
  const error = expectInvalidAt(schema, data, path, message, 'bracket')
  expect(validate(schema, data, { pathStyle: 'bracket' }).errors.map((e) => e.path)).toEqual([path])
  return error
}

const SALE = 's2s-card/sale-response'
const success = fixture('sale-response.success')

describe('S2S CARD payment answers (docs/rules.md#transport)', () => {
  // docs/rules.md#amounts: "S2S: `{action, result, status, order_id, trans_id, trans_date, descriptor, amount, currency}`".
  it.each(['status', 'order_id', 'trans_id', 'trans_date', 'descriptor', 'amount', 'currency'])(
    'a SUCCESS answer needs %s',
    (field) => {
      refusedOnlyAt(SALE, withField(success, field, undefined), field, 'should not be blank')
    },
  )
  // docs/rules.md#responses: "`result` is SUCCESS, DECLINED, REDIRECT (...), ACCEPTED (CREDITVOID) or ERROR."
  it.each(['success', 'OK', 'UNDEFINED'])('refuses result %s', (result) => {
    refusedOnlyAt(SALE, withField(success, 'result', result), 'result')
  })
  // docs/rules.md#responses: "S2S statuses are uppercase." States: "`PENDING`..., `SETTLED`, `REVERSAL`, `REFUND`".
  it.each([
    'PREPARE',
    'PENDING',
    '3DS',
    'REDIRECT',
    'SETTLED',
    'DECLINED',
    'REFUND',
    'REVERSAL',
    'VOID',
    'CHARGEBACK',
  ])('accepts status %s', (status) => {
    valid(
      's2s-card/get-trans-status-response',
      withField(fixture('get-trans-status-response.success'), 'status', status),
    )
  })
  it.each(['settled', 'DECLINE', 'SUCCESS', 'SECURE3D'])('refuses status %s', (status) => {
    refusedOnlyAt(SALE, withField(success, 'status', status), 'status', 'not a valid choice')
  })
  // docs/rules.md#identifiers: "Date-times in responses: `YYYY-MM-DD HH:MM:SS` UTC."
  it.each(['2026-03-01T12:00:00Z', '2026-03-01 12:00', '01-03-2026 12:00:00', '2026-03-01 25:00:00'])(
    'refuses trans_date %s',
    (date) => {
      refusedOnlyAt(SALE, withField(success, 'trans_date', date), 'trans_date', 'not a valid datetime')
    },
  )
  // docs/rules.md#transport: "plus `recurring_token`, `card_token`, `decline_reason` where relevant".
  it('needs decline_reason on a DECLINED answer', () => {
    const declined = fixture('sale-response.declined')
    valid(SALE, declined)
    refusedOnlyAt(SALE, withField(declined, 'decline_reason', undefined), 'decline_reason')
  })
  // 2.5: "`moto_type` is returned in the SALE response, the callback and the status response."
  it('returns moto_type on SALE and status answers, from the 2.1 list only', () => {
    valid(SALE, fixture('sale-response.moto'))
    refusedOnlyAt(SALE, withField(success, 'moto_type', 'moto'), 'moto_type')
    const status = fixture('get-trans-status-response.success')
    expect(status.moto_type).toBe('phone_moto')
    refusedOnlyAt('s2s-card/get-trans-status-response', withField(status, 'moto_type', 'MOTO'), 'moto_type')
  })
  // Errors table: error responses carry `error_code` and `error_message`; docs/rules.md#errors: result ERROR.
  it('accepts an ERROR answer without payment fields but needs its message', () => {
    const error = fixture('sale-response.error')
    valid(SALE, error)
    refusedOnlyAt(SALE, withField(error, 'error_message', undefined), 'error_message')
  })
})

describe('S2S CARD REDIRECT answers on /post and /v2/post (docs/rules.md#transport)', () => {
  const redirect = fixture('sale-response.redirect')
  const redirectV2 = fixture('sale-response-v2.redirect')
  // docs/rules.md#responses: "REDIRECT (with `redirect_url`, `redirect_params`, `redirect_method`)".
  it.each(['redirect_url', 'redirect_params', 'redirect_method'])('a REDIRECT answer needs %s', (field) => {
    refusedOnlyAt(SALE, withField(redirect, field, undefined), field)
    refusedOnlyAt('s2s-card/sale-response-v2', withField(redirectV2, field, undefined), field)
  })
  // docs/rules.md#responses: "`POST {base_url}/v2/post` answers `redirect_params` as an array of `{name, value}`."
  it('/post answers redirect_params as an object, /v2/post as an array of {name, value}', () => {
    valid(SALE, redirect)
    valid('s2s-card/sale-response-v2', redirectV2)
    refusedOnlyAt(SALE, withField(redirect, 'redirect_params', redirectV2.redirect_params), 'redirect_params')
    refusedOnlyAt(
      's2s-card/sale-response-v2',
      withField(redirectV2, 'redirect_params', redirect.redirect_params),
      'redirect_params',
    )
  })
  it('/v2/post redirect_params items are exactly {name, value}', () => {
    const schema = 's2s-card/sale-response-v2'
    refusedOnlyAt(
      schema,
      withField(redirectV2, 'redirect_params', [{ name: 'MD' }]),
      'redirect_params[0][value]',
    )
    refusedOnlyAt(
      schema,
      withField(redirectV2, 'redirect_params', [{ name: 'MD', value: 1 }]),
      'redirect_params[0][value]',
    )
    refusedOnlyAt(
      schema,
      withField(redirectV2, 'redirect_params', [{ name: 'MD', value: 'x', key: 'y' }]),
      'redirect_params[0][key]',
    )
  })
  it('refuses a redirect_method other than GET or POST', () => {
    refusedOnlyAt(SALE, withField(redirect, 'redirect_method', 'PUT'), 'redirect_method')
  })
})

describe('S2S CARD CREDITVOID, status and schedule answers', () => {
  // Events: "CREDITVOID callbacks ... always carry `creditvoid_id`, the id of the refund or reversal transaction;
  // `trans_id` stays the original payment id." docs/rules.md#responses: "ACCEPTED (CREDITVOID)".
  it('an ACCEPTED CREDITVOID answer carries creditvoid_id and trans_id', () => {
    const accepted = fixture('creditvoid-response.accepted')
    valid('s2s-card/creditvoid-response', accepted)
    refusedOnlyAt(
      's2s-card/creditvoid-response',
      withField(accepted, 'creditvoid_id', undefined),
      'creditvoid_id',
    )
    refusedOnlyAt('s2s-card/creditvoid-response', withField(accepted, 'trans_id', undefined), 'trans_id')
  })
  // Endpoints: "Status responses can include ... `card` (masked number) and `card_expiration_date` (`MM/YYYY`)".
  it('checks the masked card and the MM/YYYY expiry of a status answer', () => {
    const status = fixture('get-trans-status-response.success')
    refusedOnlyAt('s2s-card/get-trans-status-response', withField(status, 'card', '4111111111111111'), 'card')
    refusedOnlyAt(
      's2s-card/get-trans-status-response',
      withField(status, 'card_expiration_date', '01/39'),
      'card_expiration_date',
    )
    refusedOnlyAt(
      's2s-card/get-trans-status-response',
      withField(status, 'card_expiration_date', '2039-01'),
      'card_expiration_date',
    )
  })
  // docs/rules.md#schedules: "`SCHEDULE_INFO` answers the schedule's fields, its state (running, paused) and `delays: null`."
  it('SCHEDULE_INFO answers its state running or paused', () => {
    const info = fixture('schedule-info-response.success')
    valid('s2s-card/schedule-info-response', withField(info, 'state', 'paused'))
    refusedOnlyAt('s2s-card/schedule-info-response', withField(info, 'state', 'PAUSED'), 'state')
    refusedOnlyAt('s2s-card/schedule-info-response', withField(info, 'state', undefined), 'state')
  })
  // docs/rules.md#schedules: "CREATE_SCHEDULE ... answers `schedule_id`".
  it('CREATE_SCHEDULE answers schedule_id', () => {
    const created = fixture('create-schedule-response.success')
    refusedOnlyAt(
      's2s-card/create-schedule-response',
      withField(created, 'schedule_id', undefined),
      'schedule_id',
    )
    refusedOnlyAt(
      's2s-card/create-schedule-response',
      withField(created, 'action', 'UPDATE_SCHEDULE'),
      'action',
    )
  })
})
