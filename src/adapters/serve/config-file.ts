import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { SandboxConfig } from '../../core/engine/context.js'
import { formatFieldError, validate } from '../../core/validation/index.js'
import { SCHEMAS_DIR } from '../../schema-files.js'
import { withSchemaDefaults } from '../../core/validation/defaults.js'
import { PACKAGE_ROOT } from '../../package-root.js'
import { closest } from '../../core/validation/closest.js'
import { parseJson } from '../../core/validation/json-syntax.js'
import { propertyNamesAt } from '../../core/validation/property-names.js'

/** docs/rules.md#configuration: "Without a file, a documented demo merchant is built in." */
export const DEMO_CONFIG_FILE = join(PACKAGE_ROOT, 'fixtures', 'config', 'demo.json')
const CONFIG_SCHEMA = 'sandbox/config.schema.json'

export interface LoadedConfig {
  /** Every `default` of the schema filled in. */
  config: SandboxConfig
  /** `demo`: no --config was given, the built-in demo merchant serves. */
  source: 'demo' | 'file'
  file: string
  /** Whether the file sets `base_url` itself (otherwise the address the sandbox listens on is used). */
  baseUrlGiven: boolean
}

/**
 * A configuration the sandbox cannot start with: each problem names the field, and the message
 * names where the configuration came from (`config file /path`, `createSandbox({ config })`).
 */
export class ConfigError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`${source}: ${problems.length === 1 ? problems[0] : `\n  ${problems.join('\n  ')}`}`)
    this.name = 'ConfigError'
  }
}

/** Reads, validates (schemas/sandbox/config.schema.json plus what a schema cannot say) and completes a config. */
export function loadConfig(file?: string): LoadedConfig {
  const path = resolve(file ?? DEMO_CONFIG_FILE)
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new ConfigError(`config file ${path}`, [
      code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? (error as Error).message})`,
    ])
  }
  let data: unknown
  try {
    data = parseJson(text)
  } catch (error) {
    // Line and column, as an editor shows them (issue 33), never a character offset.
    throw new ConfigError(`config file ${path}`, [(error as Error).message])
  }
  const config = checkConfig(data, `config file ${path}`)
  return {
    config,
    source: file === undefined ? 'demo' : 'file',
    file: path,
    // Asked of the file as written: the schema's default fills base_url in.
    baseUrlGiven: (data as { base_url?: unknown }).base_url !== undefined,
  }
}

/**
 * Validates a configuration (the schema, plus what a schema cannot say: unique keys and MID ids,
 * known methods) and answers it with every default filled in. `source` names it in errors.
 */
export function checkConfig(data: unknown, source: string): SandboxConfig {
  const result = validate<SandboxConfig>(CONFIG_SCHEMA, data)
  if (!result.valid)
    throw new ConfigError(
      source,
      result.errors.map(
        (e) => `${formatFieldError({ ...e, path: e.path || '(the configuration)' })}${didYouMean(e)}`,
      ),
    )
  const problems = crossChecks(result.data)
  if (problems.length) throw new ConfigError(source, problems)
  return withSchemaDefaults(CONFIG_SCHEMA, result.data)
}

/**
 * A misspelt field (issue 33): ` Did you mean "notification_url"?`, chosen from the names the
 * schema allows at that place (so it follows the schema); nothing when none is close.
 */
function didYouMean(e: { path: string; keyword?: string }): string {
  if (e.keyword !== 'additionalProperties') return ''
  const at = /^(.*?)(?:\.)?([^.[\]]+)$/.exec(e.path)
  if (!at) return ''
  const near = closest(at[2] as string, propertyNamesAt(CONFIG_SCHEMA, at[1] as string))
  return near ? ` Did you mean "${near}"?` : ''
}

/** The schema's description: "Merchant keys and MID ids must be unique; the loader checks that"; MID methods exist. */
function crossChecks(config: SandboxConfig): string[] {
  const problems: string[] = []
  const keys = new Map<string, number>()
  const mids = new Map<string, string>()
  const known = methodIds()
  const { headers_timeout: head, request_timeout: whole } = config.limits ?? {}
  // docs/rules.md#request-limits: the head is part of the request, so its time-out cannot be the longer.
  if (head !== undefined && whole !== undefined && head > whole)
    problems.push(
      `limits.headers_timeout: ${head} s is longer than limits.request_timeout (${whole} s); the head is part of the request.`,
    )
  config.merchants.forEach((merchant, m) => {
    const first = keys.get(merchant.key)
    if (first !== undefined)
      problems.push(`merchants[${m}].key: "${merchant.key}" is already the key of merchants[${first}].`)
    else keys.set(merchant.key, m)
    merchant.mids.forEach((mid, i) => {
      const where = `merchants[${m}].mids[${i}]`
      const taken = mids.get(mid.id)
      if (taken) problems.push(`${where}.id: "${mid.id}" is already the id of ${taken}.`)
      else mids.set(mid.id, where)
      mid.methods?.forEach((method, j) => {
        if (!known.has(method))
          problems.push(
            `${where}.methods[${j}]: "${method}" is not a method identifier of the interface (schemas/catalogue/methods.json).`,
          )
      })
    })
  })
  return problems
}

function methodIds(): Set<string> {
  const catalogue = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'catalogue', 'methods.json'), 'utf8')) as {
    methods: { id: string }[]
  }
  return new Set(catalogue.methods.map((m) => m.id))
}
