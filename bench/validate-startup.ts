import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fmt, type Sample, timeCommand } from './lib.js'

/**
 * Issue 2: `paysandbox validate` on one file answers in well under a second. Baseline: `node -e ''`
 * in the same run, so the ratio survives a noisy machine.
 */
export function benchValidateStartup(runs = 15): { rows: Sample[]; summary: string } {
  const dir = mkdtempSync(join(tmpdir(), 'paysandbox-bench-'))
  const file = join(dir, 'session.json')
  writeFileSync(
    file,
    JSON.stringify({
      merchant_key: 'demo-merchant',
      operation: 'purchase',
      methods: ['card'],
      order: { number: 'bench-1', amount: '10.00', currency: 'USD', description: 'Bench' },
      cancel_url: 'https://shop.example/cancel',
      success_url: 'https://shop.example/success',
      hash: 'x'.repeat(40),
    }),
  )
  const baseline = timeCommand("node -e ''", process.execPath, ['-e', ''], runs)
  const validate = timeCommand(
    'paysandbox validate session',
    process.execPath,
    ['bin/paysandbox.js', 'validate', 'session', file],
    runs,
  )
  const ratio = validate.medianMs / baseline.medianMs
  return {
    rows: [baseline, validate],
    summary: `validate start-up: median ${fmt(validate.medianMs)} ms = ${fmt(ratio)}x node -e '' (${fmt(baseline.medianMs)} ms); target: well under 1000 ms`,
  }
}
