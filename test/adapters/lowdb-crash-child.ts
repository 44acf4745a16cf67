/**
 * Run by lowdb-crash.test.ts as `node --import tsx lowdb-crash-child.ts <file>`: writes to a lowdb
 * store until killed, resuming where the file says it stopped. Record r<i> is written with
 * meta.last = i, and r<i-50> deleted when i-50 is a multiple of 7, so a state is a prefix exactly
 * when it matches `expectedIds(meta.last)`. Prints `flushed <i>` once everything up to i is durable.
 */
import { createLowdbStore } from '../../src/adapters/index.js'

interface Row {
  id: string
  i: number
  pad: string
}
interface Meta {
  id: string
  last: number
}

const file = process.argv[2]
if (!file) throw new Error('usage: lowdb-crash-child.ts <file>')
const store = await createLowdbStore<{ records: Row; meta: Meta }>({ file, compactMinBytes: 8192 })
let i = (store.get('meta', 'meta')?.last ?? -1) + 1
process.stdout.write(`ready ${i}\n`)
for (;;) {
  const end = i + 1 + (i % 17)
  for (; i < end; i++) {
    store.put('records', { id: `r${i}`, i, pad: 'x'.repeat(200) })
    store.put('meta', { id: 'meta', last: i })
    if (i >= 50 && (i - 50) % 7 === 0) store.delete('records', `r${i - 50}`)
  }
  await store.flush()
  process.stdout.write(`flushed ${i - 1}\n`)
}
