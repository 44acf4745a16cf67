import { writeFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { orderScenario } from '../core/order-scenario/build.js'
import type { ReplayReport } from './run.js'
import type { FreshSandbox } from './sandbox.js'

/**
 * `replay --export FILE`: the orders the replay made, each as a conformance scenario, exactly as
 * GET /sandbox/orders/{order_id}/scenario exports an order a sandbox observed (the replay's sandbox
 * observed these). One order: FILE; several: FILE with the order number before its extension.
 */
export async function exportReplay(
  report: ReplayReport,
  sandbox: FreshSandbox,
  file: string,
): Promise<{ file: string; order: string; steps: number }[]> {
  const written: { file: string; order: string; steps: number }[] = []
  const several = report.orders.length > 1
  for (const { merchant, order_id } of report.orders) {
    const scenario = orderScenario(sandbox.gateway.ctx, order_id, merchant)
    const ext = extname(file) || '.json'
    const target = several
      ? `${file.slice(0, file.length - extname(file).length)}.${order_id.replace(/[^A-Za-z0-9._-]+/g, '_')}${ext}`
      : file
    await writeFile(target, `${JSON.stringify(scenario, null, 2)}\n`)
    written.push({ file: target, order: order_id, steps: scenario.steps.length })
  }
  return written
}
