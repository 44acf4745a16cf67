/**
 * Every command of the README's `console` blocks, run as written (issue 15: "every command and
 * request in the README can be pasted as is"; issue 33: the README is a newcomer's path whose
 * every command is pasted by a test), its output compared with what the README shows. The pages
 * the README's reference parts moved to (docs/sandbox.md, docs/cli.md, docs/kit.md) are run the
 * same way.
 *
 * How a page runs: all its blocks in one bash session, in order, as a reader pastes them into one
 * terminal (a variable or function one block defines is there for the next), in a scratch
 * directory where `examples/`, `fixtures/`, `schemas/` and `node_modules/` are this repository's,
 * with two substitutions a reader makes too: `npx paysandbox` is this checkout's built binary,
 * and `localhost:8080` is a sandbox this test serves on a free port. The output is compared line
 * by line after ids, tokens, dates, durations and ports are masked. A command with no output
 * shown must exit 0 unless `echo $?` follows it. Blocks that start a server in the foreground are
 * listed in SKIPPED with the test that covers them.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkoutSignatures, s2sCardSignatures } from '../../src/core/signatures/index.js'
import { verifyCallback } from '../../src/library/signatures.js'

const ROOT = join(import.meta.dirname, '..', '..')
const BIN = join(ROOT, 'bin', 'paysandbox.js')
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
/** The README, then the pages its reference parts moved to; each runs as one reader's session. */
const PAGES = ['README.md', 'docs/sandbox.md', 'docs/cli.md', 'docs/kit.md']
const PASSWORD = 'demo-password-0123456789abcdef'

/** First command of a block -> why it does not run here, and what runs it instead. */
const SKIPPED: Record<string, string> = {
  'npm start':
    'serves in the foreground until stopped: test/cli/serve.test.ts runs npm start and checks the banner',
  'export PAYSANDBOX_CONTROL_TOKEN=$(openssl rand -hex 16)':
    'starts serve in the foreground and opens the interactive tui: test/cli/serve.test.ts and the control-token tests cover them',
}

interface Command {
  line: string
  expected: string[]
}

/** The ```console blocks: `$ ` lines (with `\` continuations) and the lines shown after each. */
function consoleBlocks(text: string): Command[][] {
  const blocks: Command[][] = []
  for (const match of text.matchAll(/```console\n([\s\S]*?)```/g)) {
    const commands: Command[] = []
    const lines = (match[1] as string).split('\n')
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i] as string
      if (line.startsWith('$ ')) {
        let command = line.slice(2)
        while (command.endsWith('\\') && i + 1 < lines.length)
          command = `${command.slice(0, -1).trimEnd()} ${(lines[++i] as string).trim()}`
        commands.push({ line: command.trim(), expected: [] })
      } else if (line.startsWith('# ')) {
        // A shell comment between commands explains; it is not output.
      } else if (line !== '' || i < lines.length - 1) {
        line = line.trimEnd()
        if (line !== '') commands.at(-1)?.expected.push(line)
      }
    }
    blocks.push(commands)
  }
  return blocks
}

/** What differs from run to run. */
function mask(text: string, port: string): string {
  return (
    text
      .replaceAll(`localhost:${port}`, 'localhost:8080')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
      .replace(/\b[0-9a-f]{32}\b/g, '<token>')
      // A redirect's or callback's sha1 hash covers the payment id, which differs from run to run.
      .replace(/\b[0-9a-f]{40}\b/g, '<sha1>')
      // HTTP header lines end in CR LF.
      .replace(/\r$/, '')
      .replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/g, '<date>')
      // The same date in a form body (a callback as the merchant receives it).
      .replace(/\d{4}-\d{2}-\d{2}\+\d{2}%3A\d{2}%3A\d{2}/g, '<date>')
      .replace(/\d+\.\d+ s\b/g, '<seconds> s')
      .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
      .replace(/\s+#.*$/, '')
  )
}

let server: ChildProcess | undefined
let port = ''
let scratch = ''

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'readme-'))
  for (const dir of ['examples', 'fixtures', 'schemas', 'node_modules'])
    symlinkSync(join(ROOT, dir), join(scratch, dir))
  server = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  port = await new Promise<string>((resolve, reject) => {
    server?.stdout?.on('data', (c) => {
      out += c
      const found = /listening on http:\/\/localhost:(\d+)/.exec(out)?.[1]
      if (found && out.includes('Ready.')) resolve(found)
    })
    server?.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)))
  })
}, 60_000)

afterAll(() => {
  server?.kill('SIGTERM')
  if (scratch) rmSync(scratch, { recursive: true, force: true })
})

