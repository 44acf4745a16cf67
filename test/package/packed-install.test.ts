/**
 * The package as a merchant installs it (issue 15): `npm pack`, then one `npm install` of the
 * tarball into a fresh project outside the repository (without msw), and a copy of that project
 * that adds msw, vitest and Jest, reused by every check below. Nothing here reads the
 * repository's sources: only what the tarball carries (package.json "files") runs.
 *
 * Checks: plain Node ESM `import`, CommonJS `require` (Node >= 20.19 loads ES modules without
 * top-level await through require), a strict NodeNext TypeScript consumer (with `paysandbox/msw`)
 * and one with `tsc --init`'s defaults, the README's vitest + msw example, a Jest suite, a second
 * project that did not install msw (strict TypeScript and plain Node), and the `paysandbox`
 * binary through npx (serve answers /sandbox/health and stops on SIGTERM with exit 0; validate;
 * test --help; tui --help; --version). Issue 33: no install warning naming paysandbox; strict
 * consumers on TypeScript 7 and 5.x with `types` empty or absent; a CommonJS TypeScript consumer
 * (`module: node16`) compiled and run.
 */
import { type ChildProcess, spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ES module of the build's, without declarations
import { publishedManifest } from '../../scripts/publish-manifest.mjs'

const ROOT = join(import.meta.dirname, '..', '..')
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string
  devDependencies: Record<string, string>
}
/** The consumer's tools, at the versions the repository itself uses (so npm's cache serves them). */
const tool = (name: string) => `${name}@${pkg.devDependencies[name]}`
const JEST = 'jest@30.5.2'
/** TypeScript 5.x beside the repository's TypeScript 7, under another name (an npm alias). */
const TS5 = 'ts5@npm:typescript@5.9.3'

let work = ''
let app = ''
/** A project that installed paysandbox, TypeScript and @types/node, and not msw. */
let bare = ''
/** What npm printed installing paysandbox (into the project without msw). */
let bareInstallOutput = ''
const children: ChildProcess[] = []

/** npm and node without the variables `npm test` exported to this process (npm_config_*, ...). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_|^VITEST|^NODE_OPTIONS$/i.test(k)) env[k] = v
  return { ...env, CI: 'true', NO_COLOR: '1', ...extra }
}

function run(
  command: string,
  args: string[],
  options: { cwd?: string; input?: string; env?: Record<string, string>; timeout?: number } = {},
) {
  const r: SpawnSyncReturns<string> = spawnSync(command, args, {
    cwd: options.cwd ?? app,
    encoding: 'utf8',
    input: options.input,
    env: cleanEnv(options.env),
    timeout: options.timeout ?? 120_000,
    // npm keeps running after SIGTERM while a fetch hangs, and spawnSync would wait for it forever.
    killSignal: 'SIGKILL',
  })
  return { code: r.status, out: r.stdout ?? '', err: r.stderr ?? '', all: `${r.stdout}\n${r.stderr}` }
}

/** `run`, without blocking the worker's event loop while npm installs. */
function runAsync(
  command: string,
  args: string[],
  options: { cwd: string; timeout: number },
): Promise<{ code: number | null; all: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout?.on('data', (c) => (out += c))
    child.stderr?.on('data', (c) => (err += c))
    // npm keeps running after SIGTERM while a fetch hangs.
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, all: `${out}\n${err}` })
    })
  })
}

/** One more try when the registry stalls (a fetch that hangs is killed after 4 minutes). */
async function install(args: string[], cwd: string) {
  const first = await runAsync('npm', args, { cwd, timeout: 240_000 })
  return first.code === 0 ? first : runAsync('npm', args, { cwd, timeout: 240_000 })
}

