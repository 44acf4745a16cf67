export { checkoutHash, checkoutSignatures } from './checkout.js'
export {
  cardDigits,
  md5,
  rev,
  type Secret,
  sameSignature,
  type SigningKey,
  sha1,
  sha256,
  signingKey,
  upper,
} from './primitives.js'
export { type FormValue, s2sApmSignatures } from './s2s-apm.js'
export { type CardRef, s2sCardSignatures } from './s2s-card.js'
