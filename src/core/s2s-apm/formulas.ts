/** The S2S APM request signatures, declared by its actions (signatures/formulas.ts). */
export { S2S_APM_FORMULAS } from '../signatures/formulas.js'
