#!/usr/bin/env node
// `npm run build`: the one build (docs/internals.md, "Build", gives each step's reason and figures).
//   1. tsc (tsconfig.build.json): src/ into dist/src, JavaScript and declarations: the library
//      (`paysandbox`, `paysandbox/msw`) and the modules the console's bundle loads at run time.
//   2. esbuild: the console with ink and react into one file (scripts/tui-bundle.mjs).
//   3. ajv standalone code: the configuration schema's validator (scripts/precompile-validators.mjs).
//   4. esbuild: the CLI from its sources into dist/cli/bundle (scripts/cli-bundle.mjs), the only
//      form it runs in (bin/paysandbox.js).
//   5. yargs: the --help texts cli/main.ts prints without loading yargs (dist/cli/bundle/help.json).
//   6. the declarations for every TypeScript consumer: Node's types referenced, .d.cts twins for
//      `require` (scripts/declarations.mjs).
// The hosted pages' browser scripts are served from src/pages as written (package.json "files").
import { spawnSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { bundleCli } from './cli-bundle.mjs'
import { finishDeclarations } from './declarations.mjs'
import { precompileValidators } from './precompile-validators.mjs'
import { bundleConsole } from './tui-bundle.mjs'

const root = join(import.meta.dirname, '..')
const dist = join(root, 'dist')
rmSync(dist, { recursive: true, force: true })

const tsc = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')],
  { stdio: 'inherit' },
)
// `--emit-anyway`: keep what tsc emitted despite type errors (while a source is mid-edit); never in CI.
const emitAnyway = process.argv.includes('--emit-anyway')
if (tsc.status !== 0 && !emitAnyway) {
  console.error('build: tsc failed')
  process.exit(tsc.status ?? 1)
}
console.log(`build: compiled src/ into ${relative(root, dist)}/src`)
const declarations = finishDeclarations(join(dist, 'src'))
console.log(
  `build: ${declarations.referencing} declaration files reference Node's types; ${declarations.twins} .d.cts twins for require`,
)
console.log(`build: bundled the console into ${relative(root, await bundleConsole(dist))}`)
for (const file of await precompileValidators(dist)) console.log(`build: precompiled ${relative(root, file)}`)
const cli = await bundleCli(root, dist)
console.log(`build: bundled the CLI into ${relative(root, cli)}`)
// Rendered by yargs itself (renderHelp, in this process) at the two widths cli/main.ts answers
// without yargs: 100 when not a terminal, 110 in a wide one.
const { renderHelp } = await import(pathToFileURL(join(cli, 'cli.js')).href)
const help = {}
for (const width of [100, 110]) {
  help[width] = {}
  for (const command of ['', 'validate', 'serve', 'tui', 'test', 'scenarios', 'scenario', 'replay', 'repro'])
    help[width][command] = (await renderHelp(command, width)).replace(/\n$/, '')
}
writeFileSync(join(cli, 'help.json'), `${JSON.stringify(help)}\n`)
console.log(`build: rendered --help into ${relative(root, join(cli, 'help.json'))}`)
