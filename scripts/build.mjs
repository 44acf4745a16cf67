#!/usr/bin/env node
// `npm run build`: compiles src/ and cli/ with tsc (tsconfig.build.json) into dist/, JavaScript
// and declaration files, then copies the browser scripts the hosted pages serve as they are
// (src/**/assets/*.js, read at run time next to the module that serves them).
import { spawnSync } from 'node:child_process'
import { cpSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { bundleConsole } from './tui-bundle.mjs'

const root = join(import.meta.dirname, '..')
const dist = join(root, 'dist')
rmSync(dist, { recursive: true, force: true })

const tsc = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')],
  {
    stdio: 'inherit',
  },
)
// `--emit-anyway`: keep what tsc emitted despite type errors (while a source is mid-edit); never in CI.
const emitAnyway = process.argv.includes('--emit-anyway')
if (tsc.status !== 0 && !emitAnyway) {
  console.error('build: tsc failed')
  process.exit(tsc.status ?? 1)
}

function assetDirs(dir) {
  const found = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (!statSync(path).isDirectory()) continue
    if (name === 'assets') found.push(path)
    else found.push(...assetDirs(path))
  }
  return found
}
for (const dir of assetDirs(join(root, 'src'))) {
  const target = join(dist, relative(root, dir))
  cpSync(dir, target, { recursive: true })
  console.log(`build: copied ${relative(root, dir)} -> ${relative(root, target)}`)
}
// The console as one file (scripts/tui-bundle.mjs): `paysandbox tui` starts in a fraction of the time.
const bundled = await bundleConsole(dist)
if (bundled) console.log(`build: bundled the console into ${relative(root, bundled)}`)
// The configuration schema's validator compiled ahead (scripts/precompile-validators.mjs): `serve` start-up.
const { precompileValidators } = await import('./precompile-validators.mjs')
for (const file of await precompileValidators(dist)) console.log(`build: precompiled ${relative(root, file)}`)
// The help texts cli/main.ts prints without loading yargs, rendered by yargs itself (in this
// process, dist/cli/cli.js's renderHelp) at the two widths it uses outside a narrow terminal
// (100 when not a terminal, 110 in a wide one).
const { renderHelp } = await import(pathToFileURL(join(dist, 'cli', 'cli.js')).href)
const help = {}
for (const width of [100, 110]) {
  help[width] = {}
  for (const command of ['', 'validate', 'serve', 'tui', 'test', 'scenarios'])
    help[width][command] = (await renderHelp(command, width)).replace(/\n$/, '')
}
writeFileSync(join(dist, 'cli', 'help.json'), `${JSON.stringify(help)}\n`)
console.log('build: rendered --help into dist/cli/help.json')
// The CLI as a few files (scripts/cli-bundle.mjs), after help.json, which it copies beside itself.
const { bundleCli } = await import('./cli-bundle.mjs')
const cliBundle = await bundleCli(dist)
if (cliBundle) console.log(`build: bundled the CLI into ${relative(root, cliBundle)}`)
console.log(
  `build: ${relative(root, dist)}/ ready (bin/paysandbox.js runs ${cliBundle ? 'dist/cli/bundle/main.js' : 'dist/cli/main.js'})`,
)
