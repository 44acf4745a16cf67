import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Payment } from './client-types.js'
import type { Ui } from './ui-context.js'

/** The file an order's scenario is offered under: its number, made safe as a file name. */
export const scenarioFileName = (order: string) =>
  `order-${order.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80)}.scenario.json`

/**
 * `s` on a payment: its order, as the sandbox observed it, written as a conformance scenario
 * (GET /sandbox/orders/{order_id}/scenario, docs/replay.md) for `paysandbox test --merchant ADAPTER
 * --scenarios FILE`. Asked, then confirmed, as every action of the console.
 */
export function exportScenarioAction(ui: Ui, payment: Payment, cwd = process.cwd()): void {
  ui.prompt({
    label: `Write order ${payment.order_id} as a scenario to file`,
    initial: scenarioFileName(payment.order_id),
    onSubmit: (name) => {
      const file = resolve(cwd, name.trim() || scenarioFileName(payment.order_id))
      ui.confirm({
        title: `write order ${payment.order_id} of ${payment.merchant_key} as a scenario?`,
        lines: [
          file,
          ...(existsSync(file) ? ['The file exists and will be replaced.'] : []),
          `Then: paysandbox test --merchant ADAPTER --scenarios ${name.trim() || scenarioFileName(payment.order_id)}`,
        ],
        run: async () => {
          const scenario = await ui.client.orderScenario(payment.order_id, payment.merchant_key)
          await writeFile(file, `${JSON.stringify(scenario, null, 2)}\n`)
          const steps = Array.isArray(scenario.steps) ? scenario.steps.length : 0
          return `Wrote ${file}: order ${payment.order_id} as a scenario of ${steps} steps.`
        },
      })
    },
  })
}
