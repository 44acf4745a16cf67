import type { AnySchemaObject } from 'ajv'
import { resolveSchemaId, type SchemaRegistry, schemaRegistry } from './schema-registry.js'

/**
 * Fills every `default` of a schema into a copy of `data`, as ajv's `useDefaults` does (a
 * property's default is set when the property is missing, then the property's own schema fills
 * in below it), following `properties`, `items`, `additionalProperties`, `allOf` and `$ref`
 * across files. A second ajv compiled with `useDefaults` only for this cost about 180 ms at every
 * start of `serve` (issue 15); test/schemas/defaults.test.ts checks this against ajv itself.
 * `data` must already be valid against the schema.
 */
export function withSchemaDefaults<T>(schema: string, data: T, registry = schemaRegistry()): T {
  const id = resolveSchemaId(schema)
  const root = registry.schema(id)
  if (!root) throw new Error(`Unknown schema ${schema}`)
  const copy = structuredClone(data)
  fill(root, id, copy, registry, 0)
  return copy
}

function fill(node: AnySchemaObject, base: string, data: unknown, registry: SchemaRegistry, depth: number) {
  if (depth > 64 || typeof node !== 'object' || node === null) return
  if (typeof node.$ref === 'string') {
    const target = resolveRef(node.$ref, base, registry)
    if (target) fill(target.node, target.base, data, registry, depth + 1)
  }
  for (const branch of (node.allOf ?? []) as AnySchemaObject[]) fill(branch, base, data, registry, depth + 1)
  if (Array.isArray(data)) {
    if (node.items && typeof node.items === 'object')
      for (const item of data) fill(node.items as AnySchemaObject, base, item, registry, depth + 1)
    return
  }
  if (typeof data !== 'object' || data === null) return
  const record = data as Record<string, unknown>
  const properties = (node.properties ?? {}) as Record<string, AnySchemaObject>
  for (const [key, sub] of Object.entries(properties)) {
    if (record[key] === undefined && sub && typeof sub === 'object' && 'default' in sub)
      record[key] = structuredClone(sub.default)
    if (record[key] !== undefined) fill(sub, base, record[key], registry, depth + 1)
  }
  const extra = node.additionalProperties
  if (extra && typeof extra === 'object')
    for (const key of Object.keys(record))
      if (!(key in properties)) fill(extra as AnySchemaObject, base, record[key], registry, depth + 1)
}

export function resolveRef(
  ref: string,
  base: string,
  registry: SchemaRegistry,
): { node: AnySchemaObject; base: string } | undefined {
  const url = new URL(ref, base).href
  const [doc = '', fragment = ''] = url.split('#')
  let node: unknown = registry.schema(doc)
  for (const raw of fragment.split('/').slice(1)) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    node = (node as Record<string, unknown> | undefined)?.[segment]
  }
  return node && typeof node === 'object' ? { node: node as AnySchemaObject, base: doc } : undefined
}
