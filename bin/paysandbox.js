#!/usr/bin/env node
// The CLI as the build bundles it (scripts/cli-bundle.mjs; dist/ ships in the package).
try {
  await import('../dist/cli/bundle/main.js')
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli/bundle/main.js')) {
    console.error(
      'paysandbox: dist/ is missing; run `npm run build` first (a clone of the repository is not built).',
    )
    process.exit(2)
  }
  throw error
}
