import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { loadScenarios } from '../../src/conformance/load.js'
import { forMode } from '../../src/conformance/runner.js'
import type { LoadedScenario, RunSummary } from '../../src/conformance/types.js'
import { errorCatalogue } from '../../src/core/engine/errors.js'
import { compileReferenceMerchant } from './compiled-reference.js'
import { merchantRuns } from './merchant-runs.js'

/**
 * Issue 30, item 2: the kit judges from the rule the gateway gives with a refusal and from the
 * engine's declarations, never from the words of its messages. Every message the engine can
 * answer is rewritten (the catalogue's rows and the field validation's sentences), and broken
 * twins whose failures are refusals of every kind (a hash, an amount's form, an unsigned request,
 * a flag, a nested order, session_expiry, the Hosted Payment Fields endpoint, a refund above what
 * is left, a VOID of a held authorization) run both ways: the verdicts and the causes the reports
 * head with (the cause, the rule, the section) are the same; only the quoted answers differ.
 *
 * Runs in the `isolated` project: the validation sentences are replaced with vi.mock, which must
 * not reach other test files.
 */

const rewriting = vi.hoisted(() => ({ on: false }))
vi.mock('../../src/core/validation/messages.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/validation/messages.js')>()
  return {
    ...real,
    messageFor: (error: Parameters<typeof real.messageFor>[0]) =>
      rewriting.on ? `Rewritten sentence ${error.keyword}.` : real.messageFor(error),
  }
})

const root = join(import.meta.dirname, '..', '..')
const merchants = join(root, 'fixtures', 'merchants')

/** Twin → the scenario written to catch it (test/conformance/twins.test.ts). */
const TWINS: Record<string, string> = {
  'sha1-of-binary-md5': 'merchant-session-hash-sha1-over-hex-md5',
  'amount-with-comma': 'merchant-amount-dot-separator',
  'unsigned-status-lookup': 'merchant-return-before-callback',
  's2s-recurring-flag-as-boolean': 'merchant-s2s-non-recurring-stays-non-recurring',
  'credit-nested-order': 'merchant-checkout-card-credit',
  'session-expiry-seconds': 'merchant-checkout-settled-callback-marks-paid',
  'wrong-hpf-endpoint': 'merchant-hpf-debit-endpoint',
  'refund-rest-as-order-amount': 'merchant-refund-the-rest',
  'voids-held-authorization': 'merchant-held-authorization-across-days',
}

/** Every catalogue message replaced by one that says nothing the old one said. */
function rewriteCatalogue(): () => void {
  const saved = new Map<string, string>()
  for (const [id, row] of errorCatalogue()) {
    saved.set(id, row.error_message)
    row.error_message = `${row.field ? `${row.field}: ` : ''}Rewritten message ${id.length}.`
  }
  rewriting.on = true
  return () => {
    for (const [id, row] of errorCatalogue()) row.error_message = saved.get(id) ?? row.error_message
    rewriting.on = false
  }
}

let scenarios: LoadedScenario[] = []
let compiled: ReturnType<typeof compileReferenceMerchant>
const runs = merchantRuns({ process: (proc) => ({ ...proc, command: [process.execPath, compiled.main] }) })

/** What a run judged, per twin: its verdict, the failed step, and the causes its report heads with. */
function verdicts(prefix: string) {
  return Object.entries(TWINS).map(([twin, slug]) => {
    const result = (runs.summaries.get(`${prefix}${twin}`) as RunSummary).results.find((r) => r.slug === slug)
    const failed = result?.steps.find((s) => s.status === 'failed')
    return {
      twin,
      status: result?.status,
      step: failed?.label,
      section: failed?.section,
      causes: (failed?.findings ?? []).map((f) => ({
        kind: f.kind,
        cause: f.cause,
        rule: f.rule,
        section: f.section,
      })),
      answers: (failed?.findings ?? []).map((f) => f.answer ?? ''),
    }
  })
}

const run = (prefix: string) =>
  runs.runAll(
    scenarios,
    Object.entries(TWINS).map(([twin, slug]) => ({
      name: `${prefix}${twin}`,
      file: join(merchants, 'twins', `${twin}.json`),
      only: [slug],
    })),
  )

beforeAll(async () => {
  const loaded = loadScenarios([join(root, 'scenarios')])
  scenarios = forMode(loaded.scenarios, 'merchant')
  compiled = compileReferenceMerchant()
  await run('as-written:')
  const restore = rewriteCatalogue()
  try {
    await run('rewritten:')
  } finally {
    restore()
  }
}, 600_000)

afterAll(async () => {
  await runs.close()
  compiled?.dispose()
})

describe('the kit judges from rule ids, not messages (issue 30, item 2)', () => {
  it('every twin fails its scenario with a cause first, whatever the engine says in words', () => {
    const written = verdicts('as-written:')
    for (const v of written) {
      expect(v.status, v.twin).toBe('failed')
      expect(v.causes.length, v.twin).toBeGreaterThan(0)
      expect(v.causes[0]?.cause, v.twin).toMatch(/^the merchant/)
      expect(v.causes[0]?.cause, v.twin).toMatch(/docs\/rules\.md#[a-z0-9-]+/)
    }
  })

  it('the same verdicts, failed steps, causes, rules and sections with every message rewritten', () => {
    const strip = (v: ReturnType<typeof verdicts>[number]) => ({ ...v, answers: undefined })
    expect(verdicts('rewritten:').map(strip)).toEqual(verdicts('as-written:').map(strip))
  })

  it('while the answers the reports quote did change (the rewrite reached the gateway)', () => {
    const before = verdicts('as-written:')
    const after = verdicts('rewritten:')
    const changed = before.filter((v, i) => v.answers.join() !== after[i]?.answers.join())
    expect(changed.map((v) => v.twin)).toEqual(before.map((v) => v.twin))
    expect(after.flatMap((v) => v.answers).join('\n')).toMatch(/Rewritten (message|sentence)/)
  })
})
