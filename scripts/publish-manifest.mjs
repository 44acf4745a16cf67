#!/usr/bin/env node
// The package.json npm packs (`prepack` strips, `postpack` restores): the repository keeps
// `prepare`, which builds dist/ on a clone's `npm install` and on a git URL install, while the
// published package, built already, carries no install script, so installing it prints no warning
// (npm 11 names every install script it finds; test/package/packed-install.test.ts).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** The manifest as published: without `prepare`. */
export function publishedManifest(pkg) {
  const { prepare: _, ...scripts } = pkg.scripts ?? {}
  return { ...pkg, scripts }
}

const root = join(import.meta.dirname, '..')
const manifest = join(root, 'package.json')
const kept = join(root, 'package.json.repository')

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const mode = process.argv[2]
  if (mode === 'strip') {
    if (!existsSync(kept)) renameSync(manifest, kept)
    const pkg = JSON.parse(readFileSync(kept, 'utf8'))
    writeFileSync(manifest, `${JSON.stringify(publishedManifest(pkg), null, 2)}\n`)
  } else if (mode === 'restore') {
    if (existsSync(kept)) renameSync(kept, manifest)
  } else {
    console.error('usage: publish-manifest.mjs strip|restore')
    process.exit(2)
  }
}
