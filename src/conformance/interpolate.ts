/**
 * Scenario values: `${name}` refers to a value captured by an earlier step (or a scenario
 * variable); a JSONPath-lite (`$.a.b[0]['c-d']`, `$.items[*].id`, `$.length()` not supported)
 * reads a value out of a step's result.
 */

export type Vars = Record<string, unknown>

const WHOLE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/
const ANY = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g

/** A name used before it has a value: the runner reports it at the step, naming the variable. */
export class UnknownVariableError extends Error {
  constructor(readonly variable: string) {
    super(`\${${variable}} has no value yet: capture it in an earlier step or declare it in "variables".`)
  }
}

/**
 * Replaces every `${name}` in the strings of a JSON value. A string that is exactly one `${name}`
 * takes the captured value as it is (a number stays a number); inside a longer string the value
 * is written as text.
 */
export function interpolate<T>(value: T, vars: Vars): T {
  if (typeof value === 'string') return interpolateString(value, vars) as T
  if (Array.isArray(value)) return value.map((item) => interpolate(item, vars)) as T
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value))
      out[interpolateString(key, vars) as string] = interpolate(item, vars)
    return out as T
  }
  return value
}

function interpolateString(text: string, vars: Vars): unknown {
  const whole = WHOLE.exec(text)
  if (whole) return lookup(vars, whole[1] as string)
  return text.replace(ANY, (_, name: string) => {
    const found = lookup(vars, name)
    return typeof found === 'string' ? found : JSON.stringify(found)
  })
}

function lookup(vars: Vars, name: string): unknown {
  if (!Object.hasOwn(vars, name) || vars[name] === undefined) throw new UnknownVariableError(name)
  return vars[name]
}

/** The names a value refers to, in order of appearance (load-time checks). */
export function referencedNames(value: unknown): string[] {
  return [...JSON.stringify(value ?? null).matchAll(ANY)].map((m) => m[1] as string)
}

type Segment = { key: string } | { index: number } | { wildcard: true }

/** A malformed path: scenarios are validated at load, so this names the path for the author. */
export class JsonPathError extends Error {}

const cache = new Map<string, Segment[]>()

export function parsePath(path: string): Segment[] {
  const known = cache.get(path)
  if (known) return known
  if (!path.startsWith('$')) throw new JsonPathError(`JSONPath "${path}" must start with $`)
  const segments: Segment[] = []
  let i = 1
  while (i < path.length) {
    const c = path[i]
    if (c === '.') {
      const m = /^[^.[\]]+/.exec(path.slice(i + 1))
      if (!m) throw new JsonPathError(`JSONPath "${path}": a name is expected after "." at ${i}`)
      segments.push(m[0] === '*' ? { wildcard: true } : { key: m[0] })
      i += 1 + m[0].length
    } else if (c === '[') {
      const rest = path.slice(i)
      const m = /^\[(?:(\d+)|\*|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\]/.exec(rest)
      if (!m) throw new JsonPathError(`JSONPath "${path}": malformed brackets at ${i}`)
      if (m[1] !== undefined) segments.push({ index: Number(m[1]) })
      else if (m[2] !== undefined || m[3] !== undefined)
        segments.push({ key: (m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1') })
      else segments.push({ wildcard: true })
      i += m[0].length
    } else throw new JsonPathError(`JSONPath "${path}": unexpected "${c}" at ${i}`)
  }
  cache.set(path, segments)
  return segments
}

/**
 * Every value the path selects (one, or several through `[*]`). A missing key selects nothing.
 * Keys are looked up as own properties only, so `__proto__` never reaches a prototype.
 */
export function selectAll(data: unknown, path: string): unknown[] {
  let current: unknown[] = [data]
  for (const segment of parsePath(path)) {
    const next: unknown[] = []
    for (const value of current) {
      if (value === null || typeof value !== 'object') continue
      if ('wildcard' in segment) next.push(...(Array.isArray(value) ? value : Object.values(value)))
      else if ('index' in segment) {
        if (Array.isArray(value) && segment.index < value.length) next.push(value[segment.index])
        else if (!Array.isArray(value) && Object.hasOwn(value, String(segment.index)))
          next.push((value as Record<string, unknown>)[String(segment.index)])
      } else if (Object.hasOwn(value, segment.key)) next.push((value as Record<string, unknown>)[segment.key])
    }
    current = next
  }
  return current
}

/** The first value the path selects, or undefined. */
export const select = (data: unknown, path: string): unknown => selectAll(data, path)[0]

export const exists = (data: unknown, path: string): boolean => selectAll(data, path).length > 0
