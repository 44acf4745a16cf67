import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import { createLowdbStore, createMemoryStore } from '../../src/adapters/index.js'
import { CONTRACT_INDEXES, type ContractCollections, describeStoreContract } from './store-contract.js'

const dir = mkdtempSync(join(tmpdir(), 'paysandbox-store-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let n = 0

describeStoreContract('memory', async () => createMemoryStore<ContractCollections>(CONTRACT_INDEXES))

describeStoreContract('lowdb', () =>
  createLowdbStore<ContractCollections>({
    file: join(dir, `contract-${n++}`, 'db.json'),
    indexes: CONTRACT_INDEXES,
  }),
)

// Same suite with a journal folded into the snapshot on nearly every write.
describeStoreContract('lowdb, compacting constantly', () =>
  createLowdbStore<ContractCollections>({
    file: join(dir, `compacting-${n++}.json`),
    indexes: CONTRACT_INDEXES,
    compactMinBytes: 0,
  }),
)
