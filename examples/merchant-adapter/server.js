// The merchant backend this adapter example drives: the project's reference merchant
// (fixtures/merchants/reference, TypeScript, run through tsx as in a clone of the repository).
// It reads PORT, MERCHANT_KEY and MERCHANT_PASSWORD, which merchant.json passes to it.
// Your own backend replaces this file: `node server.js`, listening on $PORT.
import { register } from 'tsx/esm/api'

register()
await import('../../fixtures/merchants/reference/main.ts')