beforeAll(async () => {
  // `npm test` builds before vitest runs; a lone run of this file builds if dist/ is missing.
  if (!existsSync(join(ROOT, 'dist', 'cli', 'bundle', 'main.js'))) {
    const build = run(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT })
    expect(build.code, build.all).toBe(0)
  }
  work = mkdtempSync(join(tmpdir(), 'paysandbox-pack-'))
  // --ignore-scripts: dist/ is already built (prepack would rebuild it under the other tests' feet).
  const pack = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT })
  expect(pack.code, pack.all).toBe(0)
  const [packed] = JSON.parse(pack.out) as { filename: string; files: { path: string }[] }[]
  if (!packed) throw new Error(`npm pack printed no package: ${pack.all}`)
  // What prepack does to the manifest (scripts/publish-manifest.mjs), done to the tarball here
  // since the scripts were not run: the published package.json has no `prepare`.
  const unpacked = join(work, 'unpacked')
  mkdirSync(unpacked)
  expect(run('tar', ['xzf', join(work, packed.filename), '-C', unpacked], { cwd: work }).code).toBe(0)
  const manifest = join(unpacked, 'package', 'package.json')
  writeFileSync(
    manifest,
    `${JSON.stringify(publishedManifest(JSON.parse(readFileSync(manifest, 'utf8'))), null, 2)}\n`,
  )
  expect(
    run('tar', ['czf', join(work, packed.filename), '-C', unpacked, 'package'], { cwd: work }).code,
  ).toBe(0)
  const paths = packed.files.map((f) => f.path)
  // "files": only what runs and what users read (of docs/, the rule book the messages cite).
  // The hosted pages' browser scripts are the one part of src/ that runs as written.
  expect(
    paths.filter(
      (p) =>
        /^(test|bench|\.ci|src|cli|scripts|docs|data)\//.test(p) &&
        !/^src\/pages\/(apm\/)?assets\//.test(p) &&
        p !== 'docs/rules.md',
    ),
  ).toEqual([])
  // Only what runs: no TypeScript source, and the CLI only as its bundle.
  expect(paths.filter((p) => /\.tsx?$/.test(p) && !p.endsWith('.d.ts'))).toEqual([])
  expect(paths.filter((p) => p.startsWith('dist/cli/') && !p.startsWith('dist/cli/bundle/'))).toEqual([])
  // The console runs as its bundle, which loads only the embedded sandbox's entry beside it.
  expect(paths.filter((p) => p.startsWith('dist/src/ui/')).sort()).toEqual([
    'dist/src/ui/in-process.js',
    'dist/src/ui/run.bundle.js',
  ])
  expect(paths).toEqual(
    expect.arrayContaining([
      'LICENSE',
      'README.md',
      'docs/rules.md',
      'bin/paysandbox.js',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/cli/bundle/main.js',
      'src/pages/assets/hosted.js',
      'fixtures/config/demo.json',
    ]),
  )

  app = join(work, 'merchant-app')
  cpSync(join(ROOT, 'test', 'package', 'consumer'), app, { recursive: true })
  cpSync(join(ROOT, 'examples', 'order.json'), join(app, 'order.json'))
  // The merchant test of docs/library.md (the README's link for the library), as it shows it.
  writeFileSync(join(app, 'merchant.test.ts'), readmeMerchantExample())
  // The project without msw: the tarball, TypeScript (7 and 5.x) and @types/node.
  bare = join(work, 'app-without-msw')
  mkdirSync(bare)
  for (const file of ['consumer.ts', 'esm.mjs', 'cjs-consumer.cts']) cpSync(join(app, file), join(bare, file))
  const strict = JSON.parse(readFileSync(join(app, 'tsconfig.strict.json'), 'utf8'))
  writeFileSync(
    join(bare, 'tsconfig.strict.json'),
    JSON.stringify({ ...strict, files: ['consumer.ts'] }, null, 2),
  )
  writeFileSync(
    join(bare, 'package.json'),
    JSON.stringify({ name: 'app-without-msw', version: '1.0.0', private: true, type: 'module' }, null, 2),
  )
  const bareInstall = await install(
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      join(work, packed.filename),
      tool('typescript'),
      TS5,
      tool('@types/node'),
    ],
    bare,
  )
  expect(bareInstall.code, bareInstall.all).toBe(0)
  bareInstallOutput = bareInstall.all
  // The merchant app: a copy of that project (its manifest, lockfile and node_modules), which then
  // adds msw, vitest and Jest, as a merchant adds a test stack to a project that has paysandbox.
  // Unpacking paysandbox's dependencies and the compilers once instead of twice saves about 10 s of
  // npm's CPU (of 33 for the two installs side by side).
  for (const entry of ['node_modules', 'package-lock.json'])
    cpSync(join(bare, entry), join(app, entry), { recursive: true, verbatimSymlinks: true })
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify(
      {
        ...JSON.parse(readFileSync(join(bare, 'package.json'), 'utf8')),
        name: 'merchant-app',
      },
      null,
      2,
    ),
  )
  const appInstall = await install(
    ['install', '--no-audit', '--no-fund', '--prefer-offline', tool('msw'), tool('vitest'), JEST],
    app,
  )
  expect(appInstall.code, appInstall.all).toBe(0)
  // Runtime dependencies are only what runs: no TypeScript runner came with paysandbox.
  const installed = JSON.parse(readFileSync(join(app, 'node_modules', 'paysandbox', 'package.json'), 'utf8'))
  expect(Object.keys(installed.dependencies)).not.toContain('tsx')
  expect(Object.keys(installed.dependencies)).not.toContain('esbuild')
}, 600_000)

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  // The scratch project holds a whole node_modules (vitest, jest, typescript): removing it takes a while.
  if (work) await rm(work, { recursive: true, force: true })
}, 300_000)

