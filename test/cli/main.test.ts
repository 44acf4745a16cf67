import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * The `paysandbox` binary (issue 15): bin/paysandbox.js runs the build (dist/cli/bundle/main.js), which
 * answers --help, --version and validate without yargs; what it prints must be what yargs prints.
 */
const root = join(import.meta.dirname, '..', '..')
const bin = join(root, 'bin', 'paysandbox.js')
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version

function run(file: string, args: string[]) {
  const r = spawnSync(process.execPath, [file, ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
    killSignal: 'SIGKILL',
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

/** The same call through the whole yargs command line (cli/cli.ts in the bundle), not cli/main.ts's fast paths. */
function throughYargs(args: string[]) {
  const cli = pathToFileURL(join(root, 'dist', 'cli', 'bundle', 'cli.js')).href
  const code = `const { runCli } = await import(${JSON.stringify(cli)}); await runCli(process.argv.slice(1))`
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code, '--', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
    killSignal: 'SIGKILL',
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

describe('paysandbox (the built binary)', () => {
  it('prints the help yargs renders, for the program and each command', () => {
    for (const args of [
      ['--help'],
      ['-h'],
      ...['validate', 'serve', 'tui', 'test', 'scenarios'].map((c) => [c, '--help']),
    ]) {
      const fast = run(bin, args)
      const yargs = throughYargs(args)
      expect(fast.code, args.join(' ')).toBe(0)
      expect(fast.out, args.join(' ')).toBe(yargs.out)
    }
  })

  it('bare: prints the usage and the commands on stderr, then exits 2', () => {
    const r = run(bin, [])
    expect(r.code).toBe(2)
    expect(r.err).toMatch(/^paysandbox <command> \[options\]/)
    expect(r.err).toContain('paysandbox validate <kind> <file>')
    expect(r.err).toContain('Name a command.\nRun with --help for usage.')
    expect(r.err).not.toContain('see the list above')
  })

  it("--version prints paysandbox's version", () => {
    expect(run(bin, ['--version'])).toMatchObject({ code: 0, out: `${version}\n` })
  })

  it('test --help shows a tag the bundled scenarios use', () => {
    const r = run(bin, ['test', '--help'])
    expect(r.out).toContain('--tag refund')
    const tags = new Set(
      JSON.parse(run(bin, ['scenarios', 'list', '--json']).out).flatMap((s: { tags: string[] }) => s.tags),
    )
    expect(tags.has('refund')).toBe(true)
  })

  it('validate takes --json before or after the arguments, and unknown options go to yargs (exit 2)', () => {
    const file = join(root, 'examples', 'order.json')
    for (const args of [
      ['validate', '--json', 'session', file],
      ['validate', 'session', file, '--json'],
    ]) {
      const r = run(bin, args)
      expect(r.code, args.join(' ')).toBe(0)
      expect(JSON.parse(r.out)).toMatchObject({ valid: true, schema: 'checkout/session-request.schema.json' })
    }
    const unknown = run(bin, ['validate', 'session', file, '--nope'])
    expect(unknown.code).toBe(2)
    expect(unknown.err).toContain('Unknown argument: nope')
  })

  it('names a missing build instead of failing obscurely', () => {
    const text = readFileSync(bin, 'utf8')
    expect(text).toContain("import('../dist/cli/bundle/main.js')")
    expect(text).toContain('run `npm run build` first')
  })
})
