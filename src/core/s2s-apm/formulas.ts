import { field, type SigningFormula } from '../engine/pipeline.js'
import { s2sApmSignatures } from '../signatures/index.js'

/**
 * The S2S APM request signatures (docs/rules.md#signatures), as named formulas the actions
 * declare: the gateway checks with them, the kit and the library sign with them.
 */
export const S2S_APM_FORMULAS = {
  payment: {
    id: 's2s-apm.payment',
    text: 'md5(upper(rev(identifier + order_id + order_amount + order_currency + password)))',
    sign: (f, secret) =>
      s2sApmSignatures.payment(
        field(f.identifier),
        field(f.order_id),
        field(f.order_amount),
        field(f.order_currency),
        secret,
      ),
  },
  payout: {
    id: 's2s-apm.payout',
    text: 'md5(upper(rev(order_id + order_amount + order_currency)) + password)',
    sign: (f, secret) =>
      s2sApmSignatures.credit2virtual(
        field(f.order_id),
        field(f.order_amount),
        field(f.order_currency),
        secret,
      ),
  },
  transaction: {
    id: 's2s-apm.transaction',
    text: 'md5(upper(rev(trans_id)) + password)',
    sign: (f, secret) => s2sApmSignatures.transaction(field(f.trans_id), secret),
  },
  creditvoid: {
    id: 's2s-apm.creditvoid',
    text: 'md5(upper(rev(trans_id + password)))',
    sign: (f, secret) => s2sApmSignatures.creditvoid(field(f.trans_id), secret),
  },
} satisfies Record<string, SigningFormula>
