import qs from 'qs'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { callbacksOf } from '../../src/core/callbacks/index.js'
import type { Collections } from '../../src/core/engine/model.js'
import type { Store } from '../../src/core/ports/store.js'
import { inProcessPayer, type PayerControl } from '../../src/conformance/payer-control.js'
import type { HostedGateway } from '../../src/conformance/sandbox-host.js'
import { SandboxError } from '../../src/library/errors.js'
import { createPayer, type Payer } from '../../src/library/payer.js'
import { sessionBody } from '../checkout/session-helpers.js'
import { createTestGateway, type TestGateway } from '../helpers/engine.js'
import { createFaultInjectingStore, type FaultInjectingStore } from '../helpers/fault-store.js'
import { PAYMENT_COLLECTIONS } from '../helpers/collections.js'
import { saleForm } from '../s2s-apm/helpers.js'

/**
 * Issue 32 point 6 (docs/architecture.md, "One commit per operation"; docs/rules.md#control-api,
 * payer actions): every payer action — pay on the hosted page, the 3DS answer, the return from a
 * redirect, an APM outcome — goes through `gateway.handle` and its unit of work, whoever asks for
 * it (the library's `sandbox.payer`, the kit's in-process payer). A change that reaches the store
 * any other way fails here.
 */

const COLLECTIONS = PAYMENT_COLLECTIONS

interface Rig {
  t: TestGateway
  faults: FaultInjectingStore<Collections>
  /** Writes that reached the store outside a commit (outside every unit of work). */
  bypasses: string[]
  library: Payer
  kit: PayerControl
}

function rig(): Rig {
  let faults: FaultInjectingStore<Collections> | undefined
  const bypasses: string[] = []
  const watch = (inner: Store<Collections>): Store<Collections> =>
    new Proxy(inner, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver)
        if (typeof value !== 'function') return value
        if (property !== 'put' && property !== 'delete') return value.bind(target)
        return (collection: keyof Collections, recordOrId: unknown) => {
          const id = typeof recordOrId === 'string' ? recordOrId : (recordOrId as { id: string }).id
          // The callback queue records its attempts on deliveries the commit already stored (its own
          // bookkeeping after the change); anything else written outside a commit bypassed the door.
          const attempt = collection === 'deliveries' && target.get('deliveries', id) !== undefined
          if (!attempt) bypasses.push(`${String(property)} ${collection} ${id}`)
          return (value as (...args: unknown[]) => unknown).call(target, collection, recordOrId)
        }
      },
    })
  const t = createTestGateway(DEFAULT_MODULES, undefined, {
    wrapStore: (store) => {
      faults = createFaultInjectingStore(watch(store))
      return faults.store
    },
  })
  const idle = () => callbacksOf(t.gateway.ctx).idle()
  const settle = async () => {
    await t.gateway.ctx.store.flush()
    await idle()
  }
  const hosted = {
    gateway: t.gateway,
    idle,
    arrived: 0,
    payerActions: [],
    clock: { now: () => t.gateway.ctx.clock.now() },
  } as unknown as HostedGateway
  return {
    t,
    faults: faults as FaultInjectingStore<Collections>,
    bypasses,
    library: createPayer(t.gateway, settle),
    kit: inProcessPayer(hosted),
  }
}

