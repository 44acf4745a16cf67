import '../schema-files.js'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { errorCatalogue } from '../core/engine/errors.js'
import { formatFieldError, SCHEMA_BASE, schemaRegistry, validate } from '../core/validation/index.js'
import { PACKAGE_ROOT } from '../package-root.js'
import { referencedNames } from './interpolate.js'
import type { LoadedScenario, ScenarioData, Step } from './types.js'

/** The bundled scenarios, scenarios/ of the package. */
export const BUNDLED_SCENARIOS = join(PACKAGE_ROOT, 'scenarios')

/** A scenario file that cannot run: every problem names the file and, where it lies, the step. */
export class ScenarioLoadError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file}:\n${problems.map((p) => `  ${p}`).join('\n')}`)
  }
}

const SCHEMA = 'sandbox/scenario'
type StepBranches = { Step: { oneOf: { properties: { step: { const: string } } }[] } }
const STEP_BRANCHES = (
  (schemaRegistry().schema(SCHEMA)?.$defs ?? { Step: { oneOf: [] } }) as StepBranches
).Step.oneOf.map((b) => b.properties.step.const)

/** Names every scenario has, and the names steps capture without being told (docs/conformance.md). */
const PREDEFINED = ['run_id', 'scenario']
const AUTO_CAPTURED: Record<string, string[]> = {
  'merchant.start': ['order_number', 'payment_id', 'trans_id', 'token', 'redirect_url'],
  'payer.card': ['payment_id'],
}

const stepLabel = (steps: unknown[], i: number) => {
  const step = steps[i] as { step?: unknown; name?: unknown } | undefined
  const kind = typeof step?.step === 'string' ? step.step : '?'
  return `step ${i + 1} (${kind}${typeof step?.name === 'string' ? ` "${step.name}"` : ''})`
}

/**
 * Reads one file: JSON, schema, then the checks a schema cannot make. `checked: false` is for
 * the bundled scenarios only (`loadScenarios`): the package's own files, which the test suite
 * loads with every check (test/conformance/load.test.ts); checking them again at every start cost
 * the kit about half a second (compiling and running the scenario schema over 200 files).
 */
export function loadScenarioFile(
  file: string,
  { checked = true }: { checked?: boolean } = {},
): LoadedScenario {
  const shown = relative(process.cwd(), file) || file
  let data: unknown
  try {
    data = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    throw new ScenarioLoadError(shown, [`cannot be read as JSON: ${reason}`])
  }
  const scenario = data as ScenarioData
  if (checked) {
    const problems = schemaProblems(data)
    if (problems.length) throw new ScenarioLoadError(shown, problems)
    const more = semanticProblems(scenario)
    if (more.length) throw new ScenarioLoadError(shown, more)
  }
  return { slug: basename(file).replace(/\.json$/, ''), file: shown, scenario }
}

function schemaProblems(data: unknown): string[] {
  const result = validate(SCHEMA, data)
  if (result.valid) return []
  const steps = Array.isArray((data as { steps?: unknown })?.steps)
    ? (data as { steps: unknown[] }).steps
    : []
  const out: string[] = []
  for (const error of result.errors) {
    const at = /^steps\[(\d+)\](.*)$/.exec(error.path)
    if (!at) {
      out.push(formatFieldError(error))
      continue
    }
    const i = Number(at[1])
    const label = stepLabel(steps, i)
    const branch = STEP_BRANCHES.indexOf(String((steps[i] as { step?: unknown })?.step))
    if (at[2] === '' && branch >= 0) {
      // "not valid for its kind": the kind's own branch says which field and why.
      const detail = validate(
        `${SCHEMA_BASE}sandbox/scenario.schema.json#/$defs/Step/oneOf/${branch}`,
        steps[i],
      )
      for (const e of detail.errors) out.push(`${label}: ${formatFieldError(e)}`)
      if (detail.errors.length) continue
    }
    // An unknown kind has no branch to explain it: its own `step` error says what is wrong.
    if (at[2] === '' && result.errors.some((e) => e.path === `steps[${i}].step`)) continue
    const field = at[2]?.replace(/^\./, '') ?? ''
    out.push(`${label}: ${field ? `${field}: ` : ''}${error.message}`)
  }
  return out
}

function semanticProblems(scenario: ScenarioData): string[] {
  const out: string[] = []
  const known = new Set([...PREDEFINED, ...Object.keys(scenario.variables ?? {})])
  const registry = schemaRegistry()
  const errors = errorCatalogue()
  scenario.steps.forEach((step: Step, i) => {
    const label = stepLabel(scenario.steps, i)
    const { capture, ...rest } = step as Step & { capture?: Record<string, string> }
    // A start step knows its order number before it sends, so its own expectation may use it.
    if (step.step === 'merchant.start') known.add('order_number')
    for (const name of referencedNames(rest))
      if (!known.has(name)) out.push(`${label}: \${${name}} is used before any step captures it`)
    for (const name of [...Object.keys(capture ?? {}), ...(AUTO_CAPTURED[step.step] ?? [])]) known.add(name)
    const expectation = (step as { expect?: { error?: string; schema?: string } }).expect
    if (expectation?.error && !errors.has(expectation.error))
      out.push(`${label}: expect.error "${expectation.error}" is not a row of schemas/catalogue/errors.json`)
    for (const schema of [expectation?.schema, (step as { schema?: string }).schema]) {
      if (!schema) continue
      try {
        registry.validator(schema)
      } catch {
        out.push(`${label}: schema "${schema}" is not a schema under schemas/`)
      }
    }
  })
  return out
}

/** Every `.json` file of the given files and directories (a directory: its files, sorted). */
export function scenarioFiles(paths: string[]): string[] {
  const out: string[] = []
  for (const path of paths) {
    const full = resolve(path)
    let stat: ReturnType<typeof statSync>
    try {
      stat = statSync(full)
    } catch {
      throw new ScenarioLoadError(path, ['no such file or directory'])
    }
    if (stat.isDirectory())
      out.push(
        ...readdirSync(full)
          .filter((f) => f.endsWith('.json'))
          .sort()
          .map((f) => join(full, f)),
      )
    else out.push(full)
  }
  return out
}

/**
 * Loads every scenario; collects every file's problems instead of stopping at the first. A file
 * of the bundled directory is the package's own and loads unchecked (`loadScenarioFile`) unless
 * `checked` is set; any other file is checked.
 */
export function loadScenarios(
  paths: string[] = [BUNDLED_SCENARIOS],
  { checked = false }: { checked?: boolean } = {},
): {
  scenarios: LoadedScenario[]
  errors: ScenarioLoadError[]
} {
  const scenarios: LoadedScenario[] = []
  const errors: ScenarioLoadError[] = []
  const slugs = new Map<string, string>()
  for (const file of scenarioFiles(paths)) {
    try {
      const loaded = loadScenarioFile(file, { checked: checked || dirname(file) !== BUNDLED_SCENARIOS })
      const clash = slugs.get(loaded.slug)
      if (clash)
        throw new ScenarioLoadError(loaded.file, [
          `has the same name as ${clash}: scenario names must be unique`,
        ])
      slugs.set(loaded.slug, loaded.file)
      scenarios.push(loaded)
    } catch (error) {
      if (error instanceof ScenarioLoadError) errors.push(error)
      else throw error
    }
  }
  return { scenarios, errors }
}
