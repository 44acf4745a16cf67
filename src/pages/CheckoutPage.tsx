import { BillingFields } from './BillingFields.js'
import { BrowserInfoFields, CardFields } from './CardFields.js'
import type { CheckoutView } from './checkout-view.js'
import { Document } from './Document.js'
import { ErrorSummary, type PageError } from './ErrorSummary.js'
import { Field } from './Field.js'
import type { Lang, Translate } from './i18n.js'
import { MethodList } from './MethodList.js'
import { OrderSummary } from './OrderSummary.js'
import { Shell } from './Shell.js'
import { Terms } from './Terms.js'
import { TestCards } from './TestCards.js'
import { clientMessages, formatSeconds, methodFieldId } from './client-data.js'

export interface CheckoutPageProps {
  t: Translate
  lang: Lang
  base: string
  chosen?: Lang
  view: CheckoutView
  errors: PageError[]
  values: Record<string, string>
  /** Two-digit year for the test-card hints (a few years ahead on the sandbox clock). */
  testYear: string
}

/** The hosted payment page (`/auth/<token>`): the order, the method choice and the chosen method's form. */
export function CheckoutPage(props: CheckoutPageProps) {
  const { t, lang, base, chosen, view, values } = props
  const path = `${base}/auth/${encodeURIComponent(view.token)}`
  const errors: PageError[] =
    view.declineReason !== undefined && !props.errors.length
      ? [
          {
            message: `${t('declinedNotice')}${view.declineReason ? ` ${t('declineReason', { reason: view.declineReason })}` : ''}`,
          },
        ]
      : props.errors
  const byField = Object.fromEntries(errors.filter((e) => e.field).map((e) => [e.field, e.message]))
  const card = view.selected.isCard
  const action = card ? `${path}/pay` : `${path}/method/${encodeURIComponent(view.selected.id)}`
  return (
    <Document
      lang={lang}
      title={`${t('documentTitle')} · ${view.merchant}`}
      base={base}
      data={{ page: 'checkout', self: path, expiresIn: view.expiresInSeconds, messages: clientMessages(t) }}
    >
      <Shell t={t} picker={{ lang, t, action: path, keep: { method: view.selected.id } }}>
        <div className="card">
          <OrderSummary
            t={t}
            merchant={view.merchant}
            amount={view.amountText}
            orderNumber={view.order.number}
            description={view.order.description}
          />
          <MethodList
            t={t}
            methods={view.methods}
            selected={view.selected.id}
            action={path}
            {...(chosen ? { chosen } : {})}
          />
          <ErrorSummary errors={errors} t={t} />
          <form method="post" action={action} id="pay-form" data-form={card ? 'card' : 'method'}>
            {chosen ? <input type="hidden" name="lang" value={chosen} /> : null}
            <h2 className={view.methods.length > 1 ? 'sr-only' : undefined}>
              {card ? t('cardTitle') : view.selected.title}
            </h2>
            {card ? (
              <>
                <CardFields t={t} errors={byField} values={values} cvvOptional={view.cvvOptional} />
                <BrowserInfoFields />
              </>
            ) : (
              <MethodFields {...props} byField={byField} />
            )}
            <BillingFields
              t={t}
              askState={view.askState}
              askPhoneCode={view.askPhoneCode}
              {...(view.phone ? { phone: view.phone } : {})}
              errors={byField}
              values={values}
            />
            {view.terms ? (
              <Terms t={t} url={view.terms.url} {...(byField.terms ? { error: byField.terms } : {})} />
            ) : null}
            <div className="actions">
              <button
                type="submit"
                className="btn"
                id="pay-button"
                data-requires-terms={view.terms ? '' : undefined}
              >
                {/* The button names the chosen method: "Pay €25.00 by card", "Continue with Pix". */}
                {card
                  ? t('payByCard', { amount: view.amountText })
                  : t('continueWith', { method: view.selected.title })}
              </button>
            </div>
          </form>
          <form method="post" action={`${path}/cancel`} className="actions">
            {chosen ? <input type="hidden" name="lang" value={chosen} /> : null}
            <button type="submit" className="btn btn-quiet" id="cancel-button">
              {t('cancel')}
            </button>
          </form>
          <p className="timer" id="expiry-timer" data-seconds={view.expiresInSeconds} data-clock={view.clock}>
            {t('expiresIn', { time: formatSeconds(view.expiresInSeconds) })}
          </p>
          {card ? <TestCards t={t} year={props.testYear} /> : null}
        </div>
      </Shell>
    </Document>
  )
}

function MethodFields({ t, view, values, byField }: CheckoutPageProps & { byField: Record<string, string> }) {
  if (!view.fields.length) return <p>{t('methodNoFields', { method: view.selected.title })}</p>
  return (
    <>
      <p>{t('methodFieldsIntro', { method: view.selected.title })}</p>
      {view.fields.map((f) => (
        <Field
          key={f.name}
          t={t}
          id={methodFieldId(f.name)}
          name={f.name}
          label={f.label ? t(f.label) : (f.labelText ?? f.name)}
          {...(f.hint ? { hint: t(f.hint) } : {})}
          error={byField[methodFieldId(f.name)]}
          value={values[f.name]}
          required={f.required}
          {...(f.inputMode ? { inputMode: f.inputMode } : {})}
          {...(f.inputMode && f.inputMode !== 'text' ? { dir: 'ltr' as const } : {})}
          {...(f.autoComplete ? { autoComplete: f.autoComplete } : {})}
          {...(f.pattern ? { pattern: f.pattern } : {})}
          {...(f.options ? { options: f.options } : {})}
          maxLength={100}
        />
      ))}
    </>
  )
}
