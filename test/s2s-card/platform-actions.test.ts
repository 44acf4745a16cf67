import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { s2sCardSignatures } from '../../src/core/signatures/index.js'
import { validate } from '../../src/core/validation/index.js'
import {
  CARD,
  callbacksOf,
  EMAIL,
  fixture,
  followUp,
  KEY,
  PASSWORD,
  paid,
  type S2sGateway,
  saleForm,
  saleHash,
  setup,
  snapshot,
  transHash,
} from './helpers.js'
import {
  chainOf,
  createSchedule,
  s2sInitial,
  scheduleAction,
  schedulesGateway,
} from '../schedules/helpers.js'

/** Known answers computed here with node:crypto, not the project's helpers (docs/rules.md#signatures). */
const md5 = (s: string) => createHash('md5').update(s).digest('hex')
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')
const rev = (s: string) => [...s].reverse().join('')
const upper = (s: string) => s.replace(/[a-z]/g, (c) => c.toUpperCase())

const RECIPIENT = '4601541833776519'
const errorItems = (body: Record<string, unknown>) =>
  (body.errors as { error_code: number; error_message: string }[] | undefined) ?? []

/** A CREDIT2CARD to the test recipient, signed with Formula 5 computed independently. */
function credit(overrides: Record<string, unknown> = {}) {
  const body: Record<string, unknown> = {
    ...fixture('credit2card-request.basic'),
    client_key: KEY,
    ...overrides,
  }
  const card = String(body.card_number ?? '')
  const hash = md5(upper(PASSWORD + rev(card.slice(0, 6) + card.slice(-4))))
  return { ...body, hash: 'hash' in overrides ? overrides.hash : hash }
}

