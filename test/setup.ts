// The core reads its schemas and catalogues from an injected source (src/core/ports/schema-source.ts):
// the tests, as every entry point, install the package's schemas/ folder.
import '../src/schema-files.js'
