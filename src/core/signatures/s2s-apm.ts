import { md5, rev, upper } from './primitives.js'

export type FormValue = string | { [key: string]: FormValue } | FormValue[]

/** S2S APM signatures (decisions.md §1; CAPTURE/VOID/GET_TRANS_STATUS as in the interface's Authentication 3). */
export const s2sApmSignatures = {
  /** SALE, DEBIT2VIRTUAL, DEBIT2VIRTUAL_CALC */
  payment: (identifier: string, orderId: string, amount: string, currency: string, password: string) =>
    md5(upper(rev(identifier + orderId + amount + currency + password))),
  creditvoid: (transId: string, password: string) => md5(upper(rev(transId + password))),
  /** CAPTURE, VOID, GET_TRANS_STATUS: md5 of upper(rev(trans_id)) followed by the password */
  transaction: (transId: string, password: string) => md5(upper(rev(transId)) + password),
  /** Callback: every field but `hash`, keys sorted, each value reversed (recursively), joined, upper-cased, password appended. */
  callback: (body: Record<string, FormValue>, password: string) => {
    const { hash: _ignored, ...rest } = body
    return md5(upper(flatten(rest)) + password)
  },
}

function flatten(value: FormValue): string {
  if (typeof value === 'string') return rev(value)
  if (Array.isArray(value)) return value.map(flatten).join('')
  return Object.keys(value)
    .sort()
    .map((k) => flatten(value[k] as FormValue))
    .join('')
}