describe('CREDIT2CARD (docs/rules.md#beyond-the-interface; Formula 5 and 6 of docs/rules.md#signatures)', () => {
  // docs/rules.md#test-cards: "Card `4601541833776519` succeeds as a CREDIT2CARD or CARD2CARD recipient."
  it('credits the test card: SETTLED, a CREDIT2CARD callback signed with Formula 6', async () => {
    const t = setup()
    const r = await t.post(credit())
    expect(r.body).toMatchObject({
      action: 'CREDIT2CARD',
      result: 'SUCCESS',
      status: 'SETTLED',
      order_id: 'ORDER-1401',
      amount: '40.00',
      currency: 'EUR',
    })
    expect(validate('s2s-card/credit2card-response', r.body).errors).toEqual([])
    const id = r.body.trans_id as string
    expect(t.payment(id)).toMatchObject({ operation: 'credit', action: 'CREDIT2CARD' })
    expect(JSON.stringify(t.store.list('payments'))).not.toContain(RECIPIENT)
    const [callback] = callbacksOf(t, id)
    expect(callback).toMatchObject({ action: 'CREDIT2CARD', result: 'SUCCESS', status: 'SETTLED' })
    expect(callback?.hash).toBe(md5(upper(`${PASSWORD}${id}${rev('460154' + '6519')}`)))
    // GET_TRANS_STATUS of a CREDIT2CARD: Formula 6 (S2S CARD 5.6.2), Formula 2 refused
    const formula6 = md5(upper(`${PASSWORD}${id}9156451064`))
    const status = await t.post({ action: 'GET_TRANS_STATUS', client_key: KEY, trans_id: id, hash: formula6 })
    expect(status.body).toMatchObject({ action: 'GET_TRANS_STATUS', result: 'SUCCESS', status: 'SETTLED' })
    const formula2 = await t.post(followUp('GET_TRANS_STATUS', id, { hash: transHash(id, EMAIL, RECIPIENT) }))
    expect(formula2.body.error_message).toBe('Hash is not valid.')
    // a payout cannot be refunded
    const refund = await t.post(followUp('CREDITVOID', id, { hash: formula6 }))
    expect(refund.body.error_message).toBe('Refund is not allowed.')
  })

  it('takes a saved card_token, signed over the token', async () => {
    const t = setup()
    const token = (await paid(t, { req_token: 'Y' })).card_token as string
    const body = credit({ card_number: undefined, card_token: token, order_id: 'O-T' })
    const r = await t.post({ ...body, hash: md5(upper(PASSWORD + rev(token))) })
    expect(r.body).toMatchObject({ action: 'CREDIT2CARD', result: 'SUCCESS', card_token: token })
  })

  // docs/rules.md#declined-payout (sandbox): 4601541833776527 is declined as a payout recipient,
  // in the answer and by a DECLINED callback signed with Formula 6; as a payer's card it pays.
  it('declines the declining test recipient, by number and by the token of a card saved from it', async () => {
    const t = setup()
    const declined = '4601541833776527'
    const r = await t.post(credit({ card_number: declined, order_id: 'O-D' }))
    expect(r.body).toMatchObject({
      action: 'CREDIT2CARD',
      result: 'DECLINED',
      status: 'DECLINED',
      decline_reason: 'Declined by processing.',
    })
    const id = r.body.trans_id as string
    expect(callbacksOf(t, id)).toEqual([
      expect.objectContaining({
        action: 'CREDIT2CARD',
        result: 'DECLINED',
        status: 'DECLINED',
        hash: md5(upper(`${PASSWORD}${id}${rev(`460154${'6527'}`)}`)),
      }),
    ])
    const saved = await paid(t, { card_number: declined, req_token: 'Y', hash: saleHash(EMAIL, declined) })
    expect(saved).toMatchObject({ result: 'SUCCESS', status: 'SETTLED' })
    const token = saved.card_token as string
    const byToken = credit({ card_number: undefined, card_token: token, order_id: 'O-DT' })
    const answer = await t.post({ ...byToken, hash: md5(upper(PASSWORD + rev(token))) })
    expect(answer.body).toMatchObject({ result: 'DECLINED', decline_reason: 'Declined by processing.' })
  })

  it('declines a brand the acquirer refuses; refuses a bad hash, a bad number and an unknown token, storing nothing', async () => {
    const t = setup()
    const brand = await t.post(credit({ card_number: '1111222233334444' }))
    expect(brand.body).toMatchObject({
      result: 'DECLINED',
      decline_reason: 'Brand of card does not support.',
    })
    const before = snapshot(t)
    expect((await t.post(credit({ hash: saleHash() }))).body.error_message).toBe('Hash is not valid.')
    expect(errorItems((await t.post(credit({ card_number: '4601541833776518' }))).body)).toEqual([
      { error_code: 100000, error_message: 'payee_card_number: This value is not a valid card number.' },
    ])
    const unknown = credit({ card_number: undefined, card_token: 'f'.repeat(64) })
    const r = await t.post({ ...unknown, hash: md5(upper(PASSWORD + 'f'.repeat(64))) })
    expect(errorItems(r.body)).toEqual([
      { error_code: 205005, error_message: 'card_token: Card token is invalid or not found.' },
    ])
    expect(snapshot(t)).toBe(before)
  })
})

describe('GET_TRANS_DETAILS (docs/rules.md#beyond-the-interface)', () => {
  // S2S CARD 5.6.2: "adds `name`, `mail`, `ip`, `amount`, `currency`, `card`, `pan_type`, `transactions[]` with
  // date, type (sale, 3ds, auth, capture, credit, chargeback, reversal, refund), status (success, waiting, fail), amount".
  it('answers the payment with its transactions, signed with Formula 2', async () => {
    const t = setup()
    const { trans_id } = await paid(t, { auth: 'Y' })
    await t.post(followUp('CAPTURE', trans_id, { amount: '4.00' }))
    await t.post(followUp('CREDITVOID', trans_id, { amount: '1.00' }))
    const r = await t.post(followUp('GET_TRANS_DETAILS', trans_id))
    expect(r.body).toMatchObject({
      action: 'GET_TRANS_DETAILS',
      result: 'SUCCESS',
      trans_id,
      mail: EMAIL,
      card: '411111******1111',
      currency: 'USD',
    })
    expect(
      (r.body.transactions as { type: string; status: string; amount: string }[]).map((x) => [
        x.type,
        x.status,
        x.amount,
      ]),
    ).toEqual([
      ['auth', 'success', '10.00'],
      ['capture', 'success', '4.00'],
      ['refund', 'success', '1.00'],
    ])
    expect(validate('s2s-card/get-trans-details-response', r.body).errors).toEqual([])
    const wrong = await t.post(followUp('GET_TRANS_DETAILS', trans_id, { hash: 'a'.repeat(32) }))
    expect(wrong.body.error_message).toBe('Hash is not valid.')
  })

  // Errors rule: "Transaction and order entities return 101000"
  it('answers an unknown trans_id with 101000 "Transaction does not exist."', async () => {
    const t = setup()
    const r = await t.post(followUp('GET_TRANS_DETAILS', 'nope'))
    expect(r.body).toEqual({
      result: 'ERROR',
      http_code: 400,
      error_code: 101000,
      error_message: 'Transaction does not exist.',
    })
  })
})

