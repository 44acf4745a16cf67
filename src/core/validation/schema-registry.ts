import { Ajv2020, type AnySchemaObject, type Options, type ValidateFunction } from 'ajv/dist/2020.js'
import ajvFormats from 'ajv-formats'
import { addPlatformKeywords, PLATFORM_KEYWORDS } from './platform-forms.js'
import { type PrecompiledValidator, type SchemaSource, schemaSource } from '../ports/schema-source.js'

/** Every schema's $id is this prefix plus its path under `schemas/`, so relative $refs work for ajv and for file tools alike. */
export const SCHEMA_BASE = 'https://paysandbox.dev/schemas/'

/** Annotation keywords the project's schemas use; declared so ajv's strict mode stays on. */
export const SCHEMA_VOCABULARY = [
  'x-section',
  'x-rule',
  'x-messages',
  'x-requirement',
  'x-collected-on-page',
  'x-type-code',
  'x-generated',
  'x-endpoint',
  // Validation keywords of platform-forms.ts; other ajv instances (the config loader) see them as annotations.
  ...PLATFORM_KEYWORDS,
] as const

const addFormats = ajvFormats.default

/** Accepts a full $id, a path under schemas/ (`checkout/session-request.schema.json`) or that path without the suffix. */
export function resolveSchemaId(name: string): string {
  if (name.startsWith(SCHEMA_BASE)) return name
  return SCHEMA_BASE + (name.endsWith('.schema.json') ? name : `${name}.schema.json`)
}

export interface SchemaRegistry {
  readonly ajv: Ajv2020
  ids(): string[]
  schema(id: string): AnySchemaObject | undefined
  validator(id: string): ValidateFunction
}

/**
 * Loads every schema file once; validators compile on first use and are cached by ajv, so a
 * command that checks one payload compiles only what that payload needs.
 */
export function createSchemaRegistry(
  source: SchemaSource = schemaSource(),
  /** More ajv options: the build's standalone validators need `code.source`. */
  extra: Options = {},
): SchemaRegistry {
  const raw = new Map<string, AnySchemaObject>()
  const precompiled = new Map<string, PrecompiledValidator | null>()
  for (const file of source.files()) {
    if (!file.path.endsWith('.schema.json')) continue
    const schema = file.json as AnySchemaObject
    const expected = SCHEMA_BASE + file.path
    if (schema.$id !== expected) {
      throw new Error(`schemas/${file.path}: $id must be ${expected} (found ${String(schema.$id)})`)
    }
    raw.set(expected, schema)
  }
  // ajv only once something is compiled: a start that uses only validators compiled ahead (serve's
  // configuration) skips it (issue 15). A validator gets the schemas its $refs reach, not all 190
  // (`validate` compiles one); `.ajv` itself, for callers that look schemas up, gets them all.
  let instance: Ajv2020 | undefined
  const added = new Set<string>()
  const addWithRefs = (id: string): void => {
    if (added.has(id)) return
    const schema = raw.get(id)
    if (!schema) return
    added.add(id)
    setup().addSchema(schema)
    for (const ref of refsOf(schema)) addWithRefs(new URL(ref, id).href.split('#')[0] as string)
  }
  const ajv = (): Ajv2020 => {
    for (const id of raw.keys()) addWithRefs(id)
    return setup()
  }
  const setup = (): Ajv2020 => {
    if (instance) return instance
    // validateSchema off: checking 190 files against the 2020-12 meta-schema at every start cost
    // about a quarter of a second (issue 15); test/schemas/meta-schema.test.ts checks them in CI.
    instance = new Ajv2020({
      allErrors: true,
      strict: true,
      allowUnionTypes: true,
      verbose: true,
      validateSchema: false,
      ...extra,
    })
    addFormats(instance)
    instance.addVocabulary(
      SCHEMA_VOCABULARY.filter((k) => !(PLATFORM_KEYWORDS as readonly string[]).includes(k)),
    )
    addPlatformKeywords(instance)
    return instance
  }
  return {
    get ajv() {
      return ajv()
    },
    ids: () => [...raw.keys()],
    schema: (id) => raw.get(resolveSchemaId(id)),
    validator(id) {
      const full = resolveSchemaId(id)
      // Asked of the source once per schema (it looks for a file): validation is on every request's path.
      let ahead = precompiled.get(full)
      if (ahead === undefined) {
        ahead = source.precompiled?.(full.slice(SCHEMA_BASE.length)) ?? null
        precompiled.set(full, ahead)
      }
      if (ahead) return ahead as ValidateFunction
      addWithRefs(full)
      const fn = setup().getSchema(full)
      if (!fn) throw new Error(`Unknown schema ${id}. Known: ${[...raw.keys()].join(', ')}`)
      return fn
    },
  }
}

/** Every `$ref` string in a schema document. */
function refsOf(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refsOf(item, out)
  else if (node && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value)
      else refsOf(value, out)
    }
  return out
}

let shared: SchemaRegistry | undefined

/** The process-wide registry (schemas are read once per process). */
export function schemaRegistry(): SchemaRegistry {
  shared ??= createSchemaRegistry()
  return shared
}
