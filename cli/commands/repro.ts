import { readFileSync } from 'node:fs'
import type { CommandModule } from 'yargs'
import { UsageError, wholeNumber } from '../exit-codes.js'

interface Args {
  report: string
  scenario: string
  port?: number
  run: boolean
}

/**
 * `paysandbox repro REPORT SCENARIO`: a failed scenario's sandbox started again after the run
 * (issue 33), from the JSON report of `paysandbox test --reporter json --out REPORT`: the
 * scenario's configuration, the requests it had received, its clock and armed faults, as when the
 * failing step began; then the failing request as a curl command against it (or sent, with --run).
 */
export const reproCommand: CommandModule<object, Args> = {
  command: 'repro <report> <scenario>',
  describe:
    "Start a failed scenario's sandbox again from a JSON report and print (or --run) its failing request",
  builder: (y) =>
    y
      .positional('report', {
        type: 'string',
        demandOption: true,
        describe: 'The report of `paysandbox test --reporter json --out FILE`',
      })
      .positional('scenario', {
        type: 'string',
        demandOption: true,
        describe: "The failed scenario's id (as the report's summary lists it)",
      })
      .option('port', { type: 'number', describe: 'Port of the sandbox (default: any free port)' })
      .option('run', {
        type: 'boolean',
        default: false,
        describe: 'Send the failing request, print the answer and stop (default: print it and keep serving)',
      })
      .example('$0 repro report.json merchant-partial-refund', 'the sandbox, and the curl command to paste')
      .example('$0 repro report.json merchant-partial-refund --run', 'send it now and print the answer'),
  handler: async (args) => {
    await runRepro(args)
  },
}

export async function runRepro(
  args: Args,
  out: (text: string) => void = (t) => process.stdout.write(t),
): Promise<{ close(): Promise<void> }> {
  wholeNumber('port', args.port, 0, 65535)
  const { findFailure, ReproError, startReproduction } = await import('../../src/conformance/reproduction.js')
  let report: unknown
  try {
    report = JSON.parse(readFileSync(args.report, 'utf8'))
  } catch (error) {
    throw new UsageError(`cannot read the report ${args.report}: ${(error as Error).message}`)
  }
  let failure: ReturnType<typeof findFailure>
  try {
    failure = findFailure(report, args.scenario)
  } catch (error) {
    if (error instanceof ReproError) throw new UsageError(error.message)
    throw error
  }
  const repro = failure.reproduction
  const step = failure.steps.find((s) => s.status === 'failed')
  const started = await startReproduction(failure.slug, repro, args.port ?? 0)
  const lines = [
    `paysandbox repro: ${failure.slug}  ${failure.title}`,
    `failed at step ${step?.label ?? '?'}: ${(step?.message ?? '').split('\n')[0]}`,
    `sandbox: ${started.baseUrl}`,
    `  merchant_key ${repro.credentials.merchant_key}, password ${repro.credentials.password}`,
    `  clock ${new Date(repro.clock_ms).toISOString()} (virtual), ${sentAgain(repro.before)} sent again, ${repro.faults.length} fault${repro.faults.length === 1 ? '' : 's'} armed${repro.faults.length ? `: ${repro.faults.map((f) => `${f.mode}${f.match?.path ? ` ${f.match.path}` : ''}`).join(', ')}` : ''}`,
    ...(repro.notification_url ? [`  callbacks go to ${repro.notification_url}`] : []),
    started.curl
      ? `reproduce:\n  ${started.curl}`
      : 'the failing step made no request: the sandbox is in the state it began from',
  ]
  out(`${lines.join('\n')}\n`)
  if (args.run && started.curl) {
    const answer = await started.send()
    out(`answer: HTTP ${answer.status}\n${answer.body}\n`)
    await started.close()
    return started
  }
  if (args.run) {
    await started.close()
    return started
  }
  out('serving until Ctrl-C\n')
  const stop = () => void started.close().then(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  return {
    close: async () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      await started.close()
    },
  }
}

/** `3 earlier requests`, `1 earlier request and 2 payer actions`: what a reproduction sent again. */
function sentAgain(before: { door?: 'in-process' }[]): string {
  const payer = before.filter((r) => r.door === 'in-process').length
  const requests = before.length - payer
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  return `${plural(requests, 'earlier request')}${payer ? ` and ${plural(payer, 'payer action')}` : ''}`
}
