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

describe('S2S CARD RECURRING_SALE and RECURRING_DEBIT (2.3)', () => {
  const cases = [
    ['s2s-card/recurring-sale-request', fixture('recurring-sale-request.basic')],
    ['s2s-card/recurring-debit-request', fixture('recurring-debit-request.basic')],
  ] as const
  // docs/rules.md#s2s-card-actions: "S2S secondary payments take `recurring_first_trans_id` and `recurring_token` (the platform's
  // names); `recurring_init_trans_id` is accepted as an alias."
  it.each(cases)(
    '%s accepts recurring_init_trans_id as the alias of recurring_first_trans_id',
    (schema, body) => {
      const alias = withField(
        withField(body, 'recurring_first_trans_id', undefined),
        'recurring_init_trans_id',
        'T-1',
      )
      valid(schema, alias)
      valid(schema, withField(body, 'recurring_init_trans_id', body.recurring_first_trans_id))
    },
  )
  it.each(cases)('%s requires one of the two initial-transaction names', (schema, body) => {
    const error = refusedOnlyAt(
      schema,
      withField(body, 'recurring_first_trans_id', undefined),
      'recurring_first_trans_id',
      'should not be blank',
    )
    expect(error.section).toBe('2.3')
  })
  // 2.3: "Secondary payments use the recurring request with `recurring_init_trans_id` and `recurring_token`, without
  // card data."
  it.each(cases)('%s requires recurring_token and no card data', (schema, body) => {
    refusedOnlyAt(
      schema,
      withField(body, 'recurring_token', undefined),
      'recurring_token',
      'should not be blank',
    )
    refusedOnlyAt(schema, withField(body, 'recurring_token', ''), 'recurring_token', 'should not be blank')
    expect(body.card_number).toBeUndefined()
    valid(schema, body)
  })
  // 2.1: "custom_data ... Accepted on ... secondary recurring requests".
  it.each(cases)(
    '%s accepts custom_data and requires order_id, order_amount, order_description',
    (schema, body) => {
      valid(schema, withField(body, 'custom_data', { period: '2026-04', plan: { id: '7' } }))
      for (const field of ['order_id', 'order_amount', 'order_description']) {
        refusedOnlyAt(schema, withField(body, field, undefined), field, 'should not be blank')
      }
    },
  )
})

describe('S2S CARD CAPTURE, VOID, CREDITVOID', () => {
  const capture = fixture('capture-request.full')
  // States and transitions: "PENDING | CAPTURE ... with the authorization `trans_id` | ... | settled". Partial capture
  // is not stated: `amount` is optional and the engine decides.
  it('accepts a capture without amount and with a partial amount', () => {
    valid('s2s-card/capture-request', capture)
    valid('s2s-card/capture-request', fixture('capture-request.partial'))
  })
  it('refuses a capture amount that is not a decimal with a dot, and a missing trans_id', () => {
    refusedOnlyAt('s2s-card/capture-request', withField(capture, 'amount', '5,00'), 'amount')
    refusedOnlyAt('s2s-card/capture-request', withField(capture, 'amount', '-5.00'), 'amount')
    refusedOnlyAt(
      's2s-card/capture-request',
      withField(capture, 'trans_id', undefined),
      'trans_id',
      'should not be blank',
    )
  })
  // States and transitions: "SETTLED | CREDITVOID / Checkout refund | Full or partial amount | REFUND".
  it('accepts a creditvoid without amount (full) and with a partial amount', () => {
    valid('s2s-card/creditvoid-request', fixture('creditvoid-request.full'))
    valid('s2s-card/creditvoid-request', fixture('creditvoid-request.partial'))
    refusedOnlyAt(
      's2s-card/creditvoid-request',
      withField(fixture('creditvoid-request.partial'), 'amount', 'all'),
      'amount',
    )
  })
  // 2.7: "The optional `parameters` object ... is accepted on S2S CARD SALE, CAPTURE, VOID, CREDITVOID".
  it.each(['capture', 'void', 'creditvoid'])(
    '%s accepts parameters[key] and refuses a non-object',
    (name) => {
      const body = fixture(`${name}-request.${name === 'void' ? 'basic' : 'full'}`)
      valid(
        `s2s-card/${name}-request`,
        withField(body, 'parameters', { reason: 'customer', extra: { code: '1' } }),
      )
      const error = refusedOnlyAt(
        `s2s-card/${name}-request`,
        withField(body, 'parameters', 'x'),
        'parameters',
      )
      expect(error.section).toBe('2.7')
    },
  )
  // Errors: "S2S CARD VOID or CREDITVOID with unknown `trans_id` | 400 | 100000 | Payment not found." (engine); the
  // schema needs the id itself.
  it.each(['void-request.basic', 'creditvoid-request.full'])(
    '%s requires trans_id, client_key and hash',
    (name) => {
      const schema = `s2s-card/${name.split('.')[0]}`
      for (const field of ['trans_id', 'client_key', 'hash']) {
        refusedOnlyAt(schema, withField(fixture(name), field, undefined), field, 'should not be blank')
      }
    },
  )
})

