import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  installSchemaSource,
  type PrecompiledValidator,
  type SchemaFile,
  type SchemaSource,
  schemaSourceInstalled,
} from './core/ports/schema-source.js'
import { SCHEMA_BASE } from './core/validation/schema-registry.js'
import { PACKAGE_ROOT } from './package-root.js'

/** The package's schemas/ folder: the schemas and the method and error catalogues. */
export const SCHEMAS_DIR = join(PACKAGE_ROOT, 'schemas')

/** Every `*.schema.json` under `dir`, sorted. */
export function listSchemaFiles(dir = SCHEMAS_DIR): string[] {
  return listJson(dir).filter((f) => f.endsWith('.schema.json'))
}

function listJson(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...listJson(path))
    else if (entry.name.endsWith('.json')) out.push(path)
  }
  return out.sort()
}

export function schemaIdForFile(file: string, dir = SCHEMAS_DIR): string {
  return SCHEMA_BASE + relative(dir, file).split(sep).join('/')
}

/** The schemas/ folder as the core's schema source, read once on first use. */
export function fileSchemaSource(dir = SCHEMAS_DIR): SchemaSource {
  let files: SchemaFile[] | undefined
  return {
    files() {
      files ??= listJson(dir).map((file) => ({
        path: relative(dir, file).split(sep).join('/'),
        json: JSON.parse(readFileSync(file, 'utf8')) as unknown,
      }))
      return files
    },
    precompiled(path) {
      // Only from a build (dist/src/schema-files.js beside dist/validators/), whose validators
      // were compiled from the same schemas/ by the same build: sources under tsx compile their own.
      if (dir !== SCHEMAS_DIR || !FROM_BUILD) return undefined
      const file = join(PACKAGE_ROOT, 'dist', 'validators', path.replace(/\.schema\.json$/, '.cjs'))
      if (!existsSync(file)) return undefined
      return createRequire(import.meta.url)(file) as PrecompiledValidator
    },
  }
}

/** Running from dist/ (built JavaScript, or the CLI's bundle of it), not from the TypeScript sources. */
const FROM_BUILD = fileURLToPath(import.meta.url).startsWith(join(PACKAGE_ROOT, 'dist') + sep)

/** Installs schemas/ as the core's schema source, unless one is installed already. */
export function installFileSchemaSource(): void {
  if (!schemaSourceInstalled()) installSchemaSource(fileSchemaSource())
}

installFileSchemaSource()
