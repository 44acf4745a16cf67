import { readFile } from 'node:fs/promises'
import type { AppendHandle, StoreFiles } from './files.js'
import { StoreFileError } from './snapshot.js'

/**
 * The append-only journal beside the snapshot (`<file>.journal`), one JSON object per line. The
 * first line names the snapshot generation the journal continues; replaying it over a snapshot of
 * another generation would apply changes twice or undo newer ones, so such a journal is stale.
 * Every line ends with "\n": a last line without one was cut short by a killed process (or a
 * full disk), and is dropped. A batch of several changes (`Store.commit`) is ONE line,
 * `{"op":"batch","ops":[...]}`, so a batch cut short is dropped whole, never applied in part.
 */

export type JournalChange =
  | { op: 'put'; collection: string; id: string; record: object }
  | { op: 'delete'; collection: string; id: string }
  | { op: 'clear' }

export type JournalOp = JournalChange | { op: 'batch'; ops: JournalChange[] }

export const journalLine = {
  begin: (generation: number) => `{"op":"begin","generation":${generation}}\n`,
  put: (collection: string, id: string, text: string) =>
    `{"op":"put","collection":${JSON.stringify(collection)},"id":${JSON.stringify(id)},"record":${text}}\n`,
  delete: (collection: string, id: string) =>
    `{"op":"delete","collection":${JSON.stringify(collection)},"id":${JSON.stringify(id)}}\n`,
  clear: () => '{"op":"clear"}\n',
  /** Several changes as one line: the entries are lines of the kinds above without their "\n". */
  batch: (entries: string[]) => `{"op":"batch","ops":[${entries.map((e) => e.slice(0, -1)).join(',')}]}\n`,
}

export interface JournalContents {
  /** The generation of the header; undefined when the file is missing, empty or its header was cut short. */
  generation: number | undefined
  ops: JournalOp[]
  /** Bytes up to the end of the last complete line. */
  validBytes: number
  /** Bytes after it: a line cut short by a crash, ignored and cut off before appending again. */
  tornBytes: number
}

export async function readJournal(path: string): Promise<JournalContents> {
  let buf: Buffer
  try {
    buf = await readFile(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { generation: undefined, ops: [], validBytes: 0, tornBytes: 0 }
    throw new StoreFileError(path, `cannot be read (${(error as Error).message})`)
  }
  const validBytes = buf.lastIndexOf(0x0a) + 1
  const lines = buf.subarray(0, validBytes).toString('utf8').split('\n')
  lines.pop()
  const result: JournalContents = {
    generation: undefined,
    ops: [],
    validBytes,
    tornBytes: buf.length - validBytes,
  }
  lines.forEach((text, i) => {
    const line = parseLine(text, path, i + 1)
    if (i === 0) {
      if (line.op !== 'begin' || !Number.isSafeInteger(line.generation))
        throw new StoreFileError(path, 'line 1 is not a journal header {"op":"begin","generation":N}')
      result.generation = line.generation as number
    } else result.ops.push(toOp(line, path, i + 1))
  })
  return result
}

type RawLine = { op?: unknown; collection?: unknown; id?: unknown; record?: unknown; generation?: unknown }

function parseLine(text: string, path: string, n: number): RawLine {
  try {
    const line: unknown = JSON.parse(text)
    if (typeof line === 'object' && line !== null && !Array.isArray(line)) return line as RawLine
  } catch {}
  throw new StoreFileError(path, `line ${n} is not a JSON object (a complete line, so not a cut-short write)`)
}

function toOp(line: RawLine, path: string, n: number): JournalOp {
  if (line.op === 'batch') {
    const ops = (line as { ops?: unknown }).ops
    if (Array.isArray(ops)) {
      const changes = ops.map((entry) => {
        const change =
          typeof entry === 'object' && entry !== null ? toOp(entry as RawLine, path, n) : undefined
        if (!change || change.op === 'batch')
          throw new StoreFileError(
            path,
            `line ${n} is a batch holding something other than put, delete or clear`,
          )
        return change
      })
      return { op: 'batch', ops: changes }
    }
  }
  return toChange(line, path, n)
}

function toChange(line: RawLine, path: string, n: number): JournalChange {
  const { op, collection, id, record } = line
  if (op === 'clear') return { op }
  if (typeof collection === 'string' && typeof id === 'string') {
    if (op === 'delete') return { op, collection, id }
    if (
      op === 'put' &&
      typeof record === 'object' &&
      record !== null &&
      (record as { id?: unknown }).id === id
    )
      return { op, collection, id, record }
  }
  throw new StoreFileError(path, `line ${n} is not a journal operation (put, delete, clear or batch)`)
}

/**
 * Appends to the journal through one open handle; the caller allows one call at a time. It knows
 * how many bytes the journal holds when complete, so that an append cut short (disk full) can be
 * cut off again before the next one.
 */
export class JournalWriter {
  private constructor(
    private readonly path: string,
    private readonly files: StoreFiles,
    private handle: AppendHandle | undefined,
    /** Bytes of complete lines in the file. */
    public bytes: number,
    /** An append failed: the file may end with part of it. */
    private torn: boolean,
  ) {}

  /** Opens for appending, first cutting off a line left unfinished by a crash. */
  static async open(
    path: string,
    validBytes: number,
    tornBytes: number,
    files: StoreFiles,
  ): Promise<JournalWriter> {
    if (tornBytes > 0) await files.truncate(path, validBytes)
    return new JournalWriter(path, files, await files.openAppend(path), validBytes, false)
  }

  async append(text: string): Promise<void> {
    if (this.torn) {
      await this.files.truncate(this.path, this.bytes)
      this.torn = false
    }
    try {
      this.handle ??= await this.files.openAppend(this.path)
      await this.handle.append(text)
    } catch (error) {
      this.torn = true
      // Best effort now (a full disk still allows shrinking a file); else before the next append.
      await this.files.truncate(this.path, this.bytes).then(
        () => {
          this.torn = false
        },
        () => {},
      )
      throw error
    }
    this.bytes += Buffer.byteLength(text)
  }

  /** Replaces the journal with an empty one for `generation`, atomically (temp file, then rename). */
  async reset(generation: number): Promise<void> {
    const tmp = `${this.path}.tmp`
    const header = journalLine.begin(generation)
    try {
      await this.files.writeFile(tmp, header)
      await this.files.rename(tmp, this.path)
    } catch (error) {
      await this.files.remove(tmp).catch(() => {})
      throw error
    }
    this.bytes = Buffer.byteLength(header)
    this.torn = false
    // The old handle writes to the replaced file: never append through it again.
    const previous = this.handle
    this.handle = undefined
    await previous?.close().catch(() => {})
    this.handle = await this.files.openAppend(this.path)
  }

  async close(): Promise<void> {
    const handle = this.handle
    this.handle = undefined
    await handle?.close()
  }
}
