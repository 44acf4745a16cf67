import { mkdir, stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { Low } from 'lowdb'
import { DataFile } from 'lowdb/node'
import type { Identified, Store, StoreIndexes } from '../../core/ports/store.js'
import { type JournalOp, JournalWriter, journalLine, readJournal } from './journal.js'
import type { RecordTable } from './record-table.js'
import { EMPTY_SNAPSHOT, parseSnapshot, renderSnapshot, type Snapshot, StoreFileError } from './snapshot.js'
import { createTableStore } from './table-store.js'

export interface LowdbStoreOptions<C> {
  /** The snapshot file (lowdb JSON); the journal is `<file>.journal`. Its folder is created if missing. */
  file: string
  indexes?: StoreIndexes<C>
  /** The journal is folded into a new snapshot once it outgrows both the snapshot and this (characters). */
  compactMinBytes?: number
}

export interface LowdbStoreStats {
  generation: number
  snapshotBytes: number
  journalBytes: number
  /** Changes made but not yet handed to the operating system. */
  pendingChanges: number
}

export interface LowdbStore<C extends { [K in keyof C]: Identified }> extends Store<C> {
  readonly file: string
  readonly journalFile: string
  /** Writes a new snapshot now and empties the journal (also done on close and as the journal grows). */
  compact(): Promise<void>
  stats(): LowdbStoreStats
}

const DEFAULT_COMPACT_MIN_BYTES = 1 << 20

/**
 * The persistent store (`--data`). Why a journal: rewriting the whole JSON on each change costs
 * what is stored; appending the change costs only the change. So:
 *
 * - put/delete/clear change the in-memory image and queue a journal line; all the lines queued in
 *   one tick leave in one append, with at most one append in flight (flush() waits for them);
 * - once the journal outgrows the snapshot, the snapshot is rewritten through lowdb (its writer
 *   renames a temp file: atomic) and the journal replaced by an empty one: amortised O(1) a write;
 * - the snapshot and the journal's header carry a generation, so that after a kill between the two
 *   steps the old journal is recognised as already folded in, and dropped rather than replayed;
 * - on open: snapshot, then the journal if its generation matches, minus a cut-short last line.
 *
 * "Durable" means handed to the operating system: it survives a killed process, not a power cut.
 * A failed write leaves the store failed: every later flush() rejects (restart to recover from disk).
 */
export async function createLowdbStore<C extends { [K in keyof C]: Identified }>(
  options: LowdbStoreOptions<C>,
): Promise<LowdbStore<C>> {
  const file = resolve(options.file)
  const journalFile = `${file}.journal`
  const compactMinBytes = options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES
  await mkdir(dirname(file), { recursive: true })

  let renderedBytes = 0
  const db = new Low<Snapshot>(
    new DataFile<Snapshot>(file, {
      parse: (text) => parseSnapshot(text, file),
      stringify: (snapshot) => {
        const text = renderSnapshot(snapshot)
        renderedBytes = text.length
        return text
      },
    }),
    EMPTY_SNAPSHOT,
  )
  try {
    await db.read()
  } catch (error) {
    if (error instanceof StoreFileError) throw error
    throw new StoreFileError(file, `cannot be read (${(error as Error).message})`)
  }
  const snapshotFound = db.data !== EMPTY_SNAPSHOT
  let generation = db.data.generation
  const journal = await readJournal(journalFile)
  if (journal.generation !== undefined && journal.generation > generation)
    throw new StoreFileError(
      journalFile,
      snapshotFound
        ? `continues generation ${journal.generation} but the snapshot ${file} is at ${generation} (an older copy?)`
        : `continues generation ${journal.generation} but the snapshot ${file} is missing`,
    )

  let pending: string[] = []
  let changeSeq = 0
  let durableSeq = 0
  let failure: Error | undefined
  let queued = false
  let closed = false
  let tail: Promise<unknown> = Promise.resolve()
  const waiters: { seq: number; resolve: () => void; reject: (e: Error) => void }[] = []

  const change = (line: string) => {
    pending.push(line)
    changeSeq++
    if (queued) return
    queued = true
    setImmediate(() => {
      queued = false
      exclusive(drain).catch(() => {})
    })
  }
  const { store, table } = createTableStore<C>(
    options.indexes ?? {},
    {
      put: (collection, id, text) => change(journalLine.put(collection, id, text)),
      delete: (collection, id) => change(journalLine.delete(collection, id)),
      clear: () => change(journalLine.clear()),
    },
    { flush, close },
    `lowdb store ${file}`,
  )

  for (const [name, records] of db.data.collections)
    for (const record of records) loadRecord(table, file, name, record)
  db.data = EMPTY_SNAPSHOT
  const replay = journal.generation === generation
  if (replay) for (const op of journal.ops) load(table, journalFile, op)
  let snapshotBytes = snapshotFound ? (await stat(file)).size : 0
  let journalBytes = replay ? journal.validBytes : 0
  const writer = await JournalWriter.open(journalFile, journal.validBytes, journal.tornBytes)
  if (!replay) await writer.reset(generation)
  if (!snapshotFound) await compactNow()

  /** One disk operation at a time; after a failure, none. */
  function exclusive(fn: () => Promise<void>): Promise<void> {
    const run = tail.then(async () => {
      if (failure) throw failure
      try {
        await fn()
      } catch (error) {
        fail(error)
        throw failure
      }
    })
    tail = run.catch(() => {})
    return run
  }

  async function drain() {
    for (;;) {
      if (journalBytes > Math.max(snapshotBytes, compactMinBytes)) await compactNow()
      else if (pending.length > 0) {
        const upto = changeSeq
        const batch = pending.join('')
        pending = []
        await writer.append(batch)
        journalBytes += batch.length
        durable(upto)
      } else return
    }
  }

  async function compactNow() {
    const upto = changeSeq
    const next = generation + 1
    // The image is rendered synchronously inside write(), so it includes every queued change:
    // those lines are dropped, and changes made while the file is written go to the new journal.
    pending = []
    db.data = { generation: next, collections: table.dump() }
    const written = db.write()
    db.data = EMPTY_SNAPSHOT
    await written
    generation = next
    snapshotBytes = renderedBytes
    await writer.reset(next)
    journalBytes = 0
    durable(upto)
  }

  function durable(upto: number) {
    durableSeq = upto
    while (waiters.length > 0 && (waiters[0]?.seq ?? Number.POSITIVE_INFINITY) <= upto)
      waiters.shift()?.resolve()
  }

  function fail(error: unknown) {
    failure ??= new Error(
      `lowdb store ${file}: writing failed (${(error as Error)?.message ?? String(error)}); changes since the last successful flush are only in memory`,
      { cause: error },
    )
    for (const waiter of waiters.splice(0)) waiter.reject(failure)
  }

  function flush(): Promise<void> {
    if (failure) return Promise.reject(failure)
    if (durableSeq >= changeSeq) return Promise.resolve()
    return new Promise((resolve, reject) => waiters.push({ seq: changeSeq, resolve, reject }))
  }

  async function close() {
    closed = true
    try {
      await exclusive(async () => {
        await drain()
        if (journalBytes > 0) await compactNow()
      })
    } finally {
      await writer.close()
    }
  }

  return Object.assign(store, {
    file,
    journalFile,
    compact: () =>
      closed ? Promise.reject(new Error(`lowdb store ${file}: the store is closed`)) : exclusive(compactNow),
    stats: (): LowdbStoreStats => ({
      generation,
      snapshotBytes,
      journalBytes,
      pendingChanges: pending.length,
    }),
  })
}

function load(table: RecordTable, file: string, op: JournalOp) {
  if (op.op === 'clear') table.clear()
  else if (op.op === 'delete') table.delete(op.collection, op.id)
  else loadRecord(table, file, op.collection, op.record)
}

function loadRecord(table: RecordTable, file: string, collection: string, record: unknown) {
  try {
    table.put(collection, record)
  } catch (error) {
    throw new StoreFileError(file, (error as Error).message)
  }
}
