export { createSystemClock, MAX_TIMER_MS, type SystemClockOptions } from './clock/system-clock.js'
export { createVirtualClock, DEFAULT_VIRTUAL_START_MS, type VirtualClock } from './clock/virtual-clock.js'
export { createRandomIds } from './ids/random-ids.js'
export { createSeededIds } from './ids/seeded-ids.js'
export {
  createLowdbStore,
  type LowdbStore,
  type LowdbStoreOptions,
  type LowdbStoreStats,
} from './store/lowdb-store.js'
export { createMemoryStore } from './store/memory-store.js'
export { type AppendHandle, nodeStoreFiles, type StoreFiles } from './store/files.js'
export { DEFAULT_RETAIN, DEFAULT_RETAIN_DEMO, type RetainingStore, withRetention } from './store/retention.js'
export { StoreFileError } from './store/snapshot.js'
