import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { serve } from '../../src/adapters/serve.js'
import { createLowdbStore } from '../../src/adapters/index.js'
import { type Collections, STORE_INDEXES } from '../../src/core/engine/model.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import { sessionBody } from '../checkout/session-helpers.js'
import { createTestGateway, type TestGateway } from '../helpers/engine.js'
import { scratchDir } from '../helpers/scratch.js'

/**
 * POST /sandbox/merchants and DELETE /sandbox/merchants/:key (docs/rules.md#control-api: the control API
 * carries "whatever the CLI, the terminal UI and the scenario runner need"; issue 16 point 3: the
 * conformance kit creates the merchants its scenarios need on a running sandbox). Rows:
 * SANDBOX_MERCHANT_EXISTS, SANDBOX_MERCHANT_MID_EXISTS, SANDBOX_MERCHANT_NOT_FOUND,
 * SANDBOX_MERCHANT_CONFIGURED (schemas/catalogue/errors.json).
 */

const KIT = { key: 'kit-merchant-1', password: 'kit-password-0123456789' }
const merchantBody = (overrides: Record<string, unknown> = {}) => ({
  key: KIT.key,
  password: KIT.password,
  name: 'Kit merchant',
  notification_url: 'http://127.0.0.1:4010/callbacks',
  mids: [{ id: 'kit-mid-1', moto: true, zero_amount: true, card_on_file: true }],
  ...overrides,
})
const sandboxError = (http_code: number, error_message: string) => ({
  http_code,
  error_code: 100000,
  error_message,
})

/** Everything a refusal must leave as it was: the merchant list and every collection's size. */
async function state(t: TestGateway) {
  const merchants = (await t.call('GET', '/sandbox/merchants')).body
  const names: (keyof Collections)[] = ['merchants', 'sessions', 'payments', 'meta']
  return { merchants, counts: names.map((n) => t.store.count(n)) }
}

describe('POST /sandbox/merchants', () => {
  it('creates a merchant served at once on the API, with the schema defaults, listed without its password', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    // Before: the key is unknown to the Checkout API.
    const before = await t.call('POST', '/api/v1/session', sessionBody({}, KIT))
    expect(before.status).toBe(400)
    const r = await t.call('POST', '/sandbox/merchants', merchantBody())
    expect(r.status, r.raw).toBe(201)
    expect(r.headers.location).toBe('/sandbox/merchants/kit-merchant-1')
    // config.schema.json defaults: payment_mode SMS/DMS, override_link_target null, Protocol Mapping's own.
    expect(r.body.protocol_mapping).toMatchObject({ use_sha256: false, default_language: null })
    expect({ ...r.body, protocol_mapping: {} }).toEqual({
      key: KIT.key,
      name: 'Kit merchant',
      notification_url: 'http://127.0.0.1:4010/callbacks',
      mids: [
        {
          id: 'kit-mid-1',
          payment_mode: 'SMS/DMS',
          moto: true,
          zero_amount: true,
          card_on_file: true,
          override_link_target: null,
        },
      ],
      protocol_mapping: {},
      wallets: [],
    })
    expect(r.raw).not.toContain('password')
    const list = await t.call('GET', '/sandbox/merchants')
    expect((list.body.merchants as { key: string }[]).map((m) => m.key)).toEqual(['demo-merchant', KIT.key])
    expect(list.raw).not.toContain(KIT.password)
    const session = await t.call('POST', '/api/v1/session', sessionBody({}, KIT))
    expect(session.status, session.raw).toBe(200)
    expect(session.body.redirect_url).toMatch(/\/auth\//)
    // The hash is checked with the created merchant's password (docs/rules.md#signatures).
    const wrong = await t.call(
      'POST',
      '/api/v1/session',
      sessionBody({}, { ...KIT, password: 'not-it-0123456' }),
    )
    expect(wrong.status).toBe(400)
    expect(wrong.raw).toContain('Hash is not valid.')
  })

  it.each([
    ['a key of the configuration', { key: 'demo-merchant' }, 'SANDBOX_MERCHANT_EXISTS'],
    ['a MID id of the configuration', { mids: [{ id: 'demo-mid' }] }, 'SANDBOX_MERCHANT_MID_EXISTS'],
    [
      'the same MID id twice',
      { key: 'k2', mids: [{ id: 'x-1' }, { id: 'x-1' }] },
      'SANDBOX_MERCHANT_MID_EXISTS',
    ],
  ])('refuses %s with a structured 409 and changes nothing', async (_, overrides, row) => {
    const t = createTestGateway(DEFAULT_MODULES)
    const was = await state(t)
    const r = await t.call('POST', '/sandbox/merchants', merchantBody(overrides))
    expect(r.status).toBe(409)
    expect(r.body).toEqual(
      row === 'SANDBOX_MERCHANT_EXISTS'
        ? sandboxError(
            409,
            'The sandbox already has a merchant with this key. Choose another key, or delete that merchant first.',
          )
        : sandboxError(
            409,
            'The sandbox already has a MID with this id. MID ids are unique across merchants: choose another id.',
          ),
    )
    expect(await state(t)).toEqual(was)
  })

  it('refuses a second merchant with the key of a created one (409), keeping the first one working', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    expect((await t.call('POST', '/sandbox/merchants', merchantBody())).status).toBe(201)
    const again = await t.call(
      'POST',
      '/sandbox/merchants',
      merchantBody({ password: 'another-password-0123', mids: [{ id: 'kit-mid-2' }] }),
    )
    expect(again.status).toBe(409)
    expect(again.body.error_message).toMatch(/^The sandbox already has a merchant with this key\./)
    expect((await t.call('POST', '/api/v1/session', sessionBody({}, KIT))).status).toBe(200)
  })

  // docs/rules.md#errors: validation failures answer "Request data is invalid." with one `path: message` item per field.
  it.each([
    [{ password: undefined }, 'password: This value should not be blank.'],
    [{ password: 'short' }, 'password: This value is too short. It should have 8 characters or more.'],
    [
      { key: 'bad key!' },
      'key: This value is not valid. Use 1 to 128 letters, digits, dots, hyphens or underscores.',
    ],
    [{ mids: [] }, 'mids: This collection should contain 1 element or more.'],
    [
      { mids: [{ id: 'm-9', methods: ['no-such-method'] }] },
      'mids[0].methods[0]: "no-such-method" is not a method',
    ],
    [{ admin: true }, 'admin: This field was not expected.'],
  ])('refuses %j with a structured 400 and changes nothing', async (overrides, message) => {
    const t = createTestGateway(DEFAULT_MODULES)
    const was = await state(t)
    const body = merchantBody(overrides)
    for (const [k, v] of Object.entries(overrides))
      if (v === undefined) delete (body as Record<string, unknown>)[k]
    const r = await t.call('POST', '/sandbox/merchants', body)
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({
      http_code: 400,
      error_code: 100000,
      error_message: 'Request data is invalid.',
    })
    expect(
      (r.body.errors as unknown as { error_message: string }[]).map((e) => e.error_message).join('\n'),
    ).toContain(message)
    expect(await state(t)).toEqual(was)
  })

  it('refuses a body that is not JSON and nothing is created', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const r = await t.call('POST', '/sandbox/merchants', 'key=x&password=y')
    expect(r.status).toBeGreaterThanOrEqual(400)
    expect(r.status).toBeLessThan(500)
    expect(t.store.count('merchants')).toBe(0)
  })
})

