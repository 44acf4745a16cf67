/**
 * schemas/ -> src/generated/types.ts and openapi/openapi.json.
 * `npm run gen` writes them; `npm run gen -- --check` exits 1 when either is stale.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadSchemaFiles } from './gen/bundle.js'
import { generateOpenApi } from './gen/openapi.js'
import { generateTypes } from './gen/types.js'

/** Every route the engine serves, read from a gateway built with the default modules. */
async function engineRoutes() {
  const { createMemoryStore, createSeededIds, createVirtualClock } = await import('../src/adapters/index.js')
  const { createGateway } = await import('../src/core/engine/gateway.js')
  const { STORE_INDEXES } = await import('../src/core/engine/model.js')
  const { DEFAULT_MODULES } = await import('../src/assembly.js')
  const { silentLogger } = await import('../src/core/ports/logger.js')
  const config = JSON.parse(readFileSync(join(root, 'fixtures', 'config', 'demo.json'), 'utf8'))
  const deps = {
    store: createMemoryStore(STORE_INDEXES),
    clock: createVirtualClock(),
    ids: createSeededIds('gen'),
    transport: { send: async () => ({ status: 200, body: 'OK' }) },
    logger: silentLogger,
    config,
  }
  const gateway = createGateway(deps, DEFAULT_MODULES)
  gateway.stop()
  return DEFAULT_MODULES.flatMap((module) => module.routes(gateway.ctx))
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const check = process.argv.includes('--check')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }

/** The signature formulas the routes and actions declare (src/core/signing/declared.ts). */
async function declaredFormulas() {
  const { declaredSignings } = await import('../src/core/signing/declared.js')
  const of = (api: 'checkout' | 's2s-card' | 's2s-apm') =>
    Object.fromEntries(
      [...declaredSignings(api)].map(([key, { formula }]) => [key, { id: formula.id, text: formula.text }]),
    )
  return { checkout: of('checkout'), 's2s-card': of('s2s-card'), 's2s-apm': of('s2s-apm') }
}

const files = loadSchemaFiles()
const routes = await engineRoutes()
const signings = await declaredFormulas()
const outputs: [string, string][] = [
  ['src/generated/types.ts', await generateTypes(files)],
  [
    'openapi/openapi.json',
    `${JSON.stringify(generateOpenApi(files, pkg.version, routes, signings), null, 2)}\n`,
  ],
]

const stale: string[] = []
for (const [path, content] of outputs) {
  const full = join(root, path)
  let current: string | undefined
  try {
    current = readFileSync(full, 'utf8')
  } catch {
    current = undefined
  }
  if (current === content) continue
  if (check) stale.push(path)
  else {
    mkdirSync(dirname(full), { recursive: true })
    writeFileSync(full, content)
    console.log(`wrote ${path}`)
  }
}
if (stale.length) {
  console.error(`Generated files are stale: ${stale.join(', ')}. Run \`npm run gen\` and commit the result.`)
  process.exit(1)
}
if (check) console.log(`generated files are up to date (${files.length} schemas)`)
