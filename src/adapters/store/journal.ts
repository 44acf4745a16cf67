import { type FileHandle, open, readFile, rename, truncate, writeFile } from 'node:fs/promises'
import { StoreFileError } from './snapshot.js'

/**
 * The append-only journal beside the snapshot (`<file>.journal`), one JSON object per line. The
 * first line names the snapshot generation the journal continues; replaying it over a snapshot of
 * another generation would apply changes twice or undo newer ones, so such a journal is stale.
 * Every line ends with "\n": a last line without one was cut short by a killed process.
 */

export type JournalOp =
  | { op: 'put'; collection: string; id: string; record: object }
  | { op: 'delete'; collection: string; id: string }
  | { op: 'clear' }

export const journalLine = {
  begin: (generation: number) => `{"op":"begin","generation":${generation}}\n`,
  put: (collection: string, id: string, text: string) =>
    `{"op":"put","collection":${JSON.stringify(collection)},"id":${JSON.stringify(id)},"record":${text}}\n`,
  delete: (collection: string, id: string) =>
    `{"op":"delete","collection":${JSON.stringify(collection)},"id":${JSON.stringify(id)}}\n`,
  clear: () => '{"op":"clear"}\n',
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
  throw new StoreFileError(path, `line ${n} is not a journal operation (put, delete or clear)`)
}

/** Appends to the journal through one open handle; the caller allows one call at a time. */
export class JournalWriter {
  private constructor(
    private readonly path: string,
    private handle: FileHandle,
  ) {}

  /** Opens for appending, first cutting off a line left unfinished by a crash. */
  static async open(path: string, validBytes: number, tornBytes: number): Promise<JournalWriter> {
    if (tornBytes > 0) await truncate(path, validBytes)
    return new JournalWriter(path, await open(path, 'a'))
  }

  append(text: string): Promise<void> {
    return this.handle.appendFile(text, 'utf8')
  }

  /** Replaces the journal with an empty one for `generation`, atomically (temp file, then rename). */
  async reset(generation: number): Promise<void> {
    const tmp = `${this.path}.tmp`
    await writeFile(tmp, journalLine.begin(generation), 'utf8')
    await rename(tmp, this.path)
    const previous = this.handle
    this.handle = await open(this.path, 'a')
    await previous.close()
  }

  close(): Promise<void> {
    return this.handle.close()
  }
}
