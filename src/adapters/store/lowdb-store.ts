import { mkdir, readFile, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { type Adapter, Low } from 'lowdb'
import {
  type Identified,
  type Store,
  type StoreIndexes,
  StoreUnavailableError,
} from '../../core/ports/store.js'
import { nodeStoreFiles, type StoreFiles } from './files.js'
import { type JournalOp, JournalWriter, journalLine, readJournal } from './journal.js'
import type { RecordTable } from './record-table.js'
import { EMPTY_SNAPSHOT, parseSnapshot, renderSnapshot, type Snapshot, StoreFileError } from './snapshot.js'
import { type AppliedBatch, type AppliedOp, createTableStore } from './table-store.js'

export interface LowdbStoreOptions<C> {
  /** The snapshot file (lowdb JSON); the journal is `<file>.journal`. Its folder is created if missing. */
  file: string
  indexes?: StoreIndexes<C>
  /** The journal is folded into a new snapshot once it outgrows both the snapshot and this (bytes). */
  compactMinBytes?: number
  /** How the store writes to disk (default: node:fs); tests inject one that fails like a full disk. */
  files?: StoreFiles
}

export interface LowdbStoreStats {
  generation: number
  snapshotBytes: number
  journalBytes: number
  /** Batches made but not yet handed to the operating system. */
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
 * The snapshot file as a lowdb adapter: written to `<file>.tmp` and renamed over the file (atomic),
 * and the temp file removed again when writing fails (a full disk leaves no partial file).
 */
class SnapshotFile implements Adapter<Snapshot> {
  /** Bytes of the last snapshot written. */
  writtenBytes = 0
  constructor(
    readonly file: string,
    private readonly files: StoreFiles,
  ) {}

  async read(): Promise<Snapshot | null> {
    let text: string
    try {
      text = await readFile(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw new StoreFileError(this.file, `cannot be read (${(error as Error).message})`)
    }
    return parseSnapshot(text, this.file)
  }

  /** Renders synchronously (the live image, as of this call), then writes. */
  write(snapshot: Snapshot): Promise<void> {
    const text = renderSnapshot(snapshot)
    return this.save(text)
  }

  private async save(text: string) {
    const tmp = join(dirname(this.file), `.${basename(this.file)}.tmp`)
    try {
      await this.files.writeFile(tmp, text)
      await this.files.rename(tmp, this.file)
    } catch (error) {
      await this.files.remove(tmp).catch(() => {})
      throw error
    }
    this.writtenBytes = Buffer.byteLength(text)
  }
}

interface Queued {
  batch: AppliedBatch
  line: string
  resolve: () => void
  reject: (error: Error) => void
}

/**
 * The persistent store (`--data`). Why a journal: rewriting the whole JSON on each change costs
 * what is stored; appending the change costs only the change. So:
 *
 * - a change (a batch: one `commit`, or one put, delete or clear) is applied to the in-memory
 *   image at once and queued as ONE journal line; all the lines queued in one tick leave in one
 *   append (group commit), with at most one disk operation in flight (flush() waits for them);
 * - once the journal outgrows the snapshot, the snapshot is rewritten through lowdb (temp file,
 *   then rename: atomic) and the journal replaced by an empty one: amortised O(1) a write;
 * - the snapshot and the journal's header carry a generation, so that after a kill between the two
 *   steps the old journal is recognised as already folded in, and dropped rather than replayed;
 * - on open: snapshot, then the journal if its generation matches, minus a cut-short last line
 *   (a batch cut short is dropped whole).
 *
 * "Durable" means handed to the operating system: it survives a killed process, not a power cut.
 * A failed write (ENOSPC, EIO, ...) rolls back in memory every batch not yet durable, newest first,
 * rejects them with StoreUnavailableError, cuts off what part of them reached the journal, removes
 * the temp file, and makes the store unwritable; the next change tries the disk again, and once a
 * write succeeds the store is writable again.
 */
export async function createLowdbStore<C extends { [K in keyof C]: Identified }>(
  options: LowdbStoreOptions<C>,
): Promise<LowdbStore<C>> {
  const file = resolve(options.file)
  const journalFile = `${file}.journal`
  const compactMinBytes = options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES
  const files = options.files ?? nodeStoreFiles
  await mkdir(dirname(file), { recursive: true })

  const snapshotFile = new SnapshotFile(file, files)
  const db = new Low<Snapshot>(snapshotFile, EMPTY_SNAPSHOT)
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

  /** Applied in memory, not yet handed to the disk. */
  let pending: Queued[] = []
  /** Handed to the disk, not yet durable. */
  let inFlight: Queued[] = []
  let writable = true
  /** The generation the journal file on disk continues (a failed reset leaves an older one). */
  let journalGeneration = journal.generation
  let queued = false
  let closed = false
  let tail: Promise<unknown> = Promise.resolve()

  const { store, table } = createTableStore<C>(
    options.indexes ?? {},
    {
      persist: (batch) =>
        new Promise<void>((resolve, reject) => {
          pending.push({ batch, line: lineOf(batch.ops), resolve, reject })
          if (queued) return
          queued = true
          setImmediate(() => {
            queued = false
            exclusive(drain).catch(() => {})
          })
        }),
      get writable() {
        return writable
      },
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
  const writer = await JournalWriter.open(journalFile, journal.validBytes, journal.tornBytes, files)
  if (!replay) {
    await writer.reset(generation)
    journalGeneration = generation
  }
  if (!snapshotFound) await exclusive(compactNow)

  /** One disk operation at a time; a failure rolls back what is not durable, then rejects. */
  function exclusive(fn: () => Promise<void>): Promise<void> {
    const run = tail.then(async () => {
      try {
        await fn()
      } catch (error) {
        throw fail(error)
      }
    })
    tail = run.catch(() => {})
    return run
  }

  async function drain() {
    for (;;) {
      if (journalGeneration !== generation) {
        await writer.reset(generation)
        journalGeneration = generation
      }
      if (writer.bytes > Math.max(snapshotBytes, compactMinBytes)) await compactNow()
      else if (pending.length > 0) {
        inFlight = pending
        pending = []
        await writer.append(inFlight.map((q) => q.line).join(''))
        durable()
      } else return
    }
  }

  async function compactNow() {
    const next = generation + 1
    // The image is rendered synchronously inside write(), so it includes every queued batch: those
    // become durable with the snapshot, and batches made while the file is written go to the new journal.
    inFlight = [...inFlight, ...pending]
    pending = []
    db.data = { generation: next, collections: table.dump() }
    const written = db.write()
    db.data = EMPTY_SNAPSHOT
    await written
    generation = next
    snapshotBytes = snapshotFile.writtenBytes
    durable()
    await writer.reset(next)
    journalGeneration = next
  }

  function durable() {
    writable = true
    for (const q of inFlight.splice(0)) q.resolve()
  }

  function fail(error: unknown): Error {
    writable = false
    const failure = new StoreUnavailableError(
      `lowdb store ${file}: writing failed (${(error as Error)?.message ?? String(error)}); the changes not yet written were undone`,
      { cause: error },
    )
    const lost = [...inFlight.splice(0), ...pending.splice(0)]
    for (let i = lost.length - 1; i >= 0; i--) lost[i]?.batch.undo()
    for (const q of lost) q.reject(failure)
    return failure
  }

  function flush(): Promise<void> {
    const last = pending.at(-1) ?? inFlight.at(-1)
    if (!last) return Promise.resolve()
    // Batches settle in order, and a failure rejects every batch not yet durable: the newest one
    // settles last and rejects if any before it was lost.
    return new Promise((resolve, reject) => {
      const { resolve: done, reject: lost } = last
      last.resolve = () => {
        done()
        resolve()
      }
      last.reject = (error) => {
        lost(error)
        reject(error)
      }
    })
  }

  async function close() {
    closed = true
    try {
      await exclusive(async () => {
        await drain()
        if (writer.bytes > Buffer.byteLength(journalLine.begin(generation))) await compactNow()
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
      journalBytes: writer.bytes,
      pendingChanges: pending.length + inFlight.length,
    }),
  })
}

/** A batch as one journal line: a single change keeps its own line, several become one batch line. */
function lineOf(ops: AppliedOp[]): string {
  const lines = ops.map((op) =>
    op.op === 'put'
      ? journalLine.put(op.collection, op.id, op.text)
      : op.op === 'delete'
        ? journalLine.delete(op.collection, op.id)
        : journalLine.clear(),
  )
  return lines.length === 1 ? (lines[0] as string) : journalLine.batch(lines)
}

function load(table: RecordTable, file: string, op: JournalOp) {
  if (op.op === 'batch') for (const change of op.ops) load(table, file, change)
  else if (op.op === 'clear') table.clear()
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
