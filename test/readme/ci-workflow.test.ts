/**
 * Issue 33, item 1: "the kit in CI with a complete GitHub Actions workflow (install, run, JUnit
 * upload)". The README shows examples/ci/payments-conformance.yml byte for byte
 * (readme-shape.test.ts); this test reads that file's steps (checkout, setup-node 20, npm ci, the
 * kit, the JUnit upload and its publication) and runs its kit step as written against the
 * project's reference merchant, with two substitutions: `npx paysandbox` is this checkout's built
 * binary, and one scenario (`--name merchant-full-refund`) stands for the whole run, which
 * readme-examples.test.ts and the conformance tests cover. `npm ci` and the `uses:` steps are
 * GitHub's; the test checks what they are given.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const BIN = join(ROOT, 'bin', 'paysandbox.js')
const WORKFLOW = readFileSync(join(ROOT, 'examples', 'ci', 'payments-conformance.yml'), 'utf8')

interface Step {
  uses?: string
  run?: string
  if?: string
  with: Record<string, string>
}

/** The job's steps: `- uses:`/`- run:` items at the steps' indentation, their `if:` and `with:` keys. */
function steps(text: string): Step[] {
  const lines = text.split('\n').filter((l) => !/^\s*#/.test(l) && l.trim() !== '')
  const start = lines.findIndex((l) => /^\s+steps:$/.test(l))
  expect(start, 'the workflow has steps').toBeGreaterThan(0)
  const indent = ((lines[start + 1] as string).match(/^\s*/) as RegExpMatchArray)[0].length
  const out: Step[] = []
  for (const line of lines.slice(start + 1)) {
    const depth = (line.match(/^\s*/) as RegExpMatchArray)[0].length
    if (depth < indent) break
    const item = /^\s*- (uses|run): (.*)$/.exec(line)
    if (depth === indent && item) {
      out.push({ [item[1] as 'uses' | 'run']: (item[2] as string).replace(/\s+#.*$/, ''), with: {} })
      continue
    }
    const pair = /^\s*(\S+): (.*)$/.exec(line)
    const step = out.at(-1)
    if (!pair || !step) continue
    if (pair[1] === 'if') step.if = pair[2]
    else step.with[pair[1] as string] = (pair[2] as string).replace(/\s+#.*$/, '')
  }
  return out
}

const scratch = mkdtempSync(join(tmpdir(), 'ci-workflow-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('examples/ci/payments-conformance.yml', () => {
  const all = steps(WORKFLOW)
  const uses = (prefix: string) => all.find((s) => s.uses?.startsWith(prefix))
  const kit = all.find((s) => s.run?.startsWith('npx paysandbox test '))
  const report = /--reporter junit --out (\S+)/.exec(kit?.run ?? '')?.[1]

  it('checks out, sets up Node 20, installs with npm ci, then runs the kit', () => {
    expect(WORKFLOW).toMatch(/^on: \[push, pull_request\]$/m)
    expect(all.map((s) => s.uses ?? s.run)).toEqual([
      'actions/checkout@v4',
      'actions/setup-node@v4',
      'npm ci',
      kit?.run,
      'actions/upload-artifact@v4',
      'mikepenz/action-junit-report@v5',
    ])
    expect(uses('actions/setup-node')?.with['node-version']).toBe('20')
    expect(kit?.run).toMatch(/--merchant \S+\.json/)
  })

  it('uploads the JUnit file and publishes it, whether the kit passed or failed', () => {
    expect(report).toBeDefined()
    const upload = uses('actions/upload-artifact')
    expect(upload?.with.path).toBe(report)
    expect(upload?.if).toBe('always()')
    const publish = uses('mikepenz/action-junit-report')
    expect(publish?.with.report_paths).toBe(report)
    expect(publish?.if).toBe('always()')
    // The publication is a check run: the job needs that permission.
    expect(WORKFLOW).toMatch(/^ {2}checks: write\b/m)
  })

  it('runs its kit step as written against the reference merchant and writes the JUnit file', () => {
    // The adapter the step names, here the reference merchant's (its process started from this checkout).
    const adapterName = /--merchant (\S+)/.exec(kit?.run ?? '')?.[1] as string
    const reference = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'merchants', 'reference.json'), 'utf8'))
    delete reference.$schema
    writeFileSync(
      join(scratch, adapterName),
      JSON.stringify({ ...reference, process: { ...reference.process, cwd: ROOT } }, null, 2),
    )
    const command = `${String(kit?.run).replace('npx paysandbox', `node ${BIN}`)} --name merchant-full-refund`
    const r = spawnSync('bash', ['-c', command], {
      cwd: scratch,
      encoding: 'utf8',
      timeout: 240_000,
      killSignal: 'SIGKILL',
    })
    expect(r.status, `${command}\n${r.stdout}\n${r.stderr}`).toBe(0)
    const file = join(scratch, report as string)
    expect(existsSync(file)).toBe(true)
    const xml = readFileSync(file, 'utf8')
    expect(xml).toMatch(/^<\?xml /)
    expect(xml).toMatch(/<testcase [^>]*name="merchant-full-refund: /)
    expect(xml).toMatch(/<testsuites [^>]*tests="1" failures="0"/)
    expect(xml).not.toContain('<failure')
  }, 300_000)
})
