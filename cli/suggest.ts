/** The "Did you mean …?" matcher, shared with the config loader (src/core/validation/closest.ts). */
export { closest } from '../src/core/validation/closest.js'