async function chain(t: S2sGateway) {
  return paid(t, { recurring_init: 'Y' })
}
const recurring = (initial: { trans_id: string; recurring_token?: unknown }, amount: string) => ({
  action: 'RECURRING_SALE',
  client_key: KEY,
  order_id: `R-${amount}`,
  order_amount: amount,
  order_description: 'Monthly',
  recurring_first_trans_id: initial.trans_id,
  recurring_token: initial.recurring_token,
  hash: saleHash(),
})

describe('RETRY (docs/rules.md#beyond-the-interface; soft decline of docs/rules.md#test-data)', () => {
  // docs/rules.md#recurring-test-amounts: "A soft decline for RETRY: a recurring payment whose amount ends in `.51` is softly declined";
  // §2: "ACCEPTED for CREDITVOID and RETRY"; §1 Formula 1 for RETRY.
  it('retries a softly declined recurring payment: ACCEPTED, then SETTLED with a RECURRING_SALE callback', async () => {
    const t = setup()
    const initial = await chain(t)
    const soft = await t.post(recurring(initial, '5.51'))
    expect(soft.body).toMatchObject({ result: 'DECLINED', status: 'DECLINED' })
    const id = soft.body.trans_id as string
    const retry = { action: 'RETRY', client_key: KEY, trans_id: id }
    const formula1 = md5(upper(`${rev(EMAIL)}${PASSWORD}1111111114`))
    expect((await t.post({ ...retry, hash: transHash(id) })).body.error_message).toBe('Hash is not valid.')
    const r = await t.post({ ...retry, hash: formula1 })
    expect(r.body).toEqual({ action: 'RETRY', result: 'ACCEPTED', order_id: 'R-5.51', trans_id: id })
    expect(validate('s2s-card/retry-response', r.body).errors).toEqual([])
    expect(t.payment(id).status).toBe('settled')
    const last = callbacksOf(t, id).at(-1)
    expect(last).toMatchObject({ action: 'RECURRING_SALE', result: 'SUCCESS', status: 'SETTLED' })
    // once retried it is no longer a soft decline
    expect((await t.post({ ...retry, hash: formula1 })).body.error_message).toBe('Retry is not allowed.')
  })

  it('refuses a payment that is not softly declined, and an unknown one, changing nothing', async () => {
    const t = setup()
    const initial = await chain(t)
    const settled = await t.post(recurring(initial, '5.00'))
    const before = snapshot(t)
    const hash = saleHash()
    const r = await t.post({ action: 'RETRY', client_key: KEY, trans_id: settled.body.trans_id, hash })
    expect(r.body).toEqual({
      result: 'ERROR',
      http_code: 400,
      error_code: 100000,
      error_message: 'Retry is not allowed.',
    })
    const unknown = await t.post({ action: 'RETRY', client_key: KEY, trans_id: 'nope', hash })
    expect(unknown.body).toMatchObject({ error_code: 100000, error_message: 'Payment not found.' })
    expect(snapshot(t)).toBe(before)
  })
})

