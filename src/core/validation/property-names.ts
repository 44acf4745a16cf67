import type { AnySchemaObject } from 'ajv'
import { resolveRef } from './defaults.js'
import { resolveSchemaId, type SchemaRegistry, schemaRegistry } from './schema-registry.js'

/**
 * The property names a schema allows for the object at `path` (`merchants[0]`, `clock`, `` for the
 * root), following `properties`, `items`, `additionalProperties`, `allOf` and `$ref` across files:
 * what a "Did you mean …?" for an unexpected field is chosen from (issue 33), from the schema
 * itself, so a field the schema gains is suggested without a list to keep.
 */
export function propertyNamesAt(schema: string, path: string, registry = schemaRegistry()): string[] {
  const id = resolveSchemaId(schema)
  const root = registry.schema(id)
  if (!root) return []
  const segments = [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => m[1] ?? Number(m[2]))
  let nodes: { node: AnySchemaObject; base: string }[] = expand({ node: root, base: id }, registry)
  for (const segment of segments) {
    const next: { node: AnySchemaObject; base: string }[] = []
    for (const { node, base } of nodes) {
      const child =
        typeof segment === 'number'
          ? node.items
          : ((node.properties as Record<string, AnySchemaObject> | undefined)?.[segment] ??
            node.additionalProperties)
      if (child && typeof child === 'object')
        next.push(...expand({ node: child as AnySchemaObject, base }, registry))
    }
    nodes = next
  }
  return [...new Set(nodes.flatMap(({ node }) => Object.keys((node.properties ?? {}) as object)))]
}

/** A node with every `$ref` and `allOf` branch beside it. */
function expand(
  at: { node: AnySchemaObject; base: string },
  registry: SchemaRegistry,
  depth = 0,
): { node: AnySchemaObject; base: string }[] {
  if (depth > 32 || typeof at.node !== 'object' || at.node === null) return []
  const out = [at]
  if (typeof at.node.$ref === 'string') {
    const target = resolveRef(at.node.$ref, at.base, registry)
    if (target) out.push(...expand(target, registry, depth + 1))
  }
  for (const branch of (at.node.allOf ?? []) as AnySchemaObject[])
    out.push(...expand({ node: branch, base: at.base }, registry, depth + 1))
  return out
}
