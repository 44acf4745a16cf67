import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { createLowdbStore, type LowdbStore, StoreFileError } from '../../src/adapters/index.js'
import { JournalWriter } from '../../src/adapters/store/journal.js'
import { StoreUnavailableError } from '../../src/core/ports/store.js'
import { createFaultyFiles } from './faulty-files.js'
import { CONTRACT_INDEXES, type ContractCollections, payment } from './store-contract.js'

/**
 * Issue: "With --data, state persists in a lowdb JSON file and survives a restart"; "A process
 * killed during writes never leaves an unreadable file" (the kill itself: lowdb-crash.test.ts).
 */
const root = mkdtempSync(join(tmpdir(), 'paysandbox-lowdb-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let n = 0
const fresh = () => join(root, `case-${n++}`, 'data.json')

const opened: LowdbStore<ContractCollections>[] = []
const open = async (file: string, compactMinBytes?: number) => {
  const store = await createLowdbStore<ContractCollections>({
    file,
    indexes: CONTRACT_INDEXES,
    compactMinBytes,
  })
  opened.push(store)
  return store
}
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close().catch(() => {})
  vi.restoreAllMocks()
})
const ids = (records: { id: string }[]) => records.map((r) => r.id)

describe('lowdb store: persistence', () => {
  it('creates a missing folder and file on open, and starts empty', async () => {
    const file = fresh()
    const store = await open(file)
    expect(store.count('payments')).toBe(0)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      format: 'paysandbox-store',
      generation: 1,
    })
  })

  it('a reopened store sees what was there at close: records, order, deletes, indexes', async () => {
    const file = fresh()
    const a = await open(file)
    for (const id of ['p3', 'p1', 'p2']) a.put('payments', payment(id, 'm1', { order_id: `o-${id}` }))
    a.put('payments', payment('p1', 'm2', { order_id: 'o-p1' }))
    a.delete('payments', 'p2')
    a.put('notes', { id: 'n1', text: 'line\nbreak "quoted" ✓' })
    await a.close()
    const b = await open(file)
    expect(ids(b.list('payments'))).toEqual(['p3', 'p1'])
    expect(ids(b.findBy('payments', 'merchant_key', 'm2'))).toEqual(['p1'])
    expect(b.get('notes', 'n1')?.text).toBe('line\nbreak "quoted" ✓')
  })

  it('a store opened beside one that was never closed (a crash) sees every flushed change', async () => {
    const file = fresh()
    const a = await open(file)
    a.put('payments', payment('p1'))
    a.put('payments', payment('p2'))
    a.delete('payments', 'p1')
    a.clear()
    a.put('payments', payment('p3', 'm3'))
    await a.flush()
    const b = await open(file)
    expect(ids(b.list('payments'))).toEqual(['p3'])
    expect(ids(b.findBy('payments', 'merchant_key', 'm3'))).toEqual(['p3'])
  })

  it('folds the journal into a new snapshot as it grows, keeping every record', async () => {
    const file = fresh()
    const a = await open(file, 0)
    for (let i = 0; i < 300; i++) {
      a.put('payments', payment(`p${i}`, `m${i % 3}`))
      if (i % 10 === 0) await a.flush()
    }
    await a.flush()
    expect(a.stats().generation).toBeGreaterThan(3)
    expect(a.stats().journalBytes).toBeLessThanOrEqual(a.stats().snapshotBytes)
    const b = await open(file)
    expect(b.count('payments')).toBe(300)
    expect(b.findBy('payments', 'merchant_key', 'm1')).toHaveLength(100)
  })

  it('ignores a torn last journal line, and appends after it stay readable', async () => {
    const file = fresh()
    const a = await open(file)
    a.put('payments', payment('p1'))
    await a.flush()
    appendFileSync(`${file}.journal`, '{"op":"put","collection":"payments","id":"torn","record":{"id":"to')
    const b = await open(file)
    expect(ids(b.list('payments'))).toEqual(['p1'])
    b.put('payments', payment('p2'))
    await b.flush()
    const c = await open(file)
    expect(ids(c.list('payments'))).toEqual(['p1', 'p2'])
  })

  it('drops a journal already folded into the snapshot (killed between snapshot and journal reset)', async () => {
    const file = fresh()
    const a = await open(file)
    a.put('payments', payment('p1', 'm1', { amount: '1.00' }))
    await a.flush()
    copyFileSync(`${file}.journal`, join(root, 'old.journal'))
    a.put('payments', payment('p1', 'm1', { amount: '2.00' }))
    await a.compact()
    // The old journal (p1 at 1.00) comes back as if the reset never happened: replaying it would undo 2.00.
    copyFileSync(join(root, 'old.journal'), `${file}.journal`)
    const b = await open(file)
    expect(b.get('payments', 'p1')?.amount).toBe('2.00')
    b.put('payments', payment('p2'))
    await b.flush()
    expect(ids((await open(file)).list('payments'))).toEqual(['p1', 'p2'])
  })

  it('writes the changes of one tick in one append, with one append in flight at a time', async () => {
    const file = fresh()
    const store = await open(file)
    let inFlight = 0
    let most = 0
    const append = JournalWriter.prototype.append
    const spy = vi.spyOn(JournalWriter.prototype, 'append').mockImplementation(async function (
      this: JournalWriter,
      t,
    ) {
      most = Math.max(most, ++inFlight)
      await new Promise((r) => setTimeout(r, 5))
      await append.call(this, t)
      inFlight--
    })
    for (let i = 0; i < 100; i++) store.put('payments', payment(`p${i}`))
    await store.flush()
    expect(spy).toHaveBeenCalledTimes(1)
    const flushes: Promise<void>[] = []
    for (let i = 0; i < 20; i++) {
      store.put('payments', payment(`q${i}`))
      flushes.push(store.flush())
      await new Promise((r) => setImmediate(r))
    }
    await Promise.all(flushes)
    expect(most).toBe(1)
    expect(spy.mock.calls.length).toBeLessThan(21)
  })
})

