import type { ReactNode } from 'react'
import type { ApmOutcome, PayerStep } from '../../core/apm/index.js'
import { Document } from '../Document.js'
import type { Lang, MessageKey, Translate } from '../i18n.js'
import { methodNameOf } from '../method-name.js'
import { OrderSummary } from '../OrderSummary.js'
import { Shell } from '../Shell.js'

const LABEL: Record<ApmOutcome, MessageKey> = {
  approve: 'apmApprove',
  decline: 'apmDecline',
  pending: 'apmPending',
  expire: 'apmExpire',
}
const STYLE: Record<ApmOutcome, string> = {
  approve: 'btn',
  decline: 'btn btn-danger',
  pending: 'btn btn-quiet',
  expire: 'btn btn-quiet',
}

export interface ApmPageProps {
  t: Translate
  lang: Lang
  base: string
  chosen?: Lang
  step: PayerStep
  merchant: string
  amount: string
  /** The group's own view (QR, details, prompt, address, fields, wallet). */
  children: ReactNode
  /** Where the outcome form posts; the state URL the script polls while the payment waits. */
  action: string
  stateUrl: string
  /** The label of the approve button when the method names it (a wallet's native button). */
  approveLabel?: string
  error?: string
}

/**
 * The simulator page of an alternative method (docs/rules.md#test-data (sandbox): "the payer (or a
 * scenario) chooses the outcome on the simulator page it shows: approve, decline, leave pending,
 * or let it expire"): the order, the behaviour group's view, and only the outcomes the state
 * table allows now. The script polls `stateUrl` so a payment confirmed elsewhere (control API,
 * scenario) moves the page on by itself.
 */
export function ApmPage({
  t,
  lang,
  base,
  chosen,
  step,
  merchant,
  amount,
  children,
  action,
  stateUrl,
  approveLabel,
  error,
}: ApmPageProps) {
  const name = methodNameOf(step.method, t)
  return (
    <Document
      lang={lang}
      title={`${name} · ${t('documentTitle')}`}
      base={base}
      data={{ page: 'apm', group: step.group, status: step.status, state_url: stateUrl }}
      scripts={['apm.js']}
    >
      <Shell t={t}>
        <div className="card" data-group={step.group}>
          <OrderSummary
            t={t}
            merchant={merchant}
            amount={amount}
            orderNumber={step.order_id}
            description={step.description}
          />
          <h2 id="apm-title">{name}</h2>
          {error ? (
            <div className="alert alert-error" role="alert" id="apm-error">
              {error}
            </div>
          ) : null}
          {children}
          <form method="post" action={action} className="actions" data-form="step" id="apm-outcome">
            {chosen ? <input type="hidden" name="lang" value={chosen} /> : null}
            {step.outcomes.map((outcome) => (
              <button
                key={outcome}
                type="submit"
                name="outcome"
                value={outcome}
                className={STYLE[outcome]}
                id={`apm-${outcome}`}
                formNoValidate={outcome !== 'approve'}
              >
                {outcome === 'approve' && approveLabel ? approveLabel : t(LABEL[outcome])}
              </button>
            ))}
          </form>
          <p className="note">
            {t('apmNote')} <code dir="ltr">POST /sandbox/payments/{step.payment_id}/apm</code>
          </p>
        </div>
      </Shell>
    </Document>
  )
}
