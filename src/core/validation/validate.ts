import type { AnySchemaObject, ErrorObject } from 'ajv'
import { isRuleId, type RuleId } from '../engine/rules.js'
import { messageFor } from './messages.js'
import { resolveSchemaId, type SchemaRegistry, schemaRegistry } from './schema-registry.js'
import type { FieldError } from './field-error.js'

export { type FieldError, formatFieldError } from './field-error.js'

/** `dot`: Checkout JSON (`order.amount`, `cart.items[0].name`); `bracket`: S2S forms (`mpi_data[eci]`). */
export type PathStyle = 'dot' | 'bracket'

export interface ValidationResult<T> {
  valid: boolean
  data: T
  errors: FieldError[]
}

export interface ValidateOptions {
  pathStyle?: PathStyle
  registry?: SchemaRegistry
}

export function validate<T = unknown>(
  schema: string,
  data: unknown,
  options: ValidateOptions = {},
): ValidationResult<T> {
  const registry = options.registry ?? schemaRegistry()
  const fn = registry.validator(schema)
  if (fn(data)) return { valid: true, data: data as T, errors: [] }
  const root = registry.schema(resolveSchemaId(schema)) ?? {}
  const errors = toFieldErrors(fn.errors ?? [], root, registry, options.pathStyle ?? 'dot')
  return { valid: false, data: data as T, errors }
}

function toFieldErrors(
  raw: ErrorObject[],
  root: AnySchemaObject,
  registry: SchemaRegistry,
  style: PathStyle,
): FieldError[] {
  // A failed anyOf/oneOf reports every branch too; keep the summary, which carries the message.
  const combinators = raw
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .map((e) => e.schemaPath)
  const seen = new Set<string>()
  const out: FieldError[] = []
  // One message per field: its own rule first, cross-field rules (if/then) only when it has no other problem.
  // A failed anyOf/oneOf carries the designed message for its field: it goes before its branches' errors.
  const rank = (e: ErrorObject) =>
    (e.schemaPath.includes('/then/') ? 2 : 0) - (e.keyword === 'anyOf' || e.keyword === 'oneOf' ? 1 : 0)
  const ordered = [...raw].sort((a, b) => rank(a) - rank(b))
  for (const e of ordered) {
    if (e.keyword === 'if') continue
    if (combinators.some((c) => e.schemaPath.startsWith(`${c}/`))) continue
    const segments = pointerSegments(e.instancePath)
    const p = e.params as Record<string, unknown>
    if (e.keyword === 'required' || e.keyword === 'dependentRequired')
      segments.push(String(p.missingProperty))
    if (e.keyword === 'additionalProperties') segments.push(String(p.additionalProperty))
    if (e.keyword === 'unevaluatedProperties') segments.push(String(p.unevaluatedProperty))
    if (e.keyword === 'propertyNames') segments.push(String(p.propertyName))
    const path = formatPath(segments, style)
    const message = messageFor(e)
    if (seen.has(path)) continue
    seen.add(path)
    out.push({
      path,
      message,
      keyword: e.keyword,
      rule: ruleOf(e),
      section: sectionFor(root, segments, registry),
    })
  }
  return out
}

/**
 * The rule a failed keyword applies: a missing or empty field is a required field's, a field the request
 * does not take an unexpected one's, whatever the field; otherwise the `x-rule` of the schema the
 * keyword failed in (`Amount`: docs/rules.md#amounts, `YesNo`: #booleans, `session_expiry`:
 * #session-expiry), the rule a platform keyword names, a JSON type of a boolean or a number
 * (#booleans), else the field's format (#field-formats).
 */
function ruleOf(e: ErrorObject): RuleId {
  const blank = e.keyword === 'minLength' && (e.params as { limit?: unknown }).limit === 1
  if (e.keyword === 'required' || e.keyword === 'dependentRequired' || blank) return 'required-fields'
  if (['additionalProperties', 'unevaluatedProperties', 'propertyNames'].includes(e.keyword))
    return 'unexpected-fields'
  const annotated = (e.parentSchema as { 'x-rule'?: unknown } | undefined)?.['x-rule']
  if (typeof annotated === 'string' && isRuleId(annotated)) return annotated
  const named = (e.params as { rule?: unknown }).rule
  if (typeof named === 'string' && isRuleId(named)) return named
  if (e.keyword === 'type' && /boolean|integer|number/.test(String((e.params as { type?: unknown }).type)))
    return 'booleans'
  return 'field-formats'
}

function pointerSegments(pointer: string): string[] {
  if (!pointer) return []
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
}

export function formatPath(segments: string[], style: PathStyle): string {
  let out = ''
  for (const s of segments) {
    const index = /^\d+$/.test(s)
    if (style === 'bracket') out += out ? `[${s}]` : s
    else out += index ? `[${s}]` : out ? `.${s}` : s
  }
  return out
}

/** The deepest `x-section` met while following the field's path through the schema. */
function sectionFor(root: AnySchemaObject, segments: string[], registry: SchemaRegistry): string {
  let section = typeof root['x-section'] === 'string' ? root['x-section'] : ''
  let node: AnySchemaObject | undefined = deref(root, root.$id, registry)
  let base: string | undefined = root.$id
  for (const seg of segments) {
    if (!node) break
    const found = childOf(node, seg, base, registry)
    if (!found) break
    const { child: next } = found
    base = found.base
    if (typeof next['x-section'] === 'string') section = next['x-section']
    if (typeof next.$ref === 'string') base = new URL(next.$ref, base).href.split('#')[0]
    node = deref(next, base, registry)
    if (node && typeof node['x-section'] === 'string') section = node['x-section']
  }
  return section
}

function childOf(
  node: AnySchemaObject,
  seg: string,
  base: string | undefined,
  registry: SchemaRegistry,
): { child: AnySchemaObject; base: string | undefined } | undefined {
  const direct = node.properties?.[seg] ?? (/^\d+$/.test(seg) ? node.items : undefined)
  if (direct && typeof direct === 'object') return { child: direct as AnySchemaObject, base }
  for (const raw of [
    ...(node.allOf ?? []),
    ...(node.anyOf ?? []),
    ...(node.oneOf ?? []),
  ] as AnySchemaObject[]) {
    // A branch may be a $ref to another file (a request that extends another): follow it.
    const branchBase = typeof raw.$ref === 'string' ? new URL(raw.$ref, base).href.split('#')[0] : base
    const branch = deref(raw, base, registry)
    const found = branch.properties?.[seg] ?? branch.then?.properties?.[seg]
    if (found) return { child: found as AnySchemaObject, base: branchBase }
  }
  return undefined
}

function deref(node: AnySchemaObject, base: string | undefined, registry: SchemaRegistry): AnySchemaObject {
  let current = node
  for (let i = 0; i < 8 && typeof current.$ref === 'string'; i++) {
    const target = new URL(current.$ref, base).href
    const resolved = registry.ajv.getSchema(target)?.schema
    if (!resolved || typeof resolved !== 'object') break
    current = resolved as AnySchemaObject
  }
  return current
}
