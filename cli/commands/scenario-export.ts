import { writeFile } from 'node:fs/promises'
import type { CommandModule } from 'yargs'
import { EXIT, UsageError } from '../exit-codes.js'

export interface ScenarioExportArgs {
  order: string
  out?: string
  url: string
  merchant?: string
  'control-token'?: string
}

/**
 * `paysandbox scenario export --order ID --out FILE`: an order a running sandbox observed, as a
 * conformance scenario (GET /sandbox/orders/{order_id}/scenario, docs/replay.md) that `paysandbox
 * test --merchant ADAPTER --scenarios FILE` runs. Only fetch and the file system: no engine loads.
 */
export const scenarioExportCommand: CommandModule<object, ScenarioExportArgs> = {
  command: 'export',
  describe: 'Write an order the sandbox observed as a conformance scenario',
  builder: (y) =>
    y
      .option('order', {
        type: 'string',
        demandOption: true,
        describe: 'The order number (order.number, order_id)',
      })
      .option('out', {
        type: 'string',
        describe: 'Write the scenario to this file (default: standard output)',
      })
      .option('url', {
        type: 'string',
        default: 'http://localhost:8080',
        describe: 'The running sandbox (paysandbox serve)',
      })
      .option('merchant', {
        type: 'string',
        describe: "The merchant's key, when several merchants have an order with that number",
      })
      .option('control-token', {
        type: 'string',
        describe:
          'The control token of a sandbox served with --control-token (default: $PAYSANDBOX_CONTROL_TOKEN)',
      })
      .example('$0 scenario export --order 1001 --out order-1001.json', 'the order as a scenario')
      .example(
        '$0 test --merchant merchant.json --scenarios order-1001.json',
        'then: replay it against the merchant, to keep it fixed',
      )
      .epilogue(
        'Exit codes: 0 written, 2 usage (unknown order, bad option, file not writable), 3 the sandbox could not be reached.',
      ),
  handler: (args) => runScenarioExport(args),
}

export async function runScenarioExport(args: ScenarioExportArgs): Promise<void> {
  if (!/^https?:\/\/[^\s/]+/.test(args.url))
    throw new UsageError(`--url must be an http(s) address such as http://localhost:8080, got "${args.url}"`)
  if (!args.order.trim()) throw new UsageError('--order must name an order')
  const token = args['control-token'] ?? process.env.PAYSANDBOX_CONTROL_TOKEN
  const base = args.url.replace(/\/+$/, '')
  const query = args.merchant ? `?merchant=${encodeURIComponent(args.merchant)}` : ''
  const url = `${base}/sandbox/orders/${encodeURIComponent(args.order)}/scenario${query}`
  let response: Response
  try {
    response = await fetch(url, {
      headers: token ? { 'x-sandbox-control-token': token } : {},
      signal: AbortSignal.timeout(30_000),
    })
  } catch (error) {
    process.stderr.write(`paysandbox scenario export: ${base} is not answering (${reason(error)})\n`)
    process.exitCode = EXIT.INFRASTRUCTURE
    return
  }
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    process.stderr.write(
      `paysandbox scenario export: ${base} answered HTTP ${response.status} with no JSON: is it a paysandbox?\n`,
    )
    process.exitCode = EXIT.INFRASTRUCTURE
    return
  }
  if (!response.ok) {
    const b = body as { error_message?: string; errors?: { error_message?: string }[] }
    const detail = [b.error_message, ...(b.errors ?? []).map((e) => e.error_message)]
      .filter(Boolean)
      .join(' ')
    throw new UsageError(
      `order ${args.order}${args.merchant ? ` of ${args.merchant}` : ''}: ${base} answered HTTP ${response.status}: ${detail || text.slice(0, 200)}`,
    )
  }
  const json = `${JSON.stringify(body, null, 2)}\n`
  const steps = (body as { steps?: unknown[] }).steps?.length ?? 0
  if (!args.out) {
    process.stdout.write(json)
    return
  }
  try {
    await writeFile(args.out, json)
  } catch (error) {
    throw new UsageError(
      `--out ${args.out}: cannot be written (${(error as NodeJS.ErrnoException).code ?? error})`,
    )
  }
  process.stderr.write(
    `paysandbox scenario export: wrote ${args.out}: order ${args.order}, ${steps} steps.\nRun it: paysandbox test --merchant ADAPTER --scenarios ${args.out}\n`,
  )
}

/** The innermost cause of a failed fetch (`ECONNREFUSED`). */
function reason(error: unknown): string {
  let current = error as { cause?: unknown; code?: string; message?: string; name?: string } | undefined
  while (current?.cause) current = current.cause as typeof current
  if (current?.name === 'TimeoutError') return 'timed out'
  return current?.code ?? current?.message ?? String(error)
}
