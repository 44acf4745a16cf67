// Build step 6: the declarations as every TypeScript consumer reads them (issue 33, item 5).
//   - A declaration file that names Node's types (`node:` modules, `NodeJS.`, `Buffer`) says so
//     with `/// <reference types="node" />`: a consumer whose `types` is empty (TypeScript 7's
//     default) still finds @types/node for them.
//   - Each .d.ts gets a .d.cts twin (relative imports to `.cjs`), the types of the `require`
//     condition: a CommonJS TypeScript consumer (`module: node16`) compiles, and `require('paysandbox')`
//     loads the ES module through Node's require(esm) (Node >= 20.19, package.json "engines").
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const REFERENCE = '/// <reference types="node" />\n'
const NAMES_NODE = /['"]node:[a-z_/]+['"]|\bNodeJS\.|\bBuffer\b/

const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  )

/** Rewrites the declarations under `dir`; answers how many reference Node's types and how many twins were written. */
export function finishDeclarations(dir) {
  let referencing = 0
  let twins = 0
  for (const file of walk(dir).filter((f) => f.endsWith('.d.ts'))) {
    let code = readFileSync(file, 'utf8')
    if (NAMES_NODE.test(code.replace(/\/\*[\s\S]*?\*\//g, '')) && !code.startsWith(REFERENCE)) {
      code = REFERENCE + code
      writeFileSync(file, code)
      referencing++
    }
    const cjs = code.replace(/((?:\bfrom|\bimport)\s*\(?\s*['"])(\.{1,2}\/[^'"]*?)\.js(['"])/g, '$1$2.cjs$3')
    writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), cjs)
    twins++
  }
  return { referencing, twins }
}
