import type { ReactNode } from 'react'
import QRCode from 'qrcode'
import { apmPageUrl } from '../../core/apm/connector.js'
import { beelineOtp, sentMessages } from '../../core/apm/messages.js'
import type { ApmPayment, PayerStep } from '../../core/apm/index.js'
import { isWallet, paymentWalletFlow } from '../../core/payments/wallets.js'
import { findMethod } from '../../core/payments/methods.js'
import { formatAmount } from '../amount.js'
import { pageFieldFor } from '../method-fields.js'
import { methodNameOf } from '../method-name.js'
import type { PageContext } from '../page-context.js'
import { ConfirmView } from './groups/ConfirmView.js'
import { CryptoView } from './groups/CryptoView.js'
import { DetailsView } from './groups/DetailsView.js'
import type { FactRow, ViewText } from './groups/common.js'
import { type AskedField, FieldsView } from './groups/FieldsView.js'
import { MessageView } from './groups/MessageView.js'
import { QrView } from './groups/QrView.js'
import { RedirectView } from './groups/RedirectView.js'
import { WalletView } from './groups/WalletView.js'

/** What the payer typed on a page that came back with errors. */
export interface Entered {
  values?: Record<string, string>
  errors?: Record<string, string>
}

/**
 * The QR code as SVG, synchronously (handlers are synchronous: the unit of work): qrcode's SVG
 * renderer answers its callback before `toString` returns.
 */
function qrSvg(text: string): string {
  let svg: string | undefined
  let failed: unknown
  QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }, (error, out) => {
    if (error) failed = error
    else svg = out
  })
  if (failed) throw failed
  if (svg === undefined) throw new Error('qrcode: the SVG renderer did not answer synchronously')
  return svg
}

/** wallet1's "built-in-support" browser (2.2.3): Safari, told apart from the browsers that also say Safari. */
export const isSafari = (userAgent: string | undefined): boolean =>
  /Safari\//.test(userAgent ?? '') &&
  !/(Chrome|Chromium|CriOS|FxiOS|EdgiOS|Edg\/|OPR|Android)/.test(userAgent ?? '')

/** The inputs the page still asks for: the catalogue's `collects_on_page` minus what was sent (payerStep). */
export function askedFields(
  page: PageContext,
  payment: ApmPayment,
  step: PayerStep,
  entered: Entered = {},
): AskedField[] {
  const country = payment.payer?.payer_country
  return step.collect
    .filter((f) => !(payment.method === 'beeline' && f.name === 'otp'))
    .map((f) => {
      const spec = pageFieldFor(f.name, payment.method, country)
      const label = spec?.label ? page.t(spec.label) : (spec?.labelText ?? f.label)
      const error = entered.errors?.[f.name]
      const value = entered.values?.[f.name]
      return {
        name: f.name,
        label,
        // fairpay's number: "required for Brazil, Chile, Colombia" (method-fields' country rules).
        required: spec ? spec.required : f.required,
        ...(spec?.inputMode ? { inputMode: spec.inputMode } : {}),
        ...(error ? { error } : {}),
        ...(value ? { value } : {}),
      }
    })
}

const ONE_COLLECTION = ['bank_name', 'bank_code', 'branch_name', 'branch_code', 'account_number'] as const
/** Values that stay the payer's secret: never shown back. */
const SECRET = /otp|pin|confirmation_code|password/i

