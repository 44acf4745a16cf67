import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Payment } from './client-types.js'
import type { Ui } from './ui-context.js'

/** Export one payment's full history to a JSON file for a support ticket (asked, then confirmed). */
export function exportAction(ui: Ui, payment: Payment, cwd = process.cwd()): void {
  ui.prompt({
    label: 'Export the payment history to file',
    initial: `payment-${payment.id}.json`,
    onSubmit: (name) => {
      const file = resolve(cwd, name.trim() || `payment-${payment.id}.json`)
      ui.confirm({
        title: `write the history of payment ${payment.id}?`,
        lines: [file, ...(existsSync(file) ? ['The file exists and will be replaced.'] : [])],
        run: async () => {
          const doc = await ui.client.exportPayment(payment.id)
          await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`)
          return `Wrote ${file}: ${doc.transactions.length} transactions, ${doc.callbacks.length} callbacks.`
        },
      })
    },
  })
}

/** Import an export file into the sandbox, to reproduce a merchant's payment (asked, then confirmed). */
export function importAction(ui: Ui, cwd = process.cwd()): void {
  ui.prompt({
    label: 'Import a payment export (JSON file) into this sandbox',
    hint: 'the file written by e in a payment, or GET /sandbox/payments/{id}/export',
    onSubmit: (name) => void confirmImport(ui, resolve(cwd, name.trim())),
  })
}

async function confirmImport(ui: Ui, file: string): Promise<void> {
  let doc: { payment?: Partial<Payment>; transactions?: unknown[]; callbacks?: unknown[] }
  try {
    doc = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    return ui.notify(`Cannot read ${file}: ${(error as Error).message}`, 'bad')
  }
  const p = doc.payment ?? {}
  ui.confirm({
    title: `import payment ${p.id ?? '(no id)'}?`,
    lines: [
      file,
      `merchant ${p.merchant_key}, order ${p.order_id}, status ${p.status}`,
      `${doc.transactions?.length ?? 0} transactions, ${doc.callbacks?.length ?? 0} callbacks (none is sent again)`,
    ],
    run: async () => {
      const result = await ui.client.importPayment(doc)
      ui.openPayment(result.payment_id)
      const stopped = result.callbacks_stopped
        ? `, ${result.callbacks_stopped} unfinished callbacks marked failed`
        : ''
      const schedule = result.schedule ? `, schedule ${result.schedule}` : ''
      return `Imported payment ${result.payment_id}${stopped}${schedule}.`
    },
  })
}