describe('S2S CARD status lookups', () => {
  // Endpoints: "GET_TRANS_STATUS (by `trans_id`), GET_TRANS_STATUS_BY_ORDER (by `order_id`)".
  it('GET_TRANS_STATUS needs trans_id and GET_TRANS_STATUS_BY_ORDER needs order_id', () => {
    const byId = fixture('get-trans-status-request.basic')
    const byOrder = fixture('get-trans-status-by-order-request.basic')
    refusedOnlyAt('s2s-card/get-trans-status-request', withField(byId, 'trans_id', undefined), 'trans_id')
    refusedOnlyAt(
      's2s-card/get-trans-status-by-order-request',
      withField(byOrder, 'order_id', undefined),
      'order_id',
    )
    refusedOnlyAt(
      's2s-card/get-trans-status-request',
      withField(byId, 'action', 'GET_TRANS_STATUS_BY_ORDER'),
      'action',
    )
  })
})

describe('S2S CARD AUTH, DEBIT and CARD2CARD', () => {
  // Endpoints: S2S CARD actions include "AUTH, DEBIT, CARD2CARD"; 2.1.3: `payer_language` on "S2S CARD: SALE, AUTH,
  // DEBIT, CARD2CARD".
  it.each(['auth-request.basic', 'debit-request.basic', 'card2card-request.basic'])(
    '%s accepts payer_language',
    (name) => {
      valid(`s2s-card/${name.split('.')[0]}`, withField(fixture(name), 'payer_language', 'ja'))
    },
  )
  // 2.6: "S2S CARD SALE and DEBIT accept `payer_present`."
  it('DEBIT accepts payer_present Y/N only', () => {
    const debit = fixture('debit-request.basic')
    valid('s2s-card/debit-request', withField(debit, 'payer_present', 'Y'))
    refusedOnlyAt('s2s-card/debit-request', withField(debit, 'payer_present', 'yes'), 'payer_present')
  })
  // 6.7.0: "S2S CARD payer address fields optional" applies to every payment action.
  it.each(['auth-request.basic', 'debit-request.basic'])('%s accepts no address fields', (name) => {
    let body = fixture(name)
    for (const field of ['payer_address', 'payer_country', 'payer_city', 'payer_zip'])
      body = withField(body, field, undefined)
    valid(`s2s-card/${name.split('.')[0]}`, body)
  })
  // S2S CARD 5.6.2: CARD2CARD "`payer_card_number/exp_month/exp_year/cvv2`, `payee_card_number`, `payer_ip`,
  // `term_url_3ds` required"; docs/rules.md#s2s-card-formulas: Formula 1 over the payer's card.
  const c2c = fixture('card2card-request.basic')
  it.each([
    'payer_card_number',
    'payer_card_exp_month',
    'payer_card_exp_year',
    'payer_card_cvv2',
    'payee_card_number',
    'payer_ip',
    'term_url_3ds',
  ])('CARD2CARD requires %s', (field) => {
    refusedOnlyAt(
      's2s-card/card2card-request',
      withField(c2c, field, undefined),
      field,
      'should not be blank',
    )
  })
  // docs/rules.md#test-cards: "Card `4601541833776519` succeeds as a CARD2CARD recipient."
  it('CARD2CARD checks the recipient card number form', () => {
    valid('s2s-card/card2card-request', c2c)
    expect(c2c.payee_card_number).toBe('4601541833776519')
    refusedOnlyAt(
      's2s-card/card2card-request',
      withField(c2c, 'payee_card_number', '4601-5418'),
      'payee_card_number',
    )
  })
})

describe('S2S CARD DESCHEDULE (2.3)', () => {
  const body = fixture('deschedule-request.basic')
  // 2.3: "Schedule actions (S2S CARD): ... DESCHEDULE"; docs/rules.md#schedules: "`DESCHEDULE` takes `recurring_token`"
  // (S2S CARD 5.6.2: "DESCHEDULE needs `recurring_token` + `schedule_id`"): the initial payment's id is optional.
  it('requires schedule_id and recurring_token; the initial trans id is optional', () => {
    refusedOnlyAt('s2s-card/deschedule-request', withField(body, 'schedule_id', undefined), 'schedule_id')
    refusedOnlyAt(
      's2s-card/deschedule-request',
      withField(body, 'recurring_token', undefined),
      'recurring_token',
    )
    const noFirst = withField(body, 'recurring_first_trans_id', undefined)
    valid('s2s-card/deschedule-request', noFirst)
    valid('s2s-card/deschedule-request', withField(noFirst, 'recurring_init_trans_id', 'T-1'))
  })
})
