import { nodeStoreFiles, type StoreFiles } from '../../src/adapters/store/files.js'

/**
 * The lowdb store's file access (StoreFiles) with a disk that can be "filled": while full, every
 * write fails with ENOSPC as node:fs reports it, after writing part of its data when `partial` is
 * set (what a real full disk does to a large write). Shrinking and removing files still work, as
 * on a real full disk. No real disk is filled.
 */
export function createFaultyFiles(base: StoreFiles = nodeStoreFiles) {
  let full: { partial: boolean; code: string } | undefined
  let failures = 0
  const refuse = () => {
    failures++
    const code = full?.code ?? 'ENOSPC'
    return Object.assign(new Error(`${code}: no space left on device, write`), { code })
  }
  const half = (text: string) => text.slice(0, Math.ceil(text.length / 2))
  const files: StoreFiles = {
    async openAppend(path) {
      if (full && !full.partial) throw refuse()
      const handle = await base.openAppend(path)
      return {
        async append(text) {
          if (!full) return handle.append(text)
          if (full.partial) await handle.append(half(text))
          throw refuse()
        },
        close: () => handle.close(),
      }
    },
    async writeFile(path, text) {
      if (!full) return base.writeFile(path, text)
      if (full.partial) await base.writeFile(path, half(text))
      throw refuse()
    },
    rename: (from, to) => base.rename(from, to),
    truncate: (path, bytes) => base.truncate(path, bytes),
    remove: (path) => base.remove(path),
  }
  return {
    files,
    /** From now on writes fail (`code` ENOSPC by default; EIO for a failing device). */
    fill(options: { partial?: boolean; code?: string } = {}) {
      full = { partial: options.partial ?? true, code: options.code ?? 'ENOSPC' }
    },
    /** Writes work again. */
    free() {
      full = undefined
    },
    failures: () => failures,
  }
}
