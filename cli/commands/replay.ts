import type { CommandModule } from 'yargs'
import { EXIT, UsageError } from '../exit-codes.js'

interface Args {
  files: string[]
  config?: string
  gateway?: string
  json: boolean
  console: boolean
  export?: string
  verbose: boolean
}

/**
 * `paysandbox replay FILE...`: a merchant's captured traffic (HAR 1.2, or a JSON-lines log of its
 * HTTP client) sent again to a fresh sandbox with the merchant's configuration, step by step,
 * with the differences (docs/replay.md). The console (ink) loads only with --console.
 */
export const replayCommand: CommandModule<object, Args> = {
  command: 'replay <files..>',
  describe: "Replay a merchant's captured traffic (HAR or JSON lines) against a fresh sandbox, step by step",
  builder: (y) =>
    y
      .positional('files', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'A HAR 1.2 file or a JSON-lines log (several: merged by time)',
      })
      .option('config', {
        type: 'string',
        describe:
          "The sandbox configuration with the merchant's key and password (default: the demo merchant)",
      })
      .option('gateway', {
        type: 'string',
        describe: "The gateway's base URL in the capture, when it cannot be told from it",
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'Print {"steps": [...], "differences": N} as JSON',
      })
      .option('console', {
        type: 'boolean',
        default: false,
        describe: 'Step through the replay in the terminal UI',
      })
      .option('export', {
        type: 'string',
        describe: 'Also write the replayed order(s) as a conformance scenario',
      })
      .option('verbose', {
        type: 'boolean',
        default: false,
        describe: 'Show both answers of every step that differs',
      })
      .example('$0 replay shop.har --config shop-config.json', 'what differs, step by step')
      .example(
        '$0 replay shop-client.jsonl browser.har --config shop-config.json',
        'a shop log and a browser capture, merged by time',
      )
      .example(
        '$0 replay shop.har --config shop-config.json --export order.json',
        'and keep it as a scenario',
      )
      .epilogue(
        'Exit codes: 0 no difference, 1 differences, 2 usage (a file that cannot be read, is not a capture, names an unknown host or merchant).',
      ),
  handler: (args) => runReplayCommand(args),
}

export async function runReplayCommand(args: Args): Promise<void> {
  // yargs counts a boolean's default as given, so its `conflicts` cannot tell these apart.
  if (args.json && args.console) throw new UsageError('--json and --console go to one place each: choose one')
  const replay = await import('../../src/replay/index.js')
  let result: Awaited<ReturnType<typeof replay.runReplay>>
  try {
    result = await replay.runReplay({
      files: args.files,
      ...(args.config !== undefined ? { config: args.config } : {}),
      ...(args.gateway !== undefined ? { gateway: args.gateway } : {}),
    })
  } catch (error) {
    if (error instanceof replay.ReplayInputError) throw new UsageError(error.message)
    throw error
  }
  const { report, sandbox } = result
  try {
    if (args.export) {
      const written = await replay.exportReplay(report, sandbox, args.export)
      for (const w of written)
        process.stderr.write(
          `paysandbox replay: wrote ${w.file}: order ${w.order} as a scenario (${w.steps} steps)\n`,
        )
      if (!written.length) process.stderr.write('paysandbox replay: no order was made: nothing to export\n')
    }
  } finally {
    sandbox.stop()
  }
  if (args.console) {
    if (!process.stdin.isTTY)
      throw new UsageError('paysandbox replay --console needs an interactive terminal')
    process.env.CI = 'false'
    const { runReplayConsole } = await loadConsole()
    await runReplayConsole(report)
  } else if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  else process.stdout.write(replay.reportText(report, args.verbose))
  process.exitCode = report.differences > 0 ? EXIT.FAILED : EXIT.OK
}

/** The console's bundle (as `tui` loads it: dist/src/ui/run.bundle.js, beside this file's bundle's depth). */
async function loadConsole(): Promise<typeof import('../../src/ui/run.js')> {
  return import(new URL('../../src/ui/run.bundle.js', import.meta.url).href)
}
