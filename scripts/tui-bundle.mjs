// Part of `npm run build` (scripts/build.mjs): bundles the console (dist/src/ui/run.js with ink,
// react and the rest of its packages) into ONE file, dist/src/ui/run.bundle.js, which
// `paysandbox tui` loads (the console runs only from it). Why: ink and react come as about 600 modules (es-toolkit,
// react-reconciler, ...), and resolving and compiling them one by one was most of the console's
// start-up (issue 14: "Start-up under a second on the same machine as `serve`"). React is bundled
// as its production build (the development build checks and warns, for React developers).
//
// Not bundled: what the console imports only when it runs the sandbox itself or runs scenarios
// (`./in-process.js`, `../conformance/...`, the engine): those stay separate modules of dist/,
// loaded by the bundle with the same relative paths (the bundle sits beside run.js).
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import * as esbuild from 'esbuild'

/** @returns {Promise<string>} the bundle's path */
export async function bundleConsole(dist) {
  const uiDir = join(resolve(dist), 'src', 'ui')
  const entry = join(uiDir, 'run.js')
  const outfile = join(uiDir, 'run.bundle.js')
  if (!existsSync(entry)) throw new Error(`build: ${entry} is missing`)
  /** @type {import('esbuild').Plugin} */
  const keepOutside = {
    name: 'keep-engine-outside',
    setup(build) {
      // Relative imports that leave src/ui, and the embedded sandbox: loaded at run time from dist/.
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const target = resolve(args.resolveDir, args.path)
        if (!args.importer.startsWith(uiDir) || args.importer.includes('node_modules')) return undefined
        if (dirname(target) !== uiDir || target === join(uiDir, 'in-process.js'))
          return { path: `./${relative(uiDir, target).replace(/\\/g, '/')}`, external: true }
        return undefined
      })
      // yoga-layout (ink's layout, WebAssembly) reads its embedded binary with fetch() of a data:
      // URL, which loads and compiles undici (the HTTP client) for it; decoding the base64 itself
      // (its fallback when there is no fetch) gives the same bytes without that.
      build.onLoad({ filter: /yoga-wasm-base64-esm\.js$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8')
        const patched = text.replaceAll('"function"!=typeof fetch', '!0')
        if (patched === text)
          throw new Error(`build: ${args.path} no longer reads its binary with fetch; review the patch`)
        return { contents: patched, loader: 'js' }
      })
      // ink imports its devtools (react-devtools-core, not installed) only when DEV=true.
      build.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'devtools', namespace: 'stub' }))
      build.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
        contents: 'export default { initialize() {}, connectToDevTools() {} }',
      }))
    },
  }
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: process.env.PAYSANDBOX_BUNDLE_MINIFY !== '0',
    legalComments: 'eof',
    plugins: [keepOutside],
    define: { 'process.env.NODE_ENV': '"production"' },
    // The bundled CommonJS packages (react) call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  })
  return outfile
}
