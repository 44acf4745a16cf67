#!/usr/bin/env node
// The CLI, compiled to JavaScript by `npm run build` (dist/ ships in the package): its one-file
// bundle (dist/cli/bundle, faster start-up) when the build made one, else dist/cli/main.js.
import { existsSync } from 'node:fs'

const bundled = new URL('../dist/cli/bundle/main.js', import.meta.url)
try {
  if (existsSync(bundled)) await import(bundled.href)
  else await import('../dist/cli/main.js')
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli/main.js')) {
    console.error(
      'paysandbox: dist/ is missing; run `npm run build` first (a clone of the repository is not built).',
    )
    process.exit(2)
  }
  throw error
}