/** The ```ts block of docs/library.md's "In a merchant's own test suite" section (the README links it). */
function readmeMerchantExample(): string {
  const page = readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8')
  const section = page.slice(page.indexOf("## In a merchant's own test suite"))
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1]
  expect(block, "docs/library.md's merchant example").toBeDefined()
  return block as string
}

describe('the packed package in a fresh project', { timeout: 120_000 }, () => {
  it('imports from plain Node as an ES module and pays an order', () => {
    const r = run(process.execPath, ['esm.mjs'])
    expect(r.all).toContain('esm: settled, 1 callback(s), hash ok')
    expect(r.code).toBe(0)
  })

  it('is required from CommonJS', () => {
    const r = run(process.execPath, ['cjs.cjs'])
    expect(r.all).toContain('cjs: settled, 1 callback(s), hash ok')
    expect(r.code).toBe(0)
  })

  it('type-checks clean in a strict NodeNext TypeScript project (no skipLibCheck)', () => {
    const r = run(process.execPath, [
      join(app, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      'tsconfig.strict.json',
    ])
    expect(r.all.trim()).toBe('')
    expect(r.code).toBe(0)
  })

  it('without msw installed: type-checks clean in a strict project and runs from plain Node', () => {
    // npm installs no optional peer: this project has no msw at all.
    expect(existsSync(join(bare, 'node_modules', 'msw'))).toBe(false)
    const tsc = run(
      process.execPath,
      [join(bare, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.strict.json'],
      { cwd: bare },
    )
    expect(tsc.all.trim()).toBe('')
    expect(tsc.code).toBe(0)
    const esm = run(process.execPath, ['esm.mjs'], { cwd: bare })
    expect(esm.all).toContain('esm: settled, 1 callback(s), hash ok')
    expect(esm.code).toBe(0)
  })

  // Issue 33, item 5: installing the package prints no warning (the published manifest has no
  // install script: no `prepare`, which npm 11 names in an install-scripts warning).
  it('installs without a warning', () => {
    expect(bareInstallOutput).not.toMatch(/npm warn/i)
  })

  /** tsc of TypeScript 7 (the repository's) and 5.x in the project without msw, on `config`. */
  const compileBoth = (
    name: string,
    config: Record<string, unknown>,
    files: string[],
    extra: string[] = [],
  ) => {
    writeFileSync(join(bare, name), JSON.stringify({ compilerOptions: config, files }, null, 2))
    return ['typescript', 'ts5'].map((ts) => {
      const r = run(process.execPath, [join(bare, 'node_modules', ts, 'bin', 'tsc'), '-p', name, ...extra], {
        cwd: bare,
      })
      // --listFiles and --listFilesOnly print the program's files, one absolute path a line.
      const lines = r.all.split('\n').filter((line) => line.trim() !== '')
      const said = lines.filter((line) => !line.startsWith('/'))
      const files = lines.filter((line) => line.startsWith('/')).sort()
      return { outcome: `${ts}: ${r.code} ${said.join('\n')}`, files: files.join('\n') }
    })
  }

  // Issue 33, item 5: the declarations reference Node's types themselves, so a consumer whose
  // `types` is empty (TypeScript 7's default) compiles with @types/node installed; and a CommonJS
  // TypeScript consumer (`module: node16`, a .cts file) compiles against the `require` condition's
  // .d.cts declarations, and what it compiled runs (require of the ES module). One strict program
  // per compiler holds both consumers: the ES module one (consumer.ts, an ES module in this
  // `type: module` project) and the CommonJS one, so TypeScript 5.x checks @types/node once
  // (about 7 s of CPU a check). The strict NodeNext project above is checked on TypeScript 7.
  it('type-checks clean on TypeScript 7 and 5.x with `types` empty and with no `types` at all, ES module and CommonJS consumers (module node16)', () => {
    const strict = {
      target: 'ES2022',
      module: 'node16',
      moduleResolution: 'node16',
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: false,
      outDir: 'out',
    }
    const consumers = ['consumer.ts', 'cjs-consumer.cts']
    // Checked in full, listing the program's files as it goes (--listFiles).
    const empty = compileBoth('tsconfig.types-empty.json', { ...strict, types: [] }, consumers, [
      '--listFiles',
    ])
    expect(empty.map((r) => r.outcome)).toEqual(['typescript: 0 ', 'ts5: 0 '])
    // What the compilers emitted for the CommonJS consumer runs (5.x emitted last).
    const cts = run(process.execPath, [join('out', 'cjs-consumer.cjs')], { cwd: bare })
    expect(cts.all).toContain('cts: settled, 1 callback(s), hash ok')
    expect(cts.code).toBe(0)
    // Without `types`, each compiler takes its own default (TypeScript 7: none; 5.x: every
    // node_modules/@types package, here @types/node alone). `types` decides only which files
    // the program holds: the same files as the program checked above, under otherwise the same
    // options, give the same diagnostics, so listing them is the check (a full second check of
    // @types/node costs 5.x about 6 s of CPU).
    const withEmpty = empty.map((r) => r.files)
    const withDefault = compileBoth('tsconfig.types-default.json', strict, consumers, [
      '--listFilesOnly',
    ]).map((r) => r.files)
    expect(withDefault).toEqual(withEmpty)
    // The programs hold @types/node and the package's declarations for both conditions, which
    // reference it.
    for (const files of withDefault) {
      expect(files).toMatch(/node_modules\/@types\/node\/index\.d\.ts/)
      expect(files).toMatch(/node_modules\/paysandbox\/dist\/src\/index\.d\.ts/)
      expect(files).toMatch(/node_modules\/paysandbox\/dist\/src\/index\.d\.cts/)
    }
  })

  it("type-checks clean with tsc --init's defaults", () => {
    const dir = join(app, 'init')
    mkdirSync(dir)
    cpSync(join(app, 'consumer.ts'), join(dir, 'consumer.ts'))
    const tsc = join(app, 'node_modules', 'typescript', 'bin', 'tsc')
    expect(run(process.execPath, [tsc, '--init'], { cwd: dir }).code).toBe(0)
    const r = run(process.execPath, [tsc, '--noEmit', '-p', '.'], { cwd: dir })
    expect(r.all.trim()).toBe('')
    expect(r.code).toBe(0)
  })

  it("runs the README's vitest + msw example", () => {
    const r = run(process.execPath, [
      join(app, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      'merchant.test.ts',
    ])
    expect(r.all).toMatch(/1 passed/)
    expect(r.code).toBe(0)
  })

  it('runs in a Jest suite (ES modules, as Jest documents them)', () => {
    const r = run(process.execPath, [
      '--experimental-vm-modules',
      join(app, 'node_modules', 'jest', 'bin', 'jest.js'),
      '--ci',
      'sandbox.jest.test.mjs',
    ])
    expect(r.all).toMatch(/Tests:\s+1 passed/)
    expect(r.code).toBe(0)
  })
})

describe('the installed binary: npx paysandbox and node_modules/.bin/paysandbox', {
  timeout: 120_000,
}, () => {
  /** The binary npm linked into the project (what `npx paysandbox` finds and runs). */
  const bin = () => join(app, 'node_modules', '.bin', 'paysandbox')

  it('prints its version through npx, and help for test and tui', () => {
    const version = run('npx', ['--no-install', 'paysandbox', '--version'])
    expect(version.out.trim()).toBe(pkg.version)
    // npx adds about 0.6 s of npm's CPU to each command: the rest run the linked binary itself.
    const test = run(bin(), ['test', '--help'])
    expect(test.code).toBe(0)
    expect(test.out).toContain('--tag refund')
    const tui = run(bin(), ['tui', '--help'])
    expect(tui.code).toBe(0)
    expect(tui.out).toContain('Support console')
  })

  it('validates a payload from a file and from standard input', () => {
    const order = readFileSync(join(app, 'order.json'), 'utf8')
    const file = run(bin(), ['validate', 'session', 'order.json'])
    expect(file.out).toContain('order.json: valid session')
    expect(file.code).toBe(0)
    const stdin = run(bin(), ['validate', 'session', '-'], { input: order })
    expect(stdin.out).toContain('-: valid session')
    expect(stdin.code).toBe(0)
  })

  /** Starts `serve --port 0` with this command line, waits for the banner's "Ready.", checks health. */
  async function serve(command: string, args: string[]) {
    const child = spawn(command, [...args, 'serve', '--port', '0'], { cwd: app, env: cleanEnv() })
    children.push(child)
    let out = ''
    const collect = (c: Buffer) => {
      out += c
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    const exited = new Promise<number | string | null>((resolve) =>
      child.on('exit', (code, signal) => resolve(code ?? signal)),
    )
    const base = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
        if (url && out.includes('Ready.')) resolve(url)
      })
      child.on('exit', (code) => reject(new Error(`exited ${code} before ready:\n${out}`)))
    })
    expect((await fetch(`${base}/sandbox/health`)).status).toBe(200)
    return { child, base, exited, out: () => out }
  }

  // README "Exit codes": SIGINT or SIGTERM stops the server, exit 0.
  it('serves from the installed binary until /sandbox/health answers, and SIGTERM stops it with exit 0', async () => {
    const s = await serve(bin(), [])
    s.child.kill('SIGTERM')
    expect(await s.exited).toBe(0)
    expect(s.out()).toContain('SIGTERM, stopping')
    await expect(fetch(`${s.base}/sandbox/health`)).rejects.toThrow()
  })

  it('serves through npx, and SIGTERM to npx stops the server (none left listening)', async () => {
    const s = await serve('npx', ['--no-install', 'paysandbox'])
    s.child.kill('SIGTERM')
    // npx itself ends by the signal its shell died of (npm re-raises it; a shell reports 143); the
    // server notices it was orphaned and stops as on SIGTERM (README "Exit codes").
    expect([0, 143, 'SIGTERM']).toContain(await s.exited)
    await expect
      .poll(() =>
        fetch(`${s.base}/sandbox/health`).then(
          () => 'up',
          () => 'down',
        ),
      )
      .toBe('down')
  })
})
