#!/usr/bin/env node
// The CLI is TypeScript; tsx's loader compiles it on the fly (and caches the result).
import { register } from 'tsx/esm/api'

register()
await import('../cli/main.ts')
