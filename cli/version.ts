import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../src/package-root.js'

/** What bare `paysandbox` says after the usage. */
export const NO_COMMAND = 'Name a command.'

/** paysandbox's own version, from its package.json (also when installed in another project). */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version
}
