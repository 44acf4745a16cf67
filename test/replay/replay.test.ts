import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { orderScenario } from '../../src/core/order-scenario/build.js'
import { validate } from '../../src/core/validation/index.js'
import { type ReplayReport, runReplay } from '../../src/replay/index.js'
import type { FreshSandbox } from '../../src/replay/sandbox.js'
import { type Capture, tempCapture, temps } from './captures.js'

/**
 * Issue 34, done when: "A HAR of a Checkout and an S2S flow replays with 0 differences; the same
 * file with one answer changed reports exactly that step" (docs/replay.md). The HAR and the shop's
 * log are the worked example's, captured for real by scripts/capture-replay-fixtures.ts.
 */

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'replay')
const HAR = join(fixtures, 'checkout-s2s.har')
const JSONL = join(fixtures, 'shop-client.jsonl')
const CONFIG = join(fixtures, 'shop-config.json')

const sandboxes: FreshSandbox[] = []
afterEach(() => {
  for (const s of sandboxes.splice(0)) s.stop()
  temps.clean()
})

async function replay(files: string[], options: { gateway?: string } = {}): Promise<ReplayReport> {
  const { report, sandbox } = await runReplay({ files, config: CONFIG, ...options })
  sandboxes.push(sandbox)
  return report
}

const har = (): Capture => JSON.parse(readFileSync(HAR, 'utf8')) as Capture
const entry = (doc: Capture, path: string, nth = 0) =>
  doc.log.entries.filter((e) => new URL(e.request.url).pathname === path)[
    nth
  ] as Capture['log']['entries'][number]

