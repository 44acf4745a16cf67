export {
  type ApmFirstStep,
  type ApmStart,
  apmPageUrl,
  firstApmStep,
  type ResolvedMethod,
  resolveApmMethod,
  startApmPayment,
  VCARD,
  VCARD_FAIL,
  VCARD_SUCCESS,
} from './connector.js'
export { apmControlModule } from './control.js'
export {
  applyApmOutcome,
  approveApm,
  declineApm,
  expireApm,
  leavePending,
  loadApmPayment,
  outcomeAllowed,
} from './outcomes.js'
export { type PageField, type PayerStep, payerStep, payerStepOf } from './payer-step.js'
export {
  APM_DECLINE_REASONS,
  APM_OUTCOMES,
  type ApmDetails,
  type ApmOutcome,
  type ApmPayment,
  isApmPayment,
} from './types.js'
export type { PayerView, PhoneInfo } from './views.js'
