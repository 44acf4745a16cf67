// Part of `npm run build` (scripts/build.mjs): the command line, from its TypeScript sources
// (cli/main.ts, and cli/cli.ts for the build's --help rendering), bundled with the engine it runs
// into dist/cli/bundle/, the only form the CLI runs in (bin/paysandbox.js). Why: `serve` loaded
// about 175 of the package's modules one by one, and resolving them cost about a quarter of its
// start-up (docs/internals.md, "Build"). Packages stay in node_modules (packages: external), so the bundle
// holds only this package's own code once; `splitting` keeps what one command needs (express for
// `serve`, the conformance kit for `test`) out of the others' start-up.
//
// The `tui` command's imports that leave cli/ stay outside (the relative paths are unchanged:
// dist/cli/bundle sits at the depth of cli/commands, so they point into dist/src, the tsc build):
// the console's own bundle (dist/src/ui/run.bundle.js) loads the engine from dist/src, and the
// errors tui.ts tells apart (ConfigError, ...) must be those classes, not copies in this bundle.
import { dirname, join, resolve } from 'node:path'
import * as esbuild from 'esbuild'

/** @returns {Promise<string>} the bundle's directory */
export async function bundleCli(root, dist) {
  const cliDir = join(root, 'cli')
  const outdir = join(dist, 'cli', 'bundle')
  const tuiCommand = join(cliDir, 'commands', 'tui.ts')
  /** @type {import('esbuild').Plugin} */
  const keepTuiOutside = {
    name: 'keep-tui-imports-outside',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.importer !== tuiCommand) return undefined
        const target = resolve(args.resolveDir, args.path)
        if (dirname(target).startsWith(cliDir)) return undefined
        return { path: args.path, external: true }
      })
    },
  }
  await esbuild.build({
    entryPoints: [join(cliDir, 'main.ts'), join(cliDir, 'cli.ts')],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    tsconfig: join(root, 'tsconfig.json'),
    plugins: [keepTuiOutside],
    logLevel: 'warning',
  })
  return outdir
}