describe('paysandbox replay of the worked example (docs/replay.md)', () => {
  it('replays a HAR of a Checkout and an S2S flow with 0 differences, step by step', async () => {
    const report = await replay([HAR])
    expect(report.differences).toBe(0)
    expect(report.gateway).toBe('http://127.0.0.1:27080')
    const sent = report.steps.filter((s) => s.status !== 'skipped')
    expect(sent.every((s) => s.status === 'same')).toBe(true)
    expect(
      sent.map(
        (s) =>
          `${s.method} ${s.path?.replace(/[0-9a-f-]{36}|\[token-\d\]|[A-Za-z0-9_-]{20,}/g, 'ID')}${s.action ? ` ${s.action}` : ''}`,
      ),
    ).toEqual([
      'GET /terms',
      'POST /api/v1/session',
      // The page's token is the fresh sandbox's, and no output shows a token.
      'GET /auth/[removed]',
      'POST /auth/[removed]/pay',
      'GET /terms',
      'POST /api/v1/payment/status',
      'POST /api/v1/payment/refund',
      'POST /post SALE',
      'GET /acs/ID',
      'POST /acs/ID',
      'GET /terms',
      'POST /post GET_TRANS_STATUS',
    ])
    // The shop's own pages and the pages' scripts are not the gateway's to answer.
    const skipped = report.steps.filter((s) => s.status === 'skipped').map((s) => s.skipped)
    expect(skipped).toContain('not the gateway (http://127.0.0.1:27081)')
    expect(skipped).toContain('a static file of the hosted pages')
    // Every signed request verified with the configuration's password before it was signed again.
    const hashed = report.steps.filter((s) => s.hash)
    expect(hashed.map((s) => s.hash?.formula)).toEqual([
      'checkout.session',
      'checkout.status',
      'checkout.amount-operation',
      's2s-card.formula-1',
      's2s-card.formula-2',
    ])
    expect(hashed.every((s) => s.hash?.recorded === 'valid')).toBe(true)
    // The capture's card is masked: it is sent as the test card of the same digits, its CVV put back.
    const pay = report.steps.find((s) => s.path?.endsWith('/pay'))
    expect(pay?.notes.join(' ')).toMatch(
      /masked in the file \(411111\*\*\*\*\*\*1111\).*CVV is not in the file/,
    )
    expect(pay?.callbacks).toEqual(['sale/settled'])
    expect(report.orders.map((o) => o.order_id)).toEqual(['har-1001', 'har-2001'])
  })

  it('maps ids from earlier answers by role: the refund names the payment the fresh sandbox made', async () => {
    const report = await replay([HAR])
    const doc = har()
    const recordedId = JSON.parse(
      String(entry(doc, '/api/v1/payment/refund').request.postData?.text),
    ).payment_id
    const refund = report.steps.find((s) => s.path === '/api/v1/payment/refund')
    expect(refund?.request?.body).not.toContain(recordedId)
    expect(refund?.sandbox?.status).toBe(200)
    expect(refund?.sandbox?.body).toContain('"result":"accepted"')
  })

  it('reports exactly the step whose recorded answer was changed', async () => {
    const doc = har()
    const lookup = entry(doc, '/post', 1)
    const body = JSON.parse(String(lookup.response.content.text))
    body.status = 'DECLINED'
    lookup.response.content.text = JSON.stringify(body)
    const report = await replay([tempCapture('changed.har', doc)])
    expect(report.differences).toBe(1)
    const differing = report.steps.filter((s) => s.status === 'different')
    expect(differing.map((s) => s.where)).toEqual([`entry ${doc.log.entries.indexOf(lookup) + 1}`])
    expect(differing[0]?.differences).toEqual([
      { at: '$.status', recorded: '"DECLINED"', sandbox: '"SETTLED"' },
    ])
  })

  it('tells an answer naming another payment than the one its role stands for', async () => {
    const doc = har()
    const status = entry(doc, '/api/v1/payment/status')
    const body = JSON.parse(String(status.response.content.text))
    body.payment_id = '00000000-1111-4222-8333-444444444444'
    status.response.content.text = JSON.stringify(body)
    const report = await replay([tempCapture('other-payment.har', doc)])
    const step = report.steps.find((s) => s.status === 'different')
    expect(step?.path).toBe('/api/v1/payment/status')
    expect(step?.differences[0]?.at).toBe('$.payment_id')
  })

  it('re-checks a hash with the configuration, reports a mismatch and sends it as recorded', async () => {
    const doc = har()
    const refund = entry(doc, '/api/v1/payment/refund')
    const body = JSON.parse(String(refund.request.postData?.text))
    body.hash = 'f'.repeat(40)
    ;(refund.request.postData as { text: string }).text = JSON.stringify(body)
    const report = await replay([tempCapture('bad-hash.har', doc)])
    const step = report.steps.find((s) => s.path === '/api/v1/payment/refund')
    expect(step?.hash).toMatchObject({ recorded: 'invalid', formula: 'checkout.amount-operation' })
    expect(step?.notes.join(' ')).toContain("does not verify with merchant shop-key's password")
    expect(step?.request?.body).toContain('f'.repeat(40))
    // The recorded gateway accepted it; the sandbox refuses the hash the file holds.
    expect(step?.differences[0]).toMatchObject({ at: 'status', recorded: '200', sandbox: '400' })
  })

  it("replays a shop's JSON-lines log with 0 differences, and both captures merged by time", async () => {
    const log = await replay([JSONL])
    expect(log.differences).toBe(0)
    expect(log.steps.map((s) => s.action)).toEqual([
      'SALE',
      'GET_TRANS_STATUS',
      'CREDITVOID',
      'GET_TRANS_STATUS',
    ])
    const both = await replay([JSONL, HAR])
    expect(both.differences).toBe(0)
    expect(both.steps.filter((s) => s.file === JSONL).map((s) => s.where)).toEqual([
      'line 1',
      'line 2',
      'line 3',
      'line 4',
    ])
  })

  it('exports what it replayed as scenarios that validate', async () => {
    const { report, sandbox } = await runReplay({ files: [HAR], config: CONFIG })
    sandboxes.push(sandbox)
    for (const { order_id, merchant } of report.orders) {
      const scenario = orderScenario(sandbox.gateway.ctx, order_id, merchant)
      expect(validate('sandbox/scenario', scenario).valid).toBe(true)
      expect(JSON.stringify(scenario)).not.toMatch(/token-\d|4111111111111111/)
    }
  })
})