describe('schedule actions under the platform names (docs/rules.md#beyond-the-interface)', () => {
  const create = (extra: Record<string, unknown>) => ({
    action: 'CREATE_SCHEDULE',
    client_key: KEY,
    name: 'Monthly',
    interval_length: '1',
    interval_unit: 'month',
    hash: md5(upper(rev(PASSWORD))),
    ...extra,
  })
  const formula4 = (id: string) => md5(upper(rev(id + PASSWORD)))

  it('CREATE_SCHEDULE requires payments_count and refuses week; day_of_month is kept', async () => {
    const t = setup()
    const missing = await t.post(create({}))
    expect(errorItems(missing.body)).toEqual([
      { error_code: 100000, error_message: 'payments_count: This value should not be blank.' },
    ])
    const week = await t.post(create({ payments_count: '3', interval_unit: 'week' }))
    expect(errorItems(week.body)[0]?.error_message).toMatch(
      /^interval_unit: The value you selected is not a valid choice/,
    )
    const ok = await t.post(create({ payments_count: '3', day_of_month: '15' }))
    expect(ok.body).toMatchObject({ action: 'CREATE_SCHEDULE', result: 'SUCCESS' })
    const id = ok.body.schedule_id as string
    const info = await t.post({
      action: 'SCHEDULE_INFO',
      client_key: KEY,
      schedule_id: id,
      hash: formula4(id),
    })
    expect(info.body).toMatchObject({ payments_count: '3', day_of_month: '15', paused: 'N', delays: null })
  })

  // docs/rules.md#schedules: "schedule actions also under the platform's names `PAUSE_SCHEDULE`, `RUN_SCHEDULE`";
  // "`SCHEDULE_INFO` answers `paused` (`Y`/`N`)".
  it('PAUSE_SCHEDULE and RUN_SCHEDULE answer as sent and SCHEDULE_INFO reports paused Y/N', async () => {
    const t = setup()
    const id = (await t.post(create({ payments_count: '12' }))).body.schedule_id as string
    const act = (action: string) => t.post({ action, client_key: KEY, schedule_id: id, hash: formula4(id) })
    expect((await act('PAUSE_SCHEDULE')).body).toEqual({
      action: 'PAUSE_SCHEDULE',
      result: 'SUCCESS',
      schedule_id: id,
    })
    expect((await act('SCHEDULE_INFO')).body).toMatchObject({ state: 'paused', paused: 'Y' })
    expect((await act('RUN_SCHEDULE')).body).toEqual({
      action: 'RUN_SCHEDULE',
      result: 'SUCCESS',
      schedule_id: id,
    })
    expect((await act('SCHEDULE_INFO')).body).toMatchObject({ state: 'running', paused: 'N' })
    expect((await act('PAUSE')).body).toMatchObject({ action: 'PAUSE', result: 'SUCCESS' })
    expect(validate('s2s-card/schedule-info-response', (await act('SCHEDULE_INFO')).body).errors).toEqual([])
  })

  // docs/rules.md#schedules: "`DESCHEDULE` takes `recurring_token`" (S2S CARD 5.6.2: "needs `recurring_token` + `schedule_id`").
  it('DESCHEDULE finds the chain by recurring_token alone', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { interval_length: '1', interval_unit: 'month' })
    const initial = await s2sInitial(t, id)
    const token = initial.recurring?.token as string
    expect(chainOf(t, initial.id)?.state).toBe('active')
    const wrong = await scheduleAction(t, 'DESCHEDULE', id, { recurring_token: 'wrong' })
    expect(wrong.body.error_message).toBe('Incorrect transaction')
    const r = await scheduleAction(t, 'DESCHEDULE', id, { recurring_token: token })
    expect(r.body).toEqual({ action: 'DESCHEDULE', result: 'SUCCESS', schedule_id: id })
    expect(chainOf(t, initial.id)?.state).not.toBe('active')
  })
})