/** The value the merchant or the payer already gave for a catalogue field, if any. */
function givenValue(payment: ApmPayment, name: string, fieldName: string): string | undefined {
  if (name.startsWith('billing_address.')) {
    const value = (payment.payer as Record<string, unknown> | undefined)?.[`payer_${name.slice(16)}`]
    return typeof value === 'string' && value ? value : undefined
  }
  let node: unknown = payment.apm.parameters
  for (const key of fieldName.split('.')) {
    if (!node || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return typeof node === 'string' || typeof node === 'number' ? String(node) || undefined : undefined
}

/** The method's page fields already given (by the merchant or on the hosted page), as the payer reads them. */
export function givenFields(page: PageContext, payment: ApmPayment): FactRow[] {
  const entry = findMethod(payment.method)
  const country = payment.payer?.payer_country
  const rows: FactRow[] = []
  for (const name of entry?.collects_on_page ?? []) {
    const spec = pageFieldFor(name, payment.method, country)
    if (!spec || SECRET.test(spec.name)) continue
    const value = givenValue(payment, name, spec.name)
    if (!value) continue
    const label = spec.label ? page.t(spec.label) : (spec.labelText ?? name)
    rows.push({ label, value, ltr: Boolean(spec.inputMode && spec.inputMode !== 'text') })
  }
  return rows
}

/** one-collection, "details shown after Pay": what the payer entered and the reference to quote. */
function oneCollectionDetails(page: PageContext, payment: ApmPayment): FactRow[] | undefined {
  const params = payment.apm.parameters ?? {}
  const rows: FactRow[] = ONE_COLLECTION.filter((k) => typeof params[k] === 'string' && params[k]).map(
    (k) => ({
      label: page.t(`field_${k}`),
      value: String(params[k]),
      ltr: k.endsWith('code') || k === 'account_number',
    }),
  )
  if (!rows.length) return undefined
  return [
    ...rows,
    {
      label: page.t('detailReference'),
      value: payment.id.replace(/-/g, '').slice(0, 16).toUpperCase(),
      ltr: true,
    },
  ]
}

export interface GroupView {
  node: ReactNode
  approveLabel?: string
}

/** The behaviour group's part of the simulator page, in the page's language. */
export function groupView(
  page: PageContext,
  payment: ApmPayment,
  step: PayerStep,
  userAgent: string | undefined,
  entered: Entered = {},
): GroupView {
  const view = step.view
  const text: ViewText = {
    t: page.t,
    lang: page.lang,
    name: methodNameOf(payment.method, page.t),
    amount: formatAmount(payment.order.amount, payment.order.currency, page.lang),
  }
  const asked = askedFields(page, payment, step, entered)
  const extra = asked.length ? <FieldsView text={text} fields={asked} inline /> : null
  switch (view.kind) {
    case 'qr':
      return {
        node: (
          <>
            <QrView view={view} svg={qrSvg(view.qr_payload)} text={text} />
            {extra}
          </>
        ),
      }
    case 'crypto_address':
      return { node: <CryptoView view={view} svg={qrSvg(view.address)} text={text} /> }
    case 'payment_details':
      return {
        node: (
          <>
            <DetailsView view={view} text={text} />
            {extra}
          </>
        ),
      }
    case 'app_confirmation':
    case 'device_confirmation':
      return {
        node: (
          <>
            <ConfirmView view={view} text={text} />
            {extra}
          </>
        ),
      }
    case 'message_link':
      return { node: <MessageView view={view} text={text} /> }
    case 'extra_page_fields': {
      const otpSent =
        payment.method === 'beeline'
          ? sentMessages(page.ctx, payment.id).find((m) => m.kind === 'otp')
          : undefined
      const details = payment.method === 'one-collection' ? oneCollectionDetails(page, payment) : undefined
      return {
        node: (
          <FieldsView
            text={text}
            fields={asked}
            given={details ? [] : givenFields(page, payment)}
            {...(payment.method === 'beeline'
              ? {
                  otp: {
                    ...(otpSent?.to ? { to: otpSent.to } : {}),
                    ...(entered.errors?.otp_code ? { error: entered.errors.otp_code } : {}),
                  },
                }
              : {})}
            {...(payment.method === 'axxi-cash'
              ? { ticketUrl: `${page.base}/apm/${encodeURIComponent(payment.id)}/ticket.pdf` }
              : {})}
            {...(details ? { details } : {})}
          />
        ),
      }
    }
    case 'wallet': {
      const wallet = payment.method
      const scan = wallet === 'wallet1' && !isSafari(userAgent)
      const url = apmPageUrl(page.ctx, payment.id)
      return {
        node: (
          <WalletView
            text={text}
            flow={isWallet(wallet) && paymentWalletFlow(payment) === 'card' ? 'card' : 'virtual'}
            {...(payment.card ? { card: payment.card.masked } : {})}
            {...(scan ? { scan: { svg: qrSvg(url), url } } : {})}
          />
        ),
        ...(scan ? {} : { approveLabel: page.t('apmPayWith', { method: text.name }) }),
      }
    }
    default:
      return {
        node: (
          <>
            <RedirectView view={view} text={text} />
            {extra}
          </>
        ),
      }
  }
}

/** beeline's check: the code typed is the one "sent to payer". */
export const otpMatches = (payment: ApmPayment, typed: unknown): boolean =>
  typeof typed === 'string' && typed.replace(/\s/g, '') === beelineOtp(payment.id)