async function pageToken(t: TestGateway, order: string): Promise<string> {
  const r = await t.call('POST', '/api/v1/session', sessionBody({ order: { number: order } }))
  if (r.status !== 200) throw new Error(`session answered ${r.status}: ${r.raw}`)
  return /\/auth\/([^/?#]+)/.exec(String(r.body.redirect_url))?.[1] as string
}

const card = (expiry: string) => ({ number: '4111111111111111', expiry, cvv: '123' })
const hpf = (month: string, year = '2030') => ({
  card_number: '4111111111111111',
  card_exp_month: month,
  card_exp_year: year,
  card_cvv2: '123',
})

/** An S2S APM SALE waiting on its simulator page (docs/rules.md#simulated-connectors (sandbox)). */
async function apmPayment(t: TestGateway, orderId: string): Promise<string> {
  // The S2S APM tests' signed SALE (fixtures/payloads/s2s-apm), on a method whose payer is sent away.
  const body = qs.stringify(saleForm({ order_id: orderId, brand: 'sepa', identifier: 'payer-1' }))
  const r = await t.call('POST', '/post-va', body)
  if (r.body.result !== 'REDIRECT') throw new Error(`APM SALE answered ${r.status}: ${r.raw}`)
  return r.body.trans_id as string
}

const snapshot = (t: TestGateway) => JSON.stringify(COLLECTIONS.map((c) => [c, t.store.list(c)]))

/** docs/architecture.md: a session that names a payment names one the store has. */
const dangling = (t: TestGateway) =>
  t.store
    .list('sessions')
    .filter((s) => s.payment_id !== undefined && t.store.get('payments', s.payment_id) === undefined)
    .map((s) => `${s.id} -> ${s.payment_id}`)

describe('every payer action goes through gateway.handle and its unit of work (issue 32 point 6)', () => {
  it('the library payer: pay, 3DS pass and fail, redirect, every APM outcome write only through a commit', async () => {
    const { t, bypasses, library, faults } = rig()
    const setupCommits = faults.commits.length
    const settled = await library.payCheckout(await pageToken(t, 'o-01'), card('01/2030'))
    expect(settled.status).toBe('settled')
    const three = await library.payCheckout(await pageToken(t, 'o-05'), card('05/2030'))
    expect((await library.passThreeDs(three.payment_id)).status).toBe('settled')
    const failing = await library.payCheckout(await pageToken(t, 'o-05b'), card('05/2030'))
    expect((await library.failThreeDs(failing.payment_id)).status).toBe('decline')
    const away = await library.payCheckout(await pageToken(t, 'o-12'), card('12/2030'))
    expect((await library.completeRedirect(away.payment_id)).status).toBe('settled')
    expect((await library.approveApm(await apmPayment(t, 'apm-1'))).status).toBe('settled')
    expect((await library.declineApm(await apmPayment(t, 'apm-2'), 'No funds')).reason).toBe('No funds')
    const pending = await library.leaveApmPending(await apmPayment(t, 'apm-3'))
    expect(pending.status).toBe('pending')
    expect((await library.expireApm(pending.payment_id)).status).toBe('decline')
    // Every change came in a commit; none was written beside the lifecycle.
    expect(faults.commits.length).toBeGreaterThan(setupCommits)
    expect(bypasses).toEqual([])
  })

  it('the kit in-process payer: the same actions write only through a commit', async () => {
    const { t, bypasses, kit } = rig()
    const paid = await kit.payCard(await pageToken(t, 'k-05'), hpf('05'), 'purchase')
    expect(paid.body).toMatchObject({ status: '3ds', redirect_url: expect.stringContaining('/acs/') })
    expect((await kit.threeDs(String(paid.body.payment_id), 'pass')).body.status).toBe('settled')
    const away = await kit.payCard(await pageToken(t, 'k-12'), hpf('12'), 'purchase')
    expect((await kit.redirect(String(away.body.payment_id))).body.status).toBe('settled')
    expect((await kit.apm(await apmPayment(t, 'k-apm'), 'approve')).body.status).toBe('settled')
    // A refusal answers as the Hosted Payment Fields endpoint does (docs/rules.md#errors) and changes nothing.
    const before = snapshot(t)
    const refused = await kit.threeDs(String(paid.body.payment_id), 'pass')
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
    })
    expect(snapshot(t)).toBe(before)
    expect(bypasses).toEqual([])
  })

  it('an in-process payer route is not an HTTP endpoint: a request off the network never reaches it', async () => {
    const { t } = rig()
    const token = await pageToken(t, 'o-net')
    const before = snapshot(t)
    const r = await t.call('POST', `/in-process/payer/sessions/${token}/card`, hpf('01'))
    expect(r.status).toBe(404)
    expect(snapshot(t)).toBe(before)
    expect(t.gateway.routes().filter((route) => route.includes('/in-process/'))).toEqual([])
  })
})

