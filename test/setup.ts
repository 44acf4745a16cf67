// The core reads its schemas and catalogues from an injected source (src/core/ports/schema-source.ts):
// the tests, as every entry point, install the package's schemas/ folder.
import '../src/schema-files.js'
import { afterAll } from 'vitest'
import { removeScratchDirs } from './helpers/scratch.js'

// Registered before each file's own hooks, so it runs after them (vitest runs afterAll hooks last
// registered first): the file's servers and processes have stopped using its scratch directories.
afterAll(() => removeScratchDirs())