describe('lowdb store: atomic batches (issue 11, point 3)', () => {
  it('journals a commit as ONE line and a reopened store sees all of it', async () => {
    const file = fresh()
    const a = await open(file)
    a.put('payments', payment('p1'))
    await a.flush()
    const lines = () => readFileSync(`${file}.journal`, 'utf8').split('\n').filter(Boolean)
    const before = lines().length
    await a.commit([
      { collection: 'payments', kind: 'put', id: 'p2', record: payment('p2', 'm2') },
      { collection: 'payments', kind: 'delete', id: 'p1' },
      { collection: 'notes', kind: 'put', id: 'n1', record: { id: 'n1', text: 'p2 made' } },
    ])
    expect(lines()).toHaveLength(before + 1)
    expect(JSON.parse(lines().at(-1) ?? '')).toMatchObject({ op: 'batch' })
    const b = await open(file)
    expect(ids(b.list('payments'))).toEqual(['p2'])
    expect(b.get('notes', 'n1')?.text).toBe('p2 made')
  })

  it('drops a torn batch whole on load (never a part of it)', async () => {
    const file = fresh()
    const a = await open(file)
    a.put('payments', payment('p1'))
    await a.commit([
      { collection: 'payments', kind: 'put', id: 'p2', record: payment('p2') },
      { collection: 'payments', kind: 'put', id: 'p3', record: payment('p3') },
    ])
    const journal = readFileSync(`${file}.journal`, 'utf8')
    const last = journal.slice(journal.lastIndexOf('\n', journal.length - 2) + 1)
    // The process dies having written the batch but for its last bytes: p2 is complete in it, p3 not.
    writeFileSync(
      `${file}.journal`,
      `${journal}${last.replaceAll('p2', 'p4').replaceAll('p3', 'p5').slice(0, -20)}`,
    )
    const b = await open(file)
    expect(ids(b.list('payments'))).toEqual(['p1', 'p2', 'p3'])
  })
})

