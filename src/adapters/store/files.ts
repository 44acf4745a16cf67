import { open, rename, truncate, unlink, writeFile } from 'node:fs/promises'

/** A file opened for appending. */
export interface AppendHandle {
  append(text: string): Promise<void>
  close(): Promise<void>
}

/**
 * Every way the lowdb store writes to disk, injectable so that tests can make the disk "full"
 * (fail with ENOSPC, or after writing part of the data) without filling a real one.
 */
export interface StoreFiles {
  openAppend(path: string): Promise<AppendHandle>
  writeFile(path: string, text: string): Promise<void>
  rename(from: string, to: string): Promise<void>
  truncate(path: string, bytes: number): Promise<void>
  /** Removes a file; a missing one is not an error. */
  remove(path: string): Promise<void>
}

export const nodeStoreFiles: StoreFiles = {
  async openAppend(path) {
    const handle = await open(path, 'a')
    return { append: (text) => handle.appendFile(text, 'utf8'), close: () => handle.close() }
  },
  writeFile: (path, text) => writeFile(path, text, 'utf8'),
  rename,
  truncate,
  async remove(path) {
    try {
      await unlink(path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  },
}
