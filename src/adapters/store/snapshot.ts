/**
 * The lowdb file: a snapshot of every collection at one generation. Changes made since are in the
 * journal beside it (journal.ts), whose header names the generation it continues.
 *
 * {"format":"paysandbox-store","version":1,"generation":3,"collections":{
 * "payments":[
 * {"id":"…",…},
 * …]}}
 *
 * Collections are arrays (object keys that look like integers would lose insertion order), one
 * record per line so that a person can read and diff the file.
 */

export const SNAPSHOT_FORMAT = 'paysandbox-store'
export const SNAPSHOT_VERSION = 1

export interface Snapshot {
  generation: number
  /**
   * Records per collection, in insertion order: objects when read from the file, their JSON texts
   * when the live image is written (a record is never a string, so the two cannot be confused).
   */
  collections: Iterable<readonly [string, Iterable<object | string>]>
}

/** What a missing or blank file reads as (a blank file holds nothing to lose). */
export const EMPTY_SNAPSHOT: Snapshot = Object.freeze({ generation: 0, collections: [] })

export class StoreFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(
      `store file ${file}: ${reason}. It was left untouched; repair or move it away, or choose another data path.`,
    )
    this.name = 'StoreFileError'
  }
}

export function renderSnapshot(snapshot: Snapshot): string {
  const parts = [
    `{"format":"${SNAPSHOT_FORMAT}","version":${SNAPSHOT_VERSION},"generation":${snapshot.generation},"collections":{`,
  ]
  let first = true
  for (const [name, texts] of snapshot.collections) {
    parts.push(`${first ? '' : ','}\n${JSON.stringify(name)}:[`)
    first = false
    let firstRecord = true
    for (const record of texts) {
      parts.push(firstRecord ? '\n' : ',\n', typeof record === 'string' ? record : JSON.stringify(record))
      firstRecord = false
    }
    parts.push(']')
  }
  parts.push('}}\n')
  return parts.join('')
}

export function parseSnapshot(text: string, file: string): Snapshot {
  if (text.trim() === '') return EMPTY_SNAPSHOT
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (error) {
    throw new StoreFileError(file, `not valid JSON (${(error as Error).message})`)
  }
  const d = doc as { format?: unknown; version?: unknown; generation?: unknown; collections?: unknown }
  if (typeof doc !== 'object' || doc === null || d.format !== SNAPSHOT_FORMAT)
    throw new StoreFileError(file, `JSON, but not a paysandbox store (no "format": "${SNAPSHOT_FORMAT}")`)
  if (d.version !== SNAPSHOT_VERSION)
    throw new StoreFileError(
      file,
      `store format version ${String(d.version)}, this build reads ${SNAPSHOT_VERSION}`,
    )
  if (!Number.isSafeInteger(d.generation) || (d.generation as number) < 0)
    throw new StoreFileError(file, '"generation" is not a non-negative integer')
  if (typeof d.collections !== 'object' || d.collections === null || Array.isArray(d.collections))
    throw new StoreFileError(file, '"collections" is not an object')
  const collections: [string, object[]][] = []
  for (const [name, records] of Object.entries(d.collections)) {
    if (!Array.isArray(records)) throw new StoreFileError(file, `collection "${name}" is not an array`)
    collections.push([name, records])
  }
  return { generation: d.generation as number, collections }
}