/** Runs `commands` (a page's runnable blocks, in order) in one bash session. */
function runSession(commands: Command[]) {
  const script = ['set +e', '__rc=0']
  commands.forEach((c, i) => {
    const line = c.line
      .replaceAll('npx paysandbox', `node ${BIN}`)
      .replaceAll('localhost:8080', `localhost:${port}`)
    // Markers on lines of their own (curl prints no final newline); `$?` is restored after the
    // start marker, so that an `echo $?` sees the status of the command before it.
    script.push(
      `printf '\\n@@start ${i}\\n'`,
      '(exit $__rc)',
      line,
      '__rc=$?',
      `printf '\\n@@exit ${i} %s\\n' $__rc`,
    )
  })
  // A reader's shell has no control token unless a block exports one (the refusal block needs none).
  const { PAYSANDBOX_CONTROL_TOKEN: _token, ...env } = process.env
  const r = spawnSync('bash', ['-c', script.join('\n')], {
    cwd: scratch,
    env,
    encoding: 'utf8',
    timeout: 540_000,
    killSignal: 'SIGKILL',
  })
  const results: { out: string[]; exit: number }[] = []
  let current: string[] = []
  for (const line of r.stdout.split('\n')) {
    const start = /^@@start (\d+)$/.exec(line)
    const exit = /^@@exit (\d+) (\d+)$/.exec(line)
    if (start) current = []
    else if (exit) results[Number(exit[1])] = { out: current, exit: Number(exit[2]) }
    else current.push(line)
  }
  return { results, stderr: r.stderr }
}

for (const page of PAGES)
  describe(`${page} console examples`, () => {
    const text = readFileSync(join(ROOT, page), 'utf8')
    const blocks = consoleBlocks(text)

    it('finds the blocks, and each one either runs here or says what runs it', () => {
      expect(blocks.length).toBeGreaterThanOrEqual(page === 'README.md' ? 6 : 1)
      for (const block of blocks)
        expect(block.length, 'a console block without a `$ ` command').toBeGreaterThan(0)
    })

    const runnable = blocks.filter((b) => !SKIPPED[(b[0] as Command).line.replace(/\s+#.*$/, '')])
    // The page's session runs once, when its first block is checked; each block then reads its part.
    let session: ReturnType<typeof runSession> | undefined
    const offsets = runnable.map((_, i) => runnable.slice(0, i).reduce((n, b) => n + b.length, 0))
    it.each(runnable.map((b, i) => [(b[0] as Command).line.slice(0, 70), b, offsets[i] as number] as const))(
      'runs as written: %s',
      (_, block, offset) => {
        session ??= runSession(runnable.flat())
        const { results, stderr } = session
        block.forEach((command, i) => {
          const result = results[offset + i]
          expect(result, `${command.line} ran\n${stderr}`).toBeDefined()
          const shown = command.expected.map((l) => mask(l, port))
          const got = (result?.out ?? []).filter((l) => l.trim() !== '').map((l) => mask(l, port))
          if (shown.length) expect(got, `${command.line}\n${stderr}`).toEqual(shown)
          const checkedByEcho = block[i + 1]?.line === 'echo $?'
          if (!checkedByEcho) expect(result?.exit, `${command.line} exits 0\n${stderr}`).toBe(0)
        })
      },
      600_000,
    )

    it('names only example files that exist', () => {
      for (const path of text.matchAll(/\bexamples\/[\w./-]+\.(?:json|js|yml)\b/g))
        expect(existsSync(join(ROOT, path[0])), path[0]).toBe(true)
    })
  })

// docs/signatures.md "Worked examples": the hashes the README's requests carry.
describe('docs/signatures.md worked examples', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'signatures.md'), 'utf8')
  const order = { number: 'order-1001', amount: '25.00', currency: 'EUR', description: 'Tea for two' }

  it('gives the hashes the README and examples/ use', () => {
    const session = checkoutSignatures.session(order, PASSWORD)
    const zero = checkoutSignatures.session({ ...order, amount: '0.00' }, PASSWORD)
    const byOrder = checkoutSignatures.statusByOrder('order-1001', PASSWORD)
    for (const hash of [session, zero, byOrder]) expect(doc).toContain(`\`${hash}\``)
    // The README shows the session's hash (what its `sign` prints) and computes the status
    // lookup's with `sign`; the zero-amount session is in docs/sandbox.md's errors.
    expect(README).toContain(session)
    expect(README).toContain('"hash":"\'$(sign "order-1001$PASSWORD")\'"')
    expect(readFileSync(join(ROOT, 'docs', 'sandbox.md'), 'utf8')).toContain(zero)
    expect(JSON.parse(readFileSync(join(ROOT, 'examples', 'order.json'), 'utf8')).hash).toBe(session)
    const sale = JSON.parse(readFileSync(join(ROOT, 'examples', 'sale.json'), 'utf8'))
    expect(sale.hash).toBe(
      s2sCardSignatures.payment(sale.payer_email, PASSWORD, { cardNumber: sale.card_number }),
    )
  })

  it('the Node one-liner prints the session hash', () => {
    const line = /```sh\n(node -e .*)\n```/.exec(doc)?.[1]
    expect(line).toBeDefined()
    const r = spawnSync('bash', ['-c', line as string], { encoding: 'utf8' })
    expect(r.stdout.trim()).toBe(checkoutSignatures.session(order, PASSWORD))
  })

  it('the known answer: doe@example.com, 13a4822c5907ed235f3a068c76184fc3, 4111111111111111', () => {
    expect(doc).toContain('`2702ae0c4f99506dc29b5615ba9ee3c0`')
    expect(
      s2sCardSignatures.payment('doe@example.com', '13a4822c5907ed235f3a068c76184fc3', {
        cardNumber: '4111111111111111',
      }),
    ).toBe('2702ae0c4f99506dc29b5615ba9ee3c0')
  })
})

