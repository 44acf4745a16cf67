import { afterEach, describe, expect, it } from 'vitest'
import { type RunningSandbox, serve } from '../../src/adapters/serve.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { DEMO } from './session-helpers.js'

// docs/rules.md#warnings: "served and answered with one `Sandbox-Warning` response header per point ...
// `serve --strict` refuses them instead." Over real HTTP, as `paysandbox serve` runs.
const running: RunningSandbox[] = []
afterEach(async () => {
  for (const s of running.splice(0)) await s.close()
})

async function start(strict?: boolean) {
  const s = await serve({ port: 0, logger: silentLogger, ...(strict !== undefined ? { strict } : {}) })
  running.push(s)
  return s
}

function lenientSession(s: RunningSandbox) {
  const order = { number: 'strict-1', amount: '25', currency: 'USD', description: 'Tea for two' }
  return fetch(`${s.baseUrl}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      merchant_key: DEMO.key,
      operation: 'purchase',
      recurring_init: 'Y',
      order,
      success_url: 'https://shop.example/ok',
      hash: checkoutSignatures.session(order, DEMO.password),
    }),
  })
}

describe('serve and serve --strict (docs/rules.md#warnings-and-releases)', () => {
  it('serves a lenient request with one Sandbox-Warning header per point', async () => {
    const r = await lenientSession(await start())
    expect(r.status).toBe(200)
    const warnings = (r.headers.get('sandbox-warning') ?? '').split(/, (?=[a-z_.]+: )/)
    expect(warnings.map((w) => w.split(':', 1)[0]).sort()).toEqual(['order.amount', 'recurring_init'])
  })

  it('refuses it under strict, naming what the platform documents', async () => {
    const r = await lenientSession(await start(true))
    expect(r.status).toBe(400)
    const body = (await r.json()) as { error_code: number; errors: { error_message: string }[] }
    expect(body.error_code).toBe(0)
    expect(body.errors[0]?.error_message).toMatch(/the platform documents/)
    expect(r.headers.get('sandbox-warning')).toBeNull()
  })
})
