#!/usr/bin/env node
// `npm run build`: compiles src/ and cli/ with tsc (tsconfig.build.json) into dist/, JavaScript
// and declaration files, then copies the browser scripts the hosted pages serve as they are
// (src/**/assets/*.js, read at run time next to the module that serves them).
import { spawnSync } from 'node:child_process'
import { cpSync, readdirSync, rmSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

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
console.log(
  `build: ${relative(root, dist)}/ ready (${relative(root, dirname(join(dist, 'cli', 'main.js')))}/main.js is the CLI)`,
)
