import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { SandboxConfig, SandboxMerchant } from '../../src/core/engine/context.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { checkoutSignatures, s2sCardSignatures } from '../../src/core/signatures/index.js'
import { DEMO, hpfSession, pay } from '../checkout/session-helpers.js'
import { createTestGateway } from '../helpers/engine.js'
import { s2s, scheduleConfig, schedulesGateway } from '../schedules/helpers.js'

/**
 * docs/rules.md#releases: "With `6.6.5` the sandbox applies the rules the interface's 6.7.0 row changed:
 * `delays` accepted on schedules, ..., the S2S CARD payer address fields required, and SMS as the
 * default payment mode". The same requests, a 6.7.0 (default) merchant against a 6.6.5 one.
 */
function configFor(release: '6.6.5' | '6.7.0'): SandboxConfig {
  const base = scheduleConfig()
  const [demo, other] = base.merchants as [SandboxMerchant, SandboxMerchant]
  // One MID without a payment mode: the release decides what it serves.
  const mids = [{ id: 'only-mid' }] as SandboxMerchant['mids']
  return { ...base, merchants: [{ ...demo, release, mids }, other] }
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex')
const rev = (text: string) => [...text].reverse().join('')
const EMAIL = 'doe@example.com'

function sale(extra: Record<string, string> = {}, address = true): Record<string, string> {
  return {
    action: 'SALE',
    client_key: DEMO.key,
    order_id: 'r-1',
    order_amount: '10.00',
    order_currency: 'USD',
    order_description: 'Release',
    card_number: '4111111111111111',
    card_exp_month: '01',
    card_exp_year: '2039',
    card_cvv2: '123',
    payer_first_name: 'John',
    payer_last_name: 'Doe',
    payer_phone: '2125550100',
    payer_email: EMAIL,
    payer_ip: '203.0.113.10',
    term_url_3ds: 'https://merchant.example.com/3ds',
    ...(address
      ? { payer_address: '1 Main St', payer_country: 'US', payer_city: 'New York', payer_zip: '10001' }
      : {}),
    ...extra,
  }
}

// docs/rules.md#signatures Formula 1 (rev(payer_email) + password + rev(first6 + last4)), with node:crypto.
const formula1 = md5(`${rev(EMAIL)}${DEMO.password}${rev('4111111111')}`.toUpperCase())

describe('S2S CARD for a merchant pinned to release 6.6.5 (docs/rules.md#warnings-and-releases)', () => {
  it('accepts `delays` on CREATE_SCHEDULE, which 6.7.0 refuses with "Parameter is deprecated."', async () => {
    const body = {
      action: 'CREATE_SCHEDULE',
      client_key: DEMO.key,
      name: 'Plan',
      interval_length: '1',
      interval_unit: 'month',
      payments_count: '12',
      delays: '3',
      hash: s2sCardSignatures.createSchedule(DEMO.password),
    }
    const current = await s2s(schedulesGateway(configFor('6.7.0')), body)
    expect(current.body).toMatchObject({ result: 'ERROR', error_message: 'Parameter is deprecated.' })
    const legacy = await s2s(schedulesGateway(configFor('6.6.5')), body)
    expect(legacy.body).toMatchObject({ result: 'SUCCESS' })
  })

  it('requires the payer address fields, which 6.7.0 made optional', async () => {
    const body = { ...sale({}, false), hash: formula1 }
    const current = await s2s(schedulesGateway(configFor('6.7.0')), body)
    expect(current.body.result).toBe('SUCCESS')
    const legacy = await s2s(schedulesGateway(configFor('6.6.5')), body)
    expect(legacy.status).toBe(400)
    const messages = (legacy.body.errors as { error_message: string }[]).map((e) => e.error_message)
    for (const field of ['payer_address', 'payer_country', 'payer_city', 'payer_zip'])
      expect(messages).toContain(`${field}: This value should not be blank.`)
  })

  it('takes SMS as the payment mode of a MID that names none: an authorization finds no MID', async () => {
    const body = { ...sale({ auth: 'Y' }), hash: formula1 }
    const current = await s2s(schedulesGateway(configFor('6.7.0')), body)
    expect(current.body).toMatchObject({ result: 'SUCCESS', status: 'PENDING' })
    const legacy = await s2s(schedulesGateway(configFor('6.6.5')), body)
    expect(legacy.status).toBe(400)
    // docs/rules.md#business-codes: the platform's 204002 row on S2S.
    expect(legacy.body.errors).toEqual([
      { error_code: 204002, error_message: 'Enabled merchant mappings or MIDs not found.' },
    ])
    // A sale is served by the SMS MID in both releases.
    const sms = await s2s(schedulesGateway(configFor('6.6.5')), { ...sale(), hash: formula1 })
    expect(sms.body).toMatchObject({ result: 'SUCCESS', status: 'SETTLED' })
  })
})

describe('Checkout follow-ups for a merchant pinned to release 6.6.5 (docs/rules.md#warnings-and-releases)', () => {
  // Versioning, 6.7.0 additions: "`parameters` on capture/void/refund", "`custom_data` on secondary requests".
  it('refuses `parameters` on a refund, which 6.7.0 added, and takes the same refund without it', async () => {
    for (const release of ['6.7.0', '6.6.5'] as const) {
      const t = createTestGateway(DEFAULT_MODULES, configFor(release))
      const paid = await pay(t, await hpfSession(t))
      const id = paid.body.payment_id as string
      const refund = (extra: Record<string, unknown>) =>
        t.call('POST', '/api/v1/payment/refund', {
          merchant_key: DEMO.key,
          payment_id: id,
          amount: '1.00',
          hash: checkoutSignatures.amountOperation(id, '1.00', DEMO.password),
          ...extra,
        })
      const withParameters = await refund({ parameters: { card: { descriptor: 'SHOP' } } })
      if (release === '6.7.0') expect(withParameters.status).toBe(200)
      else {
        expect(withParameters.status).toBe(400)
        expect(withParameters.body.errors).toEqual([
          { error_code: 100000, error_message: 'parameters: This field was not expected.' },
        ])
        expect(t.store.get('payments', id)?.amount_refunded).toBe('0.00')
        expect((await refund({})).status).toBe(200)
      }
    }
  })
})
