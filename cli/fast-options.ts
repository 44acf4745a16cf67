import { type ParseArgsConfig, parseArgs } from 'node:util'

/**
 * A command's option, declared once: the command's yargs builder takes the table as it is
 * (`y.options(TABLE)`), and cli/main.ts's fast path reads the same table with node's parseArgs.
 */
export interface OptionSpec {
  type: 'string' | 'boolean' | 'number'
  describe: string
  array?: true
  default?: string
}

type ParseArgsOptions<O extends Record<string, OptionSpec>> = {
  [K in keyof O]: O[K]['type'] extends 'boolean'
    ? { type: 'boolean' }
    : O[K]['array'] extends true
      ? { type: 'string'; multiple: true }
      : { type: 'string' }
}
type Parsed<O extends NonNullable<ParseArgsConfig['options']>> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; tokens: true; strict: true; allowPositionals: false }>
>

/** The table as parseArgs options: numbers are read as strings (the caller converts them). */
function parseArgsOptions<O extends Record<string, OptionSpec>>(specs: O): ParseArgsOptions<O> {
  return Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [
      name,
      spec.type === 'boolean'
        ? { type: 'boolean' }
        : { type: 'string', ...(spec.array ? { multiple: true } : {}) },
    ]),
  ) as ParseArgsOptions<O>
}

/**
 * A command's options read by node's parseArgs for cli/main.ts's fast paths (no yargs at start-up),
 * or undefined for anything parseArgs would not read exactly as yargs does, which then goes to
 * yargs: an unknown option or a positional (parseArgs refuses them), a single option given twice
 * (yargs makes an array of it), an empty value (`--config=`), `--no-x` negations.
 */
export function readFastOptions<O extends Record<string, OptionSpec>>(
  args: string[],
  specs: O,
): Parsed<ParseArgsOptions<O>>['values'] | undefined {
  const options = parseArgsOptions(specs)
  let parsed: Parsed<ParseArgsOptions<O>>
  try {
    parsed = parseArgs({ args, options, tokens: true, strict: true, allowPositionals: false })
  } catch {
    return undefined
  }
  const seen = new Set<string>()
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || token.value === '') return undefined
    if (seen.has(token.name) && !specs[token.name]?.array) return undefined
    seen.add(token.name)
  }
  return parsed.values
}
