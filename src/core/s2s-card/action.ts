import type { DeclaredAction } from '../engine/pipeline.js'

/**
 * One S2S CARD action: gets the parsed form, answers the JSON body (the module writes it).
 * Declared (pipeline.ts `declareAction`): schema, credential, signature formula, load, release
 * rule. Synchronous: the action's checks and writes are one unit of work (docs/architecture.md).
 */
export type S2sCardAction = DeclaredAction
