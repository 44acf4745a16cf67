import { type ParseArgsConfig, parseArgs } from 'node:util'

type Options = NonNullable<ParseArgsConfig['options']>
type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; tokens: true; strict: true; allowPositionals: false }>
>

/**
 * A command's options read by node's parseArgs for cli/main.ts's fast paths (no yargs at start-up),
 * or undefined for anything parseArgs would not read exactly as yargs does, which then goes to
 * yargs: an unknown option or a positional (parseArgs refuses them), a single option given twice
 * (yargs makes an array of it), an empty value (`--config=`), `--no-x` negations.
 */
export function readFastOptions<O extends Options>(
  args: string[],
  options: O,
): Parsed<O>['values'] | undefined {
  let parsed: Parsed<O>
  try {
    parsed = parseArgs({ args, options, tokens: true, strict: true, allowPositionals: false })
  } catch {
    return undefined
  }
  const seen = new Set<string>()
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || token.value === '') return undefined
    if (seen.has(token.name) && !options[token.name]?.multiple) return undefined
    seen.add(token.name)
  }
  return parsed.values
}