describe('DEBIT payer fields and callback_url (docs/rules.md#signatures and docs/rules.md#callbacks)', () => {
  // S2S CARD 5.6.2: "DEBIT: card data required, payer fields optional"; §1: payer_email drops out of Formula 1.
  it('takes a DEBIT without payer_first_name, payer_last_name, payer_email, payer_phone', async () => {
    const t = setup()
    const { payer_first_name, payer_last_name, payer_email, payer_phone, ...rest } = saleForm({
      action: 'DEBIT',
    })
    void [payer_first_name, payer_last_name, payer_email, payer_phone]
    const hash = md5(upper(`${PASSWORD}1111111114`))
    const r = await t.post({ ...rest, hash })
    expect(r.body).toMatchObject({ action: 'DEBIT', result: 'SUCCESS' })
  })

  // docs/rules.md#callback-destination: "`callback_url` ... at most 255 characters, a bad URL is a 400, and it replaces the
  // notification URL for every later callback of that payment".
  it('sends every later callback of the payment to callback_url; refuses one above 255 characters or not a URL', async () => {
    const t = setup()
    const url = 'https://merchant.example.com/cb/order-1'
    const { trans_id } = await paid(t, { auth: 'Y', callback_url: url })
    await t.post(followUp('CAPTURE', trans_id))
    await t.post(followUp('CREDITVOID', trans_id, { amount: '1.00' }))
    const deliveries = t.store.findBy('deliveries', 'payment_id', trans_id)
    expect(deliveries.map((d) => d.url)).toEqual([url, url, url])
    const before = snapshot(t)
    const long = `https://merchant.example.com/${'a'.repeat(227)}`
    expect(long).toHaveLength(256)
    const tooLong = await t.post(saleForm({ callback_url: long, order_id: 'O-long' }))
    expect(tooLong.status).toBe(400)
    expect(errorItems(tooLong.body)[0]?.error_message).toMatch(/^callback_url: /)
    const bad = await t.post(saleForm({ callback_url: 'not a url', order_id: 'O-bad' }))
    expect(bad.status).toBe(400)
    expect(errorItems(bad.body)[0]?.error_message).toMatch(/^callback_url: /)
    expect(snapshot(t)).toBe(before)
    const exact = await t.post(saleForm({ callback_url: long.slice(0, 255), order_id: 'O-255' }))
    expect(exact.body).toMatchObject({ result: 'SUCCESS' })
  })
})

describe('SHA256 mode per merchant (docs/rules.md#signatures)', () => {
  it('a merchant whose Protocol Mapping enables it signs requests and callbacks with sha256', async () => {
    const t = setup({ mapping: { use_sha256: true } })
    const md5Hash = saleHash()
    expect((await t.post(saleForm({ hash: md5Hash }))).body.error_message).toBe('Hash is not valid.')
    const hash = sha256(upper(`${rev(EMAIL)}${PASSWORD}1111111114`))
    const r = await t.post(saleForm({ hash }))
    expect(r.body).toMatchObject({ result: 'SUCCESS' })
    const id = r.body.trans_id as string
    expect(callbacksOf(t, id)[0]?.hash).toBe(sha256(upper(`${rev(EMAIL)}${PASSWORD}${id}1111111114`)))
    expect(s2sCardSignatures.payment(EMAIL, { password: PASSWORD, sha256: true }, { cardNumber: CARD })).toBe(
      hash,
    )
  })
})

describe('SALE with a device wallet token (2.2.3; docs/rules.md#signatures Formula 8)', () => {
  // 2.2.3: "the merchant must obtain the wallet payment token and send it in the SALE request";
  // docs/rules.md#s2s-card-formulas: "8 | SALE with `digital_wallet` + `payment_token` | rev(payer_email) + password".
  it('pays without card data, signed with Formula 8, and reports digital_wallet', async () => {
    const t = setup()
    const { card_number, card_exp_month, card_exp_year, card_cvv2, ...noCard } = saleForm()
    void [card_number, card_exp_month, card_exp_year, card_cvv2]
    const wallet = { ...noCard, digital_wallet: 'googlepay', payment_token: '{"signature":"MEQ..."}' }
    const formula8 = md5(upper(`${rev(EMAIL)}${PASSWORD}`))
    expect((await t.post({ ...wallet, hash: saleHash() })).body.error_message).toBe('Hash is not valid.')
    const r = await t.post({ ...wallet, hash: formula8 })
    expect(r.body).toMatchObject({ action: 'SALE', result: 'SUCCESS', status: 'SETTLED' })
    const id = r.body.trans_id as string
    expect(callbacksOf(t, id)[0]).toMatchObject({
      action: 'SALE',
      digital_wallet: 'googlepay',
      pan_type: 'dpan',
    })
    const { digital_wallet: _w, ...tokenOnly } = wallet
    const missing = await t.post({ ...tokenOnly, hash: formula8 })
    expect(errorItems(missing.body)).toEqual([
      { error_code: 100000, error_message: 'digital_wallet: This value should not be blank.' },
    ])
  })
})