describe('DELETE /sandbox/merchants/:key', () => {
  it('deletes a created merchant: it is no longer listed nor served; its key can be created again', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    await t.call('POST', '/sandbox/merchants', merchantBody())
    const r = await t.call('DELETE', `/sandbox/merchants/${KIT.key}`)
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ deleted: KIT.key })
    const list = await t.call('GET', '/sandbox/merchants')
    expect((list.body.merchants as { key: string }[]).map((m) => m.key)).toEqual(['demo-merchant'])
    expect((await t.call('POST', '/api/v1/session', sessionBody({}, KIT))).status).toBe(400)
    expect((await t.call('POST', '/sandbox/merchants', merchantBody())).status).toBe(201)
  })

  it('refuses a configured merchant (409) and an unknown key (404), changing nothing', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const was = await state(t)
    const configured = await t.call('DELETE', '/sandbox/merchants/demo-merchant')
    expect(configured.status).toBe(409)
    expect(configured.body).toEqual(
      sandboxError(
        409,
        'This merchant comes from the sandbox configuration and cannot be deleted through the control API. Remove it from the configuration file.',
      ),
    )
    const unknown = await t.call('DELETE', '/sandbox/merchants/nobody')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(sandboxError(404, 'Merchant not found.'))
    expect(await state(t)).toEqual(was)
  })

  it('a reset keeps created merchants (docs/rules.md#control-api: merchants stay)', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    await t.call('POST', '/sandbox/merchants', merchantBody())
    expect((await t.call('POST', '/api/v1/session', sessionBody({}, KIT))).status).toBe(200)
    expect((await t.call('POST', '/sandbox/reset', {})).status).toBe(200)
    expect(t.store.count('sessions')).toBe(0)
    expect((await t.call('POST', '/api/v1/session', sessionBody({}, KIT))).status).toBe(200)
  })
})

describe('created merchants over HTTP: control guard and persistence', () => {
  const TOKEN = 'merchants-control-token-0123456789'
  const json = { 'content-type': 'application/json', 'x-sandbox-control-token': TOKEN }

  it('needs the control token like every control route, and a data file keeps them across a restart', async () => {
    const dataFile = join(scratchDir('merchants-'), 'data.json')
    const first = await serve({ port: 0, dataFile, controlToken: TOKEN, logger: silentLogger })
    const base = `http://127.0.0.1:${first.port}`
    try {
      const refused = await fetch(`${base}/sandbox/merchants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(merchantBody()),
      })
      expect(refused.status).toBe(401)
      const created = await fetch(`${base}/sandbox/merchants`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(merchantBody()),
      })
      expect(created.status).toBe(201)
      const deleteRefused = await fetch(`${base}/sandbox/merchants/${KIT.key}`, { method: 'DELETE' })
      expect(deleteRefused.status).toBe(401)
    } finally {
      await first.close()
    }
    const store = await createLowdbStore<Collections>({ file: dataFile, indexes: STORE_INDEXES })
    expect(store.get('merchants', KIT.key)?.merchant.password).toBe(KIT.password)
    await store.close()
    const second = await serve({ port: 0, dataFile, controlToken: TOKEN, logger: silentLogger })
    const again = `http://127.0.0.1:${second.port}`
    try {
      const session = await fetch(`${again}/api/v1/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sessionBody({}, KIT)),
      })
      expect(session.status, await session.text()).toBe(200)
      const deleted = await fetch(`${again}/sandbox/merchants/${KIT.key}`, {
        method: 'DELETE',
        headers: json,
      })
      expect(deleted.status).toBe(200)
    } finally {
      await second.close()
    }
    const third = await serve({ port: 0, dataFile, controlToken: TOKEN, logger: silentLogger })
    try {
      const list = (await (
        await fetch(`http://127.0.0.1:${third.port}/sandbox/merchants`, { headers: json })
      ).json()) as { merchants: { key: string }[] }
      expect(list.merchants.map((m) => m.key)).toEqual(['demo-merchant'])
    } finally {
      await third.close()
    }
  })
})
