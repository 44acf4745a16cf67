import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { listSchemaFiles, SCHEMAS_DIR, schemaIdForFile } from '../../src/schema-files.js'

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }

export interface SchemaFile {
  id: string
  /** Path under schemas/, with `/` separators. */
  path: string
  title: string
  schema: JsonObject
}

export function loadSchemaFiles(dir = SCHEMAS_DIR): SchemaFile[] {
  const files = listSchemaFiles(dir).map((file) => {
    const schema = JSON.parse(readFileSync(file, 'utf8')) as JsonObject
    const path = relative(dir, file).split('\\').join('/')
    if (typeof schema.title !== 'string') throw new Error(`${path}: every schema file needs a title`)
    return { id: schemaIdForFile(file, dir), path, title: schema.title, schema }
  })
  const seen = new Map<string, string>()
  for (const f of files) {
    const other = seen.get(f.title)
    if (other) throw new Error(`title ${f.title} is used by both ${other} and ${f.path}`)
    seen.set(f.title, f.path)
  }
  return files
}

/**
 * Copies every schema under `prefix` + title (for example `#/components/schemas/`), rewriting
 * cross-file and local `$ref`s into pointers inside the one document, dropping `$id`/`$schema`
 * and the keys named in `drop`; with `refOnly`, a node holding a `$ref` keeps nothing else.
 */
export function bundle(
  files: SchemaFile[],
  prefix: string,
  drop: string[] = [],
  options: { refOnly?: boolean } = {},
): Record<string, JsonObject> {
  const byId = new Map(files.map((f) => [f.id, f]))
  const out: Record<string, JsonObject> = {}
  for (const file of files) {
    const rewriteRef = (value: string): string => {
      const url = new URL(value, file.id)
      const target = byId.get(url.href.split('#')[0] as string)
      if (!target) throw new Error(`${file.path}: $ref ${value} points outside schemas/`)
      return `${prefix}${target.title}${decodeURIComponent(url.hash.slice(1))}`
    }
    const rewrite = (node: Json, top: boolean): Json => {
      if (Array.isArray(node)) return node.map((n) => rewrite(n, false))
      if (node === null || typeof node !== 'object') return node
      // A $ref with annotations beside it makes json-schema-to-typescript declare a near-copy (Url1, Url2...).
      if (options.refOnly && typeof node.$ref === 'string') return { $ref: rewriteRef(node.$ref) }
      const copy: JsonObject = {}
      for (const [key, value] of Object.entries(node)) {
        if (top && (key === '$id' || key === '$schema')) continue
        if (drop.includes(key)) continue
        if (key === '$ref' && typeof value === 'string') {
          copy.$ref = rewriteRef(value)
        } else {
          copy[key] = rewrite(value, false)
        }
      }
      return copy
    }
    out[file.title] = rewrite(file.schema, true) as JsonObject
  }
  return out
}
