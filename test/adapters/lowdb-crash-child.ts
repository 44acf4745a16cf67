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
    // Odd rounds as one commit (one journal line: a kill keeps all of it or none), even ones as
    // single puts and deletes, so both paths meet the kill.
    const ops = [
      {
        collection: 'records',
        kind: 'put' as const,
        id: `r${i}`,
        record: { id: `r${i}`, i, pad: 'x'.repeat(200) },
      },
      { collection: 'meta', kind: 'put' as const, id: 'meta', record: { id: 'meta', last: i } },
      ...(i >= 50 && (i - 50) % 7 === 0
        ? [{ collection: 'records', kind: 'delete' as const, id: `r${i - 50}` }]
        : []),
    ]
    if (i % 2 === 1) void store.commit(ops)
    else
      for (const op of ops)
        if (op.kind === 'delete') store.delete('records', op.id)
        else store.put(op.collection as 'records', op.record as Row)
  }
  await store.flush()
  process.stdout.write(`flushed ${i - 1}\n`)
}
