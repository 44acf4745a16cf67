// Everything the hosted pages' routes call, imported on the first page request (lazy.ts).
export { cancelCheckout, showCheckout } from './checkout.js'
export {
  collectHostedFieldsRoute,
  createHpfDemo,
  hostedFieldScript,
  hostedFieldsSdk,
  hpfDemoScript,
  payHpf,
  showHostedField,
  showHpf,
  showHpfDemo,
} from './hpf.js'
export { payByCard, payByMethod } from './pay.js'
export { completeStep, showStep } from './payer-step.js'
export { generalTerms, hostedScript, hpfScript } from './static.js'
