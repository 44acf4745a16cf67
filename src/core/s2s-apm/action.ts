import type { DeclaredAction } from '../engine/pipeline.js'

/**
 * One S2S APM action: gets the parsed form, answers the JSON body (the module writes it). Every
 * action is declared (pipeline.ts `declareAction`), so each goes through the same steps, the
 * 6.6.5 release check included.
 */
export type S2sApmAction = DeclaredAction
