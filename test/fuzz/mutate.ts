import type { AnySchemaObject } from 'ajv'
import { resolveSchemaId, schemaRegistry } from '../../src/core/validation/index.js'

/** mulberry32: a small seeded generator, so every run sends the same bodies. */
export function createRandom(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  }
}
export type Random = ReturnType<typeof createRandom>

type Json = unknown
type Path = (string | number)[]

/** What the schema says about the node at a path: enough to break its rules on purpose. */
export interface NodeRules {
  type?: string | string[]
  required: string[]
  properties: string[]
  maxLength?: number
  enum?: unknown[]
}

/** The rules of the node at `path` of `schema`, following $refs, allOf/anyOf/oneOf and if/then. */
export function rulesAt(schema: string, path: Path): NodeRules {
  const key = `${schema} ${JSON.stringify(path.map((s) => (typeof s === 'number' ? 0 : s)))}`
  let rules = memo.get(key)
  if (!rules) {
    rules = computeRules(schema, path)
    memo.set(key, rules)
  }
  return rules
}
const memo = new Map<string, NodeRules>()

function computeRules(schema: string, path: Path): NodeRules {
  const registry = schemaRegistry()
  const rootId = resolveSchemaId(schema)
  let nodes: { node: AnySchemaObject; base: string }[] = expand(registry.schema(rootId) ?? {}, rootId)
  for (const seg of path) {
    const next: { node: AnySchemaObject; base: string }[] = []
    for (const { node, base } of nodes) {
      const child = typeof seg === 'number' ? node.items : node.properties?.[seg]
      if (child && typeof child === 'object') next.push(...expand(child as AnySchemaObject, base))
    }
    nodes = next
  }
  const rules: NodeRules = { required: [], properties: [] }
  for (const { node } of nodes) {
    rules.type ??= node.type
    rules.required.push(...((node.required as string[] | undefined) ?? []))
    rules.properties.push(...Object.keys(node.properties ?? {}))
    if (typeof node.maxLength === 'number')
      rules.maxLength = Math.min(rules.maxLength ?? Infinity, node.maxLength)
    if (Array.isArray(node.enum)) rules.enum = node.enum
  }
  rules.required = [...new Set(rules.required)]
  rules.properties = [...new Set(rules.properties)]
  return rules
}

function expand(node: AnySchemaObject, base: string, depth = 0): { node: AnySchemaObject; base: string }[] {
  if (depth > 12) return []
  const out: { node: AnySchemaObject; base: string }[] = [{ node, base }]
  if (typeof node.$ref === 'string') {
    const target = new URL(node.$ref, base).href
    const resolved = schemaRegistry().ajv.getSchema(target)?.schema as AnySchemaObject | undefined
    if (resolved) out.push(...expand(resolved, target.split('#')[0] as string, depth + 1))
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const)
    for (const branch of (node[key] as AnySchemaObject[] | undefined) ?? [])
      out.push(...expand(branch, base, depth + 1))
  if (node.then && typeof node.then === 'object')
    out.push(...expand(node.then as AnySchemaObject, base, depth + 1))
  return out
}

/** Values that break a field: wrong types, sizes, characters and shapes. */
export function badValues(rules: NodeRules, original: Json): Json[] {
  const long = (rules.maxLength ?? 255) + 1
  const values: Json[] = [
    null,
    true,
    0,
    -1,
    1e308,
    2 ** 53 + 1,
    -0.0001,
    '',
    ' ',
    'x'.repeat(long),
    'x'.repeat(70_000),
    '😀'.repeat(Math.ceil(long / 2) + 1),
    '\u0000',
    '\ud800',
    '\u202e\u0645\u0631\u062d\u0628\u0627',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '../../etc/passwd',
    '1e5',
    'NaN',
    '-Infinity',
    '10,00',
    '١٠٫٠٠',
    [],
    [original],
    {},
    JSON.parse('{"__proto__": {"polluted": "yes"}}'),
    { constructor: { prototype: { polluted: 'yes' } } },
    nested(600),
  ]
  if (rules.enum)
    values.push(`${String(rules.enum[0])}-not-listed`, `${String(rules.enum[0]).toUpperCase()}X`)
  return values
}

/** `{"a": {"a": ... {"a": 1}}}`, deep enough to hurt anything recursive. */
export function nested(depth: number): Json {
  let value: Json = 1
  for (let i = 0; i < depth; i++) value = { a: value }
  return value
}

/** Keys that try to reach prototypes or confuse bracket-notation expansion. */
export const BAD_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
  'hash[0]',
  'order[amount][x]',
  'k'.repeat(5_000),
  '',
]

export function leafPaths(value: Json, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [prefix]
  const entries: [string | number, Json][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value as Record<string, Json>)
  return [prefix, ...entries.flatMap(([k, v]) => leafPaths(v, [...prefix, k]))]
}

const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T))

export function setAt(root: Json, path: Path, value: Json | undefined): Json {
  if (path.length === 0) return value
  const copy = clone(root) as Record<string | number, Json>
  let node = copy
  for (const seg of path.slice(0, -1)) {
    const next = node[seg]
    if (next === null || typeof next !== 'object') return copy
    node = next as Record<string | number, Json>
  }
  const last = path.at(-1) as string | number
  if (value === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1)
    else delete node[last]
  } else if (last === '__proto__')
    Object.defineProperty(node, last, { value, enumerable: true, writable: true })
  else node[last] = value
  return copy
}

/**
 * Every single-rule break of one valid body: each field dropped (the required ones first), each
 * field given each bad value, each object given hostile keys and the schema's own fields with
 * wrong values; then `extra` combinations of two or three breaks, chosen by `random`.
 */
export function mutations(
  schema: string,
  valid: Record<string, Json>,
  random: Random,
  extra: number,
): Json[] {
  const out: Json[] = []
  for (const path of leafPaths(valid)) {
    const here = path.length ? rulesAt(schema, path) : rulesAt(schema, [])
    const value = path.reduce<Json>((n, k) => (n as Record<string | number, Json>)[k], valid)
    if (path.length) {
      out.push(setAt(valid, path, undefined))
      for (const bad of badValues(here, value)) out.push(setAt(valid, path, bad))
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const key of here.required) out.push(setAt(valid, [...path, key], undefined))
      for (const key of BAD_KEYS) out.push(setAt(valid, [...path, key], random.pick(['x', 1, {}, []])))
      for (const key of here.properties)
        if (!(key in (value as object)))
          out.push(
            setAt(valid, [...path, key], random.pick(badValues(rulesAt(schema, [...path, key]), null))),
          )
    }
  }
  const singles = out.length
  // Further breaks land on the example's own fields (a broken value's insides are not worth walking),
  // the fields its schema knows at the top, and hostile top-level keys.
  const own = leafPaths(valid).filter((p) => p.length > 0)
  const others: Path[] = [
    ...rulesAt(schema, [])
      .properties.filter((k) => !(k in valid))
      .map((k) => [k]),
    ...BAD_KEYS.map((k) => [k]),
  ]
  for (let i = 0; i < extra; i++) {
    let body: Json = out[random.int(singles)]
    for (let k = 0; k < 1 + random.int(2); k++) {
      const path = random.pick(own.length && random.next() < 0.8 ? own : others)
      body = setAt(
        body,
        path,
        random.next() < 0.2 ? undefined : random.pick(badValues(rulesAt(schema, path), null)),
      )
    }
    out.push(body)
  }
  return out
}
