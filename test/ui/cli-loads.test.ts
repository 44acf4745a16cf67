import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
/**
 * The CLI as it runs: bin/paysandbox.js loads the build's bundle (dist/cli/bundle), whose chunks
 * are the package's own modules; packages (ink, react, express) stay in node_modules, and the
 * console is its own bundle (dist/src/ui/run.bundle.js), so the log says whether a command loads
 * the UI.
 */
const bin = join(root, 'bin', 'paysandbox.js')
const bundleDir = '/dist/cli/bundle/'
const children: ChildProcess[] = []
const dirs: string[] = []

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/**
 * A module resolve hook that logs every module URL the process loads, registered before tsx's
 * own hooks with `--import`: what a command loads, not what its files mention.
 */
function moduleLog(): { env: Record<string, string>; read: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'paysandbox-loads-'))
  dirs.push(dir)
  const log = join(dir, 'modules.log')
  writeFileSync(log, '')
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs'
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context)
  appendFileSync(${JSON.stringify(log)}, result.url + '\\n')
  return result
}
`,
  )
  writeFileSync(
    join(dir, 'register.mjs'),
    `import { register } from 'node:module'\nregister('./hooks.mjs', import.meta.url)\n`,
  )
  return {
    env: { NODE_OPTIONS: `--import ${join(dir, 'register.mjs')}` },
    read: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
  }
}

const inkModules = (urls: string[]) => urls.filter((u) => /\/node_modules\/ink\/|\/src\/ui\//.test(u))

// Issue 8.6: "paysandbox serve, paysandbox validate and paysandbox test never load ink: the UI is imported only when asked for."
describe('the terminal UI is loaded only by paysandbox tui', () => {
  it('is detected by the hook when something does load ink (the check can fail)', () => {
    const log = moduleLog()
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', "await import('ink')"], {
      cwd: root,
      env: { ...process.env, ...log.env },
    })
    expect(r.status).toBe(0)
    expect(inkModules(log.read()).length).toBeGreaterThan(0)
  })

  it('is not loaded by validate, nor by the command list (which names tui)', () => {
    const log = moduleLog()
    const file = join(root, 'fixtures', 'payloads', 'checkout', 'session-request.full.json')
    const valid = spawnSync(process.execPath, [bin, 'validate', 'session', file], {
      cwd: root,
      env: { ...process.env, ...log.env },
      encoding: 'utf8',
    })
    expect(valid.stdout).toContain('valid session')
    const help = spawnSync(process.execPath, [bin, '--help'], {
      cwd: root,
      env: { ...process.env, ...log.env },
      encoding: 'utf8',
    })
    expect(help.stdout).toContain('paysandbox tui')
    // --help answers from the help saved at build time; an unknown command goes through yargs,
    // which loads every command's definition, tui's among them (the built CLI is JavaScript).
    const unknown = spawnSync(process.execPath, [bin, 'no-such-command'], {
      cwd: root,
      env: { ...process.env, ...log.env },
      encoding: 'utf8',
    })
    expect(unknown.status).toBe(2)
    const loaded = log.read()
    expect(loaded.some((u) => u.endsWith(`${bundleDir}cli.js`))).toBe(true)
    expect(inkModules(loaded)).toEqual([])
  })

  it('is not loaded by test while it runs a scenario', () => {
    const log = moduleLog()
    const run = spawnSync(process.execPath, [bin, 'test', '--name', 'apm-group-app-confirmation'], {
      cwd: root,
      env: { ...process.env, ...log.env },
      encoding: 'utf8',
    })
    expect(run.stdout).toContain('1 passed')
    const loaded = log.read()
    expect(loaded.some((u) => u.includes(`${bundleDir}conformance-`))).toBe(true)
    expect(inkModules(loaded)).toEqual([])
  })

  it('is not loaded by serve, while it serves', async () => {
    const log = moduleLog()
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], {
      cwd: root,
      env: { ...process.env, ...log.env },
    })
    children.push(child)
    let out = ''
    child.stdout?.on('data', (c) => {
      out += c
    })
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve not ready in 30 s:\n${out}`)), 30_000)
      child.stdout?.on('data', () => {
        const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
        if (url && out.includes('Ready.')) {
          clearTimeout(timer)
          resolve(url)
        }
      })
    })
    expect((await fetch(`${base}/sandbox/payments`)).status).toBe(200)
    child.kill('SIGTERM')
    await new Promise((resolve) => child.on('exit', resolve))
    const loaded = log.read()
    expect(loaded.some((u) => u.includes(`${bundleDir}serve-`))).toBe(true)
    expect(inkModules(loaded)).toEqual([])
    expect(loaded.filter((u) => u.includes('/node_modules/react-dom/'))).toEqual([])
  }, 40_000)
})

// Issue 14 point 4: "Start-up under a second on the same machine as `serve`". The build bundles the console
// (scripts/tui-bundle.mjs); the tui command loads that one file instead of ink's and react's 600 modules.
describe('the console bundle (dist/src/ui/run.bundle.js)', () => {
  const bundle = join(root, 'dist', 'src', 'ui', 'run.bundle.js')

  it('loads no package module and no engine module of its own', () => {
    const log = moduleLog()
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(bundle)}); console.log(typeof m.runTui)`,
      ],
      { cwd: root, env: { ...process.env, ...log.env }, encoding: 'utf8' },
    )
    expect(r.stdout.trim()).toBe('function')
    const loaded = log.read().filter((u) => !u.startsWith('node:'))
    expect(loaded).toEqual([pathToFileURL(bundle).href])
  })

  it('leaves the embedded sandbox and the scenario runner to dist/, loaded only when used', () => {
    const text = readFileSync(bundle, 'utf8')
    expect(text).toContain('import("./in-process.js")')
    expect(text).toMatch(
      /import\("\.\/(\.\.\/)?conformance\/index\.js"\)|import\("\.\.\/conformance\/index\.js"\)/,
    )
    // express and the engine are not in it (serve-static is express's), nor React's development build.
    expect(text).not.toContain('serve-static')
    expect(text).not.toContain('react-reconciler.development')
    expect(text.length).toBeLessThan(1_000_000)
  })
})
