import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../package-root.js'

/**
 * The folder of the hosted pages' modules and their client scripts (assets/, apm/assets/): this
 * module's own folder when it runs from src/ or dist/src/, the package's dist/src/pages when it
 * runs from the CLI's one-file bundle (dist/cli/bundle, scripts/cli-bundle.mjs), which has no
 * assets beside it.
 */
export function pagesDir(): string {
  dir ??= existsSync(join(import.meta.dirname, 'assets'))
    ? import.meta.dirname
    : join(PACKAGE_ROOT, 'dist', 'src', 'pages')
  return dir
}
let dir: string | undefined
