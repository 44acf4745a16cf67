import { describe, expect, it } from 'vitest'
import { validate } from '../../src/core/validation/index.js'
import {
  callbacksOf,
  fixture,
  followUp,
  KEY,
  MOTO_MID,
  saleForm,
  saleHash,
  setup,
  snapshot,
} from './helpers.js'

const MPI = fixture('sale-request.mpi-data').mpi_data as Record<string, string>

describe('MOTO (2.5)', () => {
  // 2.5: "For a MOTO value: the card security code is optional; the platform does not start the
  // configured MPI service; the payment is routed only to MIDs with MOTO enabled, otherwise error 204025."
  it('refuses a MOTO sale when no MID has MOTO enabled: 204025, nothing stored', async () => {
    const t = setup()
    const before = snapshot(t)
    const r = await t.post(saleForm({ moto_type: 'phone_moto', card_cvv2: undefined }))
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ result: 'ERROR', error_code: 204025 })
    expect(snapshot(t)).toBe(before)
  })

  it('routes to the MOTO-enabled MID, without the security code, and echoes moto_type everywhere', async () => {
    const t = setup({ mids: [{ id: 'plain', payment_mode: 'SMS/DMS' }, MOTO_MID] })
    const r = await t.post(saleForm({ moto_type: 'email_moto', card_cvv2: undefined }))
    expect(r.body).toMatchObject({ result: 'SUCCESS', status: 'SETTLED', moto_type: 'email_moto' })
    expect(validate('s2s-card/sale-response', r.body).valid).toBe(true)
    const id = r.body.trans_id as string
    expect(t.payment(id).mid_id).toBe('moto-mid')
    // 2.5: "`moto_type` is returned in the SALE response, the callback and the status response."
    expect(callbacksOf(t, id)[0]?.moto_type).toBe('email_moto')
    expect((await t.post(followUp('GET_TRANS_STATUS', id))).body.moto_type).toBe('email_moto')
  })

  // 2.5: "`moto_type` ... is accepted on S2S CARD SALE (also with `auth=Y`)"
  it('holds a MOTO authorization with auth=Y', async () => {
    const t = setup({ mids: [MOTO_MID] })
    const r = await t.post(saleForm({ moto_type: 'default_moto', auth: 'Y', card_cvv2: undefined }))
    expect(r.body).toMatchObject({ status: 'PENDING', moto_type: 'default_moto' })
  })

  // docs/engine.md: "A MOTO payment skips 3DS: 05 approves and 06 declines at once"
  it.each([
    ['05', 'SETTLED'],
    ['06', 'DECLINED'],
  ])('skips 3DS: month %s answers %s at once', async (month, status) => {
    const t = setup({ mids: [MOTO_MID] })
    const r = await t.post(saleForm({ moto_type: 'phone_moto', card_exp_month: month }))
    expect(r.body.status).toBe(status)
  })

  it('still asks for the security code on an ecommerce sale', async () => {
    const t = setup()
    const r = await t.post(saleForm({ moto_type: 'ecommerce', card_cvv2: undefined }))
    expect(r.body).toMatchObject({ error_message: 'Request data is invalid.' })
    expect(r.body.errors).toContainEqual({
      error_code: 100000,
      error_message: 'card_cvv2: This value should not be blank.',
    })
  })
})

describe('mpi_data (2.4)', () => {
  // 2.4: "When present, the platform does not start its own MPI service for that payment"
  it('settles a 3DS test card (month 05) at once, keeping the given 3DS values but not the cryptogram', async () => {
    const t = setup()
    const r = await t.post(saleForm({ card_exp_month: '05', mpi_data: MPI }))
    expect(r.body).toMatchObject({ result: 'SUCCESS', status: 'SETTLED' })
    const stored = t.payment(r.body.trans_id)
    expect(stored.three_ds?.attributes).toMatchObject({
      eci: '05',
      ds_trans_id: MPI.ds_trans_id,
      '3ds_version': '2.2.0',
    })
    expect(JSON.stringify(stored)).not.toContain(MPI.authentication_value)
  })

  it('declines month 06 with its own outcome, with no 3DS step', async () => {
    const t = setup()
    const r = await t.post(saleForm({ card_exp_month: '06', mpi_data: MPI }))
    expect(r.body).toMatchObject({ result: 'DECLINED', status: 'DECLINED' })
  })

  // 2.4: "the payment is not declined because of `trans_status` values N, U or R"
  it.each(['N', 'U', 'R'])('does not decline for trans_status %s', async (status) => {
    const t = setup()
    const r = await t.post(saleForm({ mpi_data: { ...MPI, trans_status: status } }))
    expect(r.body).toMatchObject({ result: 'SUCCESS', status: 'SETTLED' })
  })

  // 2.4: "Optional object on `action=SALE` ... ignored when `auth=Y`"
  it('is ignored with auth=Y: month 05 still goes through 3DS', async () => {
    const t = setup()
    const r = await t.post(saleForm({ card_exp_month: '05', auth: 'Y', mpi_data: MPI }))
    expect(r.body).toMatchObject({ result: 'REDIRECT', status: '3DS' })
    expect(t.payment(r.body.trans_id).three_ds?.attributes).toEqual({})
  })

  // 2.4: "| mpi_data[eci] | yes | exactly 2 characters |" ... "| mpi_data[3ds_version] | yes | X.Y.Z |"
  it.each([
    ['eci', '5', 'mpi_data[eci]: This value should have exactly 2 characters.'],
    ['authentication_value', 'short', 'mpi_data[authentication_value]: '],
    ['ds_trans_id', 'not-a-uuid', 'mpi_data[ds_trans_id]: This is not a valid UUID.'],
    [
      '3ds_version',
      '2.1',
      'mpi_data[3ds_version]: This value is not valid. Use the X.Y.Z form, for example 2.2.0.',
    ],
    ['trans_status', 'y', 'mpi_data[trans_status]: This value is not valid. Use one uppercase letter.'],
    ['xid', 'x'.repeat(65), 'mpi_data[xid]: '],
  ])(
    'validates the format of mpi_data[%s], in bracket notation, and stores nothing',
    async (field, value, message) => {
      const t = setup()
      const before = snapshot(t)
      const r = await t.post(saleForm({ mpi_data: { ...MPI, [field]: value } }))
      expect(r.status).toBe(400)
      const messages = (r.body.errors as { error_message: string }[]).map((e) => e.error_message)
      expect(messages.some((m) => m.startsWith(message))).toBe(true)
      expect(snapshot(t)).toBe(before)
    },
  )

  it('requires the four mandatory mpi_data fields', async () => {
    const t = setup()
    const r = await t.post(saleForm({ mpi_data: { trans_status: 'Y' } }))
    const messages = (r.body.errors as { error_message: string }[]).map((e) => e.error_message.split(':')[0])
    expect(messages).toEqual(
      expect.arrayContaining([
        'mpi_data[eci]',
        'mpi_data[authentication_value]',
        'mpi_data[ds_trans_id]',
        'mpi_data[3ds_version]',
      ]),
    )
  })

  // 2.4: "also with `recurring_init=Y`"
  it('is accepted on a recurring initial sale, which gets its recurring_token', async () => {
    const t = setup()
    const r = await t.post(
      saleForm({ recurring_init: 'Y', mpi_data: MPI, client_key: KEY, hash: saleHash() }),
    )
    expect(r.body).toMatchObject({ status: 'SETTLED', recurring_token: expect.any(String) })
  })
})
