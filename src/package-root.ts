import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * The directory of paysandbox's package.json: the repository in development (sources under src/),
 * the package directory once built (dist/src/...) or installed (node_modules/paysandbox). The
 * schemas, the bundled scenarios and the demo configuration are read from there at run time.
 */
export const PACKAGE_ROOT: string = findPackageRoot(import.meta.dirname)

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
    if (dirname(dir) === dir) throw new Error(`paysandbox: no package.json above ${from}`)
  }
}
