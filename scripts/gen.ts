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

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const check = process.argv.includes('--check')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }

const files = loadSchemaFiles()
const outputs: [string, string][] = [
  ['src/generated/types.ts', await generateTypes(files)],
  ['openapi/openapi.json', `${JSON.stringify(generateOpenApi(files, pkg.version), null, 2)}\n`],
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