describe('lowdb store: a full disk (issue 11, point 5)', () => {
  const openFaulty = async (file: string, compactMinBytes?: number) => {
    const disk = createFaultyFiles()
    const store = await createLowdbStore<ContractCollections>({
      file,
      indexes: CONTRACT_INDEXES,
      compactMinBytes,
      files: disk.files,
    })
    opened.push(store)
    return { store, disk }
  }
  const folder = (file: string) => readdirSync(dirname(file)).sort()

  it('a failed write rolls back every batch not yet durable, rejects them, and leaves no partial file', async () => {
    const file = fresh()
    const { store, disk } = await openFaulty(file)
    store.put('payments', payment('p1', 'm1', { amount: '1.00' }))
    await store.flush()
    const journalBefore = readFileSync(`${file}.journal`, 'utf8')
    disk.fill({ partial: true })
    // Three batches in one tick: one group-committed append, which fails half written.
    const first = store.commit([
      { collection: 'payments', kind: 'put', id: 'p1', record: payment('p1', 'm1', { amount: '2.00' }) },
      { collection: 'payments', kind: 'put', id: 'p2', record: payment('p2') },
    ])
    store.put('payments', payment('p1', 'm2', { amount: '3.00' }))
    const third = store.commit([{ collection: 'payments', kind: 'delete', id: 'p1' }])
    expect(store.count('payments')).toBe(1)
    const results = await Promise.allSettled([first, third, store.flush()])
    for (const result of results) {
      expect(result.status).toBe('rejected')
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailableError)
      expect(String((result as PromiseRejectedResult).reason)).toMatch(/ENOSPC/)
    }
    expect(store.writable).toBe(false)
    // Rolled back newest first: the store is as it was before the three batches.
    expect(store.list('payments')).toEqual([payment('p1', 'm1', { amount: '1.00' })])
    expect(ids(store.findBy('payments', 'merchant_key', 'm1'))).toEqual(['p1'])
    expect(readFileSync(`${file}.journal`, 'utf8')).toBe(journalBefore)
    expect(folder(file)).toEqual(['data.json', 'data.json.journal'])
    expect(disk.failures()).toBeGreaterThan(0)
  })

  it('writes resume when space returns: the next change retries, the store is writable again', async () => {
    const file = fresh()
    const { store, disk } = await openFaulty(file)
    disk.fill({ partial: true })
    store.put('payments', payment('lost'))
    await expect(store.flush()).rejects.toBeInstanceOf(StoreUnavailableError)
    // Still unwritable: the next change tries again and fails again (EIO this time).
    disk.fill({ partial: false, code: 'EIO' })
    await expect(
      store.commit([{ collection: 'payments', kind: 'put', id: 'p0', record: payment('p0') }]),
    ).rejects.toThrow(/EIO/)
    expect(store.writable).toBe(false)
    // Reads keep answering meanwhile.
    expect(store.count('payments')).toBe(0)
    disk.free()
    await store.commit([{ collection: 'payments', kind: 'put', id: 'p1', record: payment('p1') }])
    expect(store.writable).toBe(true)
    store.put('payments', payment('p2'))
    await store.flush()
    const reopened = await open(file)
    expect(ids(reopened.list('payments'))).toEqual(['p1', 'p2'])
    expect(folder(file)).toEqual(['data.json', 'data.json.journal'])
  })

  it('a snapshot that cannot be written leaves no temp file and rolls back; compaction resumes later', async () => {
    const file = fresh()
    // compactMinBytes 0: nearly every write folds the journal into a new snapshot.
    const { store, disk } = await openFaulty(file, 0)
    for (let i = 0; i < 5; i++) store.put('payments', payment(`p${i}`))
    await store.compact()
    const snapshotBefore = readFileSync(file, 'utf8')
    disk.fill({ partial: true })
    for (let i = 5; i < 10; i++) store.put('payments', payment(`p${i}`))
    await expect(store.flush()).rejects.toBeInstanceOf(StoreUnavailableError)
    expect(store.count('payments')).toBe(5)
    expect(readFileSync(file, 'utf8')).toBe(snapshotBefore)
    expect(folder(file)).toEqual(['data.json', 'data.json.journal'])
    disk.free()
    for (let i = 10; i < 40; i++) store.put('payments', payment(`p${i}`))
    await store.flush()
    expect(store.writable).toBe(true)
    await store.close()
    const reopened = await open(file)
    expect(reopened.count('payments')).toBe(35)
    expect(reopened.get('payments', 'p7')).toBeUndefined()
  })

  it('a reset (clear) that cannot be written is undone: the records come back, in order', async () => {
    const file = fresh()
    const { store, disk } = await openFaulty(file)
    for (const id of ['c', 'a', 'b']) store.put('payments', payment(id, 'm1'))
    await store.flush()
    disk.fill()
    store.clear()
    store.put('payments', payment('new'))
    expect(ids(store.list('payments'))).toEqual(['new'])
    await expect(store.flush()).rejects.toBeInstanceOf(StoreUnavailableError)
    expect(ids(store.list('payments'))).toEqual(['c', 'a', 'b'])
    expect(ids(store.findBy('payments', 'merchant_key', 'm1'))).toEqual(['c', 'a', 'b'])
  })
})

describe('lowdb store: files it must not touch', () => {
  it('refuses a file that is not JSON, naming it, and leaves it as it was', async () => {
    const file = fresh()
    await open(file).then((s) => s.close())
    writeFileSync(file, '{"format": "paysandbox-store", "gen')
    const error = await open(file).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(StoreFileError)
    expect((error as Error).message).toContain(file)
    expect((error as Error).message).toMatch(/not valid JSON/)
    expect(readFileSync(file, 'utf8')).toBe('{"format": "paysandbox-store", "gen')
  })

  it('refuses JSON that is not a store, and a path that is a folder', async () => {
    const file = fresh()
    await open(file).then((s) => s.close())
    writeFileSync(file, '{"payments": []}')
    await expect(open(file)).rejects.toThrow(/not a paysandbox store/)
    await expect(open(join(root))).rejects.toThrow(/cannot be read/)
  })

  it('refuses a journal with a damaged complete line, naming the journal', async () => {
    const file = fresh()
    const a = await open(file)
    a.put('payments', payment('p1'))
    await a.flush()
    appendFileSync(`${file}.journal`, 'garbage\n{"op":"clear"}\n')
    await expect(open(file)).rejects.toThrow(`${file}.journal: line 3 is not a JSON object`)
  })

  it('refuses a journal newer than its snapshot (an older snapshot copied back)', async () => {
    const file = fresh()
    const a = await open(file)
    copyFileSync(file, join(root, 'old.json'))
    a.put('payments', payment('p1'))
    await a.compact()
    copyFileSync(join(root, 'old.json'), file)
    await expect(open(file)).rejects.toThrow(/continues generation 2 but the snapshot .* is at 1/)
  })

  it('takes a blank file as an empty store (nothing in it to lose)', async () => {
    const file = fresh()
    await open(file).then((s) => s.close())
    writeFileSync(file, '\n')
    rmSync(`${file}.journal`)
    const store = await open(file)
    expect(store.count('payments')).toBe(0)
    expect(existsSync(`${file}.journal`)).toBe(true)
  })
})