// README "A first payment": its `sign` shell function is the engine's Checkout formula,
// sha1(md5(upper(FIELDS + password))) with `upper` on ASCII letters only (docs/rules.md#signatures).
describe("the README's sign function", () => {
  const definition = /^\$ (sign\(\) \{.*\})$/m.exec(README)?.[1]

  function sign(text: string): string {
    const r = spawnSync('bash', ['-c', `${definition}\nsign "$1"`, 'bash', text], { encoding: 'utf8' })
    expect(r.stderr).toBe('')
    return r.stdout.trim()
  }

  it('is defined in the README', () => {
    expect(definition).toBeDefined()
  })

  it('gives the engine hash of a session, a refund and a status lookup, non-ASCII text included', () => {
    const orders = [
      { number: 'order-1001', amount: '25.00', currency: 'EUR', description: 'Tea for two' },
      { number: 'ß-7', amount: '1.500', currency: 'KWD', description: 'Café für zwei, ÉTÉ' },
    ]
    for (const order of orders)
      expect(sign(`${order.number}${order.amount}${order.currency}${order.description}${PASSWORD}`)).toBe(
        checkoutSignatures.session(order, PASSWORD),
      )
    const id = '02f7ced8-722e-4946-b678-4461bb5fbbbc'
    expect(sign(`${id}10.00${PASSWORD}`)).toBe(checkoutSignatures.amountOperation(id, '10.00', PASSWORD))
    expect(sign(`order-1001${PASSWORD}`)).toBe(checkoutSignatures.statusByOrder('order-1001', PASSWORD))
  })
})

// README "Callbacks": the one-line Checkout check is the engine's callback formula
// (docs/rules.md#signatures: sha1(md5(upper(id + order_number + order_amount + order_currency +
// order_description + password)))): it accepts what the engine signs and refuses a changed field.
describe("the README's callback check", () => {
  const line = /^\$ (node -p 'const f = require\("\.\/callbacks\.json"\).*)$/m.exec(README)?.[1]
  const dir = mkdtempSync(join(tmpdir(), 'readme-callback-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  function check(fields: Record<string, string>): string {
    writeFileSync(join(dir, 'callbacks.json'), JSON.stringify({ deliveries: [{ fields }] }))
    const r = spawnSync('bash', ['-c', `PASSWORD=${PASSWORD}\n${line}`], { cwd: dir, encoding: 'utf8' })
    expect(r.stderr).toBe('')
    return r.stdout.trim()
  }

  it('is in the README', () => {
    expect(line).toBeDefined()
  })

  it('accepts the hash the engine signs, non-ASCII descriptions included, and refuses a changed field', () => {
    const id = '02f7ced8-722e-4946-b678-4461bb5fbbbc'
    for (const order of [
      { number: 'order-1001', amount: '25.00', currency: 'EUR', description: 'Tea for two' },
      { number: 'ß-7', amount: '1.500', currency: 'KWD', description: 'Café für zwei' },
    ]) {
      const fields = {
        id,
        order_number: order.number,
        order_amount: order.amount,
        order_currency: order.currency,
        order_description: order.description,
        order_status: 'settled',
        type: 'sale',
        status: 'success',
        hash: checkoutSignatures.notification(id, order, PASSWORD),
      }
      expect(verifyCallback(fields, PASSWORD, 'checkout')).toBe(true)
      expect(check(fields)).toBe('true')
      expect(check({ ...fields, order_amount: '2.00' })).toBe('false')
      expect(check({ ...fields, id: id.replace('0', '1') })).toBe('false')
    }
  })
})
