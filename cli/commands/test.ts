import { createWriteStream } from 'node:fs'
import type { CommandModule } from 'yargs'
import { EXIT, UsageError, wholeNumber } from '../exit-codes.js'

interface Args {
  merchant?: string
  gateway?: string
  key?: string
  password?: string
  'control-token'?: string
  tag?: string[]
  name?: string[]
  scenarios?: string[]
  reporter?: string[]
  out?: string
  concurrency?: number
  port?: number
  'step-timeout'?: number
  verbose: boolean
}

const REPORTERS = ['live', 'plain', 'json', 'junit'] as const

/** `paysandbox test`: runs the conformance scenarios against a merchant integration or a gateway. */
export const testCommand: CommandModule<object, Args> = {
  command: 'test',
  describe: 'Run conformance scenarios against a merchant integration (--merchant) or a gateway (--gateway)',
  builder: (y) =>
    y
      .option('merchant', {
        type: 'string',
        describe: 'Merchant adapter file (docs/conformance.md): test the integration',
      })
      .option('gateway', {
        type: 'string',
        describe: 'Gateway base URL: test the gateway (default: the built-in sandbox)',
      })
      .option('key', {
        type: 'string',
        describe:
          'merchant_key / client_key for --gateway (a paysandbox needs none: the kit creates its own merchants)',
      })
      .option('password', { type: 'string', describe: 'Signing password for --gateway' })
      .option('control-token', {
        type: 'string',
        describe:
          "With --gateway: the paysandbox's control token (serve --control-token; default: $PAYSANDBOX_CONTROL_TOKEN)",
      })
      .option('tag', { type: 'string', array: true, describe: 'Only scenarios with one of these tags' })
      .option('name', {
        type: 'string',
        array: true,
        describe: 'Only scenarios whose name or title contains this',
      })
      .option('scenarios', {
        type: 'string',
        array: true,
        describe: 'Scenario files or directories (default: the bundled ones)',
      })
      .option('reporter', {
        type: 'string',
        array: true,
        choices: REPORTERS,
        describe: 'live (default in a terminal), plain (default otherwise), json, junit',
      })
      .option('out', { type: 'string', describe: 'Write the json or junit report to this file' })
      .option('concurrency', {
        type: 'number',
        describe: 'Scenarios at once (default: the CPU count; in merchant mode at least 4)',
      })
      .option('port', {
        type: 'number',
        describe: "Port of the kit's server (an external gateway sends callbacks there)",
      })
      .option('step-timeout', {
        type: 'number',
        describe: 'Seconds a step may take before it fails (default 30)',
      })
      .option('verbose', { type: 'boolean', default: false, describe: 'Plain reporter: list every step' })
      .example(
        '$0 test --merchant merchant.json',
        'test your integration with every merchant-facing scenario',
      )
      .example('$0 test --merchant merchant.json --reporter junit --out report.xml', 'for CI')
      .example('$0 test --gateway https://gw.example --key K --password P --tag refund', 'check a gateway')
      .epilogue(
        'Exit codes: 0 all passed, 1 failures, 2 usage or configuration error, 3 infrastructure (merchant or gateway unreachable, or the merchant process ended during the run).',
      ),
  handler: async (args) => {
    wholeNumber('port', args.port, 0, 65535)
    wholeNumber('concurrency', args.concurrency, 1, 1000)
    wholeNumber('step-timeout', args['step-timeout'], 1, 86400)
    // A paysandbox lets the kit create its own merchants; any other gateway needs both (runTest says so).
    if (args.gateway && !args.key !== !args.password) throw new UsageError('--key and --password go together')
    if (args.out && !(args.reporter ?? []).some((r) => r === 'json' || r === 'junit'))
      throw new UsageError('--out writes a json or junit report: add --reporter json or --reporter junit')
    const controlToken = args['control-token'] ?? process.env.PAYSANDBOX_CONTROL_TOKEN
    // The first line before the kit (engine, schemas) loads: a run shows it is alive at once. Not
    // when stdout carries a json or junit report, which must stay one document.
    const reportOnStdout = !args.out && (args.reporter ?? []).some((r) => r === 'json' || r === 'junit')
    if (!reportOnStdout)
      process.stdout.write(
        `paysandbox test: ${args.merchant ? `merchant mode, adapter ${args.merchant}` : `gateway mode against ${args.gateway ?? 'the built-in sandbox'}`}: starting\n`,
      )
    const kit = await import('../../src/conformance/index.js')
    const reporters = await makeReporters(args, kit)
    try {
      const summary = await kit.runTest({
        ...(args.merchant ? { merchantFile: args.merchant } : {}),
        ...(args.gateway
          ? {
              gateway: {
                url: args.gateway,
                key: args.key ?? '',
                password: args.password ?? '',
                ...(controlToken ? { controlToken } : {}),
              },
            }
          : {}),
        ...(args.scenarios ? { scenarioPaths: args.scenarios } : {}),
        ...(args.tag ? { tags: args.tag } : {}),
        ...(args.name ? { names: args.name } : {}),
        ...(args.concurrency ? { concurrency: args.concurrency } : {}),
        ...(args.port !== undefined ? { port: args.port } : {}),
        ...(args['step-timeout'] ? { stepTimeoutMs: args['step-timeout'] * 1000 } : {}),
        reporters: reporters.list,
        // The reported duration is the wall time of the command, start-up included.
        startedAt: 0,
      })
      await reporters.close()
      // The report outlives the run: each failure's sandbox can be started again from it (issue 33).
      if (args.out && args.reporter?.includes('json') && summary.failed) {
        const { reproCommands } = await import('../../src/conformance/reproduction.js')
        const commands = reproCommands(summary, args.out)
        if (commands.length)
          process.stderr.write(
            `reproduce a failure after the run:\n${commands.map((c) => `  ${c}\n`).join('')}`,
          )
      }
      process.exitCode = summary.infrastructure ? EXIT.INFRASTRUCTURE : summary.failed ? EXIT.FAILED : EXIT.OK
    } catch (error) {
      await reporters.close()
      if (
        error instanceof kit.ConfigurationError ||
        error instanceof kit.ScenarioLoadError ||
        error instanceof kit.AdapterError
      )
        throw new UsageError(error.message)
      if (error instanceof kit.MerchantUnreachable || error instanceof kit.GatewayUnreachable) {
        process.stderr.write(`paysandbox test: ${error.message}\n`)
        process.exitCode = EXIT.INFRASTRUCTURE
        return
      }
      throw error
    }
  },
}

type Kit = typeof import('../../src/conformance/index.js')

async function makeReporters(args: Args, kit: Kit) {
  const asked = new Set(args.reporter ?? [])
  const file = args.out ? createWriteStream(args.out) : undefined
  const toFile = (text: string) => (file ? file.write(text) : process.stdout.write(text))
  const list = []
  const interactive = Boolean(process.stdout.isTTY) && !process.env.CI
  // The terminal view only when nothing else writes to stdout; ink is loaded only then.
  if (asked.has('live') || (asked.size === 0 && interactive)) {
    const { liveReporter } = await import('../../src/conformance/reporters/live.js')
    list.push(liveReporter())
  } else if (asked.has('plain') || asked.size === 0 || (file && !asked.has('live')))
    list.push(kit.plainReporter((t) => process.stdout.write(t), { verbose: args.verbose }))
  if (asked.has('json')) list.push(kit.jsonReporter(toFile))
  if (asked.has('junit')) list.push(kit.junitReporter(toFile))
  return {
    list,
    close: () => new Promise<void>((resolve) => (file ? file.end(() => resolve()) : resolve())),
  }
}
