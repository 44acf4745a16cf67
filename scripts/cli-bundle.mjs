// Part of `npm run build` (scripts/build.mjs): the command line (dist/cli/main.js and the engine
// it runs) as a few files in dist/cli/bundle/, which bin/paysandbox.js loads when they exist.
// Why: `serve` loaded about 175 modules of dist/ one by one, and resolving them was a large part
// of its start-up (issue 15: ready within 4x of `node -e ''`). Packages stay in node_modules
// (packages: external), so the bundle holds only this package's own code once.
//
// dist/cli/bundle sits at the same depth as dist/cli/commands, so the relative paths the commands
// compute at run time (the console's own bundle, ../../src/ui/run.bundle.js) still point into
// dist/. The `tui` command's imports stay outside the bundle: the console's bundle loads the
// engine from dist/src, and the errors tui.ts tells apart (ConfigError, ...) must be those classes.
import { copyFileSync, existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

/** @returns {Promise<string | undefined>} the bundle's directory, or undefined without esbuild */
export async function bundleCli(dist) {
  let esbuild
  try {
    esbuild = await import('esbuild')
  } catch {
    console.log('build: esbuild not installed; the CLI runs from dist/cli (slower start-up)')
    return undefined
  }
  const cliDir = join(dist, 'cli')
  const outdir = join(cliDir, 'bundle')
  const tuiCommand = join(cliDir, 'commands', 'tui.js')
  /** @type {import('esbuild').Plugin} */
  const keepTuiOutside = {
    name: 'keep-tui-imports-outside',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.importer !== tuiCommand) return undefined
        const target = resolve(args.resolveDir, args.path)
        if (dirname(target).startsWith(cliDir)) return undefined
        // Same depth as dist/cli/commands: the relative path is unchanged.
        return { path: args.path, external: true }
      })
    },
  }
  await esbuild.build({
    entryPoints: [join(cliDir, 'main.js')],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    plugins: [keepTuiOutside],
    logLevel: 'warning',
  })
  // cli/main.ts reads the help rendered at build time beside itself.
  const help = join(cliDir, 'help.json')
  if (existsSync(help)) copyFileSync(help, join(outdir, 'help.json'))
  return outdir
}