describe('a failed write during a payer action leaves no session pointing at a missing payment (issue 32 point 6)', () => {
  const payers: [string, (r: Rig, token: string) => Promise<{ status: number }>][] = [
    [
      'library payCheckout',
      (r, token) =>
        r.library.payCheckout(token, card('01/2030')).then(
          () => ({ status: 200 }),
          (e: unknown) => {
            if (e instanceof SandboxError) return { status: e.status }
            throw e
          },
        ),
    ],
    ['kit payCard', (r, token) => r.kit.payCard(token, hpf('01'), 'purchase')],
  ]
  for (const [name, payWith] of payers) {
    it(`${name}: a commit failing at any op, or on a full disk, changes nothing; the retry pays once`, async () => {
      const probe = rig()
      const probeToken = await pageToken(probe.t, 'o-probe')
      const from = probe.faults.commits.length
      expect((await payWith(probe, probeToken)).status).toBe(200)
      // The session's payment_id and the payment land in the same commit.
      const batch = probe.faults.commits
        .slice(from)
        .find((ops) => ops.some((op) => op.collection === 'payments'))
      expect(batch?.map((op) => op.collection)).toEqual(expect.arrayContaining(['sessions', 'payments']))
      const ops = batch?.length ?? 0
      for (const at of [...Array.from({ length: ops }, (_, i) => i), 'disk' as const]) {
        const r = rig()
        const token = await pageToken(r.t, 'o-probe')
        await r.t.clock.advance(0)
        const stored = snapshot(r.t)
        r.faults.failAt(at === 'disk' ? 0 : at, at === 'disk' ? { unavailable: true } : {})
        const answer = await payWith(r, token)
        expect(r.faults.injected(), `fault at op ${at}`).toBe(true)
        expect(answer.status, `fault at op ${at}`).toBe(at === 'disk' ? 503 : 500)
        expect(dangling(r.t), `fault at op ${at}`).toEqual([])
        expect(snapshot(r.t), `fault at op ${at}`).toBe(stored)
        // The payer tries again: one payment, and the session names it.
        expect((await payWith(r, token)).status).toBe(200)
        expect(r.t.store.count('payments')).toBe(1)
        expect(dangling(r.t)).toEqual([])
      }
    })
  }
})

describe('nothing outside the engine writes the store or calls a payer operation (issue 32 point 6)', () => {
  const root = join(import.meta.dirname, '..', '..')
  const files = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
    )
  // The engine (src/core), the hosted pages (its route handlers, run inside gateway.handle) and the
  // stores themselves may; the library, the kit, the UI, the adapters and the CLI go through the door.
  const inside = (path: string) => /^src\/(core|pages|adapters\/store)\//.test(path)
  const outside = [...files('src'), ...files('cli')].filter((f) => !inside(f.split('\\').join('/')))
  const OFFENCES: [string, RegExp][] = [
    ['writes the store', /\bstore\s*\.\s*(put|delete|commit|clear)\s*\(/],
    ['opens a unit of work', /\bunits\s*\.\s*run\s*\(/],
    ['imports a payer operation', /from\s+['"][./]+\/core\/(payments\/payer|apm\/outcomes)\.js['"]/],
    [
      'calls a payer operation',
      /\b(payWithCard|completeThreeDs|completeRedirect|applyApmOutcome|approveApm|declineApm|leavePending|expireApm)\(\s*ctx\b/,
    ],
  ]

  it('the library, the kit and every adapter change state only through gateway.handle', () => {
    expect(outside.length).toBeGreaterThan(50)
    const found = outside.flatMap((file) => {
      const text = readFileSync(join(root, file), 'utf8')
      return OFFENCES.filter(([, pattern]) => pattern.test(text)).map(
        ([what]) => `${relative('.', file)}: ${what}`,
      )
    })
    expect(found).toEqual([])
  })

  it('the scan finds what it looks for', () => {
    const sample = "import { payWithCard } from '../core/payments/payer.js'\nctx.store.put('payments', p)"
    expect(OFFENCES.filter(([, p]) => p.test(sample)).map(([what]) => what)).toEqual([
      'writes the store',
      'imports a payer operation',
    ])
  })
})
