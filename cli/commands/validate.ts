import { readFileSync } from 'node:fs'
import type { CommandModule } from 'yargs'
import { EXIT, UsageError } from '../exit-codes.js'
import { parseJson } from '../../src/core/validation/json-syntax.js'
import { closest } from '../suggest.js'

interface Args {
  kind: string
  file: string
  json: boolean
}

/** `paysandbox validate <kind> <file>`: checks a payload before a merchant sends it (or after receiving it). */
export const validateCommand: CommandModule<object, Args> = {
  command: 'validate <kind> <file>',
  describe: 'Check a payload (JSON file, or - for stdin) against the interface',
  builder: (y) =>
    y
      .positional('kind', {
        type: 'string',
        demandOption: true,
        describe:
          'What the payload is: session, s2s-card, callback-checkout, ... (see below), or a schema path',
      })
      .positional('file', {
        type: 'string',
        demandOption: true,
        describe: 'JSON file to check, or - for stdin',
      })
      .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON' })
      .example('$0 validate session examples/order.json', 'check a Checkout session request')
      .example('cat examples/order.json | $0 validate session -', 'the same, from standard input')
      .example(
        '$0 validate s2s-card examples/sale.json',
        'check an S2S CARD form (action chosen from the file)',
      )
      .example('$0 validate methods/awcc params.json', 'check parameters.awcc against its schema')
      .epilogue(
        'Kinds: session, session-token, session-update, hpf-purchase, hpf-debit, credit, capture, void, refund, recurring, ' +
          'retry, status, s2s-card, s2s-apm, callback-checkout, callback-s2s-card, callback-s2s-apm, redirect, ' +
          'config, scenario, merchant-adapter, protocol-mapping, error-response; or any schema path under schemas/.\nExit codes: 0 valid, 1 invalid, 2 usage (unknown kind, file unreadable or not JSON).',
      ),
  handler: (args) => runValidate(args),
}

/** The command itself (cli/main.ts calls it without yargs for `validate <kind> <file|->`). */
export async function runValidate(args: Args): Promise<void> {
  await import('../../src/schema-files.js')
  const { findKind, validate, formatFieldError, PAYLOAD_KINDS } = await import(
    '../../src/core/validation/index.js'
  )
  const kind = findKind(args.kind)
  if (!kind) {
    const near = closest(
      args.kind,
      PAYLOAD_KINDS.map((k) => k.name),
    )
    throw new UsageError(
      `Unknown kind "${args.kind}".${near ? ` Did you mean "${near}"?` : ''} Run \`paysandbox validate --help\` for the list.`,
    )
  }
  // yargs hands `-` over as an empty string.
  if (args.file === '' && process.argv.includes('-')) args.file = '-'
  const text = readInput(args.file)
  let data: unknown
  try {
    data = parseJson(text)
  } catch (error) {
    // Not a payload at all: a usage error (exit 2), like a file that cannot be read.
    report(args, {
      valid: false,
      schema: null,
      // Line and column, as an editor shows them (issue 33).
      problems: [(error as Error).message],
    })
    process.exitCode = EXIT.USAGE
    return
  }
  const chosen = kind.schemaFor(data)
  if ('problem' in chosen) return report(args, { valid: false, schema: null, problems: [chosen.problem] })
  const result = validate(chosen.schema, data, { pathStyle: kind.pathStyle })
  return report(args, {
    valid: result.valid,
    schema: chosen.schema,
    problems: result.errors.map(
      (e) => `${formatFieldError(e)}${e.section ? `  [interface ${e.section}]` : ''}`,
    ),
    errors: result.errors,
  })
}

function readInput(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8')
  } catch (error) {
    throw new UsageError(
      `Cannot read ${file === '-' ? 'standard input' : file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    )
  }
}

interface Outcome {
  valid: boolean
  schema: string | null
  problems: string[]
  errors?: unknown[]
}

function report(args: Args, outcome: Outcome): void {
  if (args.json) {
    console.log(JSON.stringify({ file: args.file, kind: args.kind, ...outcome }, null, 2))
  } else if (outcome.valid) {
    console.log(`${args.file}: valid ${args.kind} (${outcome.schema})`)
  } else {
    const n = outcome.problems.length
    console.log(
      `${args.file}: ${n} problem${n === 1 ? '' : 's'}${outcome.schema ? ` (${outcome.schema})` : ''}`,
    )
    for (const p of outcome.problems) console.log(`  ${p}`)
  }
  process.exitCode = outcome.valid ? EXIT.OK : EXIT.FAILED
}
