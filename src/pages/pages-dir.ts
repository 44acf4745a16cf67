import { join } from 'node:path'
import { PACKAGE_ROOT } from '../package-root.js'

/**
 * The folder of the hosted pages' client scripts (assets/, apm/assets/): they are served as they
 * are written, from src/pages in the repository and in the package alike (package.json "files"
 * ships them), whichever build of the modules serves them (the CLI's bundle or dist/src).
 */
export function pagesDir(): string {
  return join(PACKAGE_ROOT, 'src', 'pages')
}
