/**
 * Where the core gets its schemas and catalogues (schemas/**): injected as data, so src/core reads
 * no files itself (docs/architecture.md). `src/schema-files.ts` installs the files of the package's
 * schemas/ folder; every entry point (the assembly, the library, the CLI, `gen`, the tests)
 * installs it before the first validation.
 */
export interface SchemaFile {
  /** Path under schemas/, with `/` separators: `checkout/session-request.schema.json`. */
  path: string
  /** The file's JSON, parsed. */
  json: unknown
}

/** A validator compiled ahead (ajv standalone code): a function with ajv's `errors` after a call. */
export interface PrecompiledValidator {
  (data: unknown): boolean
  errors?: unknown[] | null
}

export interface SchemaSource {
  files(): readonly SchemaFile[]
  /**
   * The validator of a schema (path under schemas/) compiled ahead from these very files, when the
   * source has one; the registry compiles the others itself.
   */
  precompiled?(path: string): PrecompiledValidator | undefined
}

let installed: SchemaSource | undefined
let byPath: Map<string, SchemaFile> | undefined

export function installSchemaSource(source: SchemaSource): void {
  installed = source
  byPath = undefined
}

export const schemaSourceInstalled = (): boolean => installed !== undefined

export function schemaSource(): SchemaSource {
  if (!installed)
    throw new Error(
      'paysandbox: no schema source installed. Import paysandbox (or src/assembly.ts), or call installFileSchemaSource() from src/schema-files.ts, before validating.',
    )
  return installed
}

function indexed(): Map<string, SchemaFile> {
  byPath ??= new Map(
    schemaSource()
      .files()
      .map((f) => [f.path, f]),
  )
  return byPath
}

export const hasSchemaFile = (path: string): boolean => indexed().has(path)

/** A file's JSON (the method and error catalogues), or an error naming the missing file. */
export function schemaData(path: string): unknown {
  const file = indexed().get(path)
  if (!file) throw new Error(`paysandbox: schemas/${path} is missing from the schema source`)
  return file.json
}
