import type { ReactNode } from 'react'
import QRCode from 'qrcode'
import { apmPageUrl } from '../../core/apm/connector.js'
import { beelineOtp, sentMessages } from '../../core/apm/messages.js'
import type { ApmPayment, PayerStep } from '../../core/apm/index.js'
import { isWallet, paymentWalletFlow } from '../../core/apm/wallets.js'
import { pageFieldFor } from '../method-fields.js'
import type { PageContext } from '../page-context.js'
import { ConfirmView } from './groups/ConfirmView.js'
import { CryptoView } from './groups/CryptoView.js'
import { DetailsView } from './groups/DetailsView.js'
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

const qrSvg = (text: string): Promise<string> =>
  QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })

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

/** one-collection, "details shown after Pay": what the payer entered and the reference to quote. */
function oneCollectionDetails(payment: ApmPayment): { label: string; value: string }[] | undefined {
  const params = payment.apm.parameters ?? {}
  const rows = ONE_COLLECTION.filter((k) => typeof params[k] === 'string' && params[k]).map((k) => ({
    label: k.replace('_', ' ').replace(/^./, (c) => c.toUpperCase()),
    value: String(params[k]),
  }))
  if (!rows.length) return undefined
  return [...rows, { label: 'Reference', value: payment.id.replace(/-/g, '').slice(0, 16).toUpperCase() }]
}

export interface GroupView {
  node: ReactNode
  approveLabel?: string
}

/** The behaviour group's part of the simulator page. */
export async function groupView(
  page: PageContext,
  payment: ApmPayment,
  step: PayerStep,
  userAgent: string | undefined,
  entered: Entered = {},
): Promise<GroupView> {
  const view = step.view
  const asked = askedFields(page, payment, step, entered)
  const extra = asked.length ? (
    <FieldsView view={{ kind: 'extra_page_fields', message: '' }} fields={asked} />
  ) : null
  switch (view.kind) {
    case 'qr':
      return {
        node: (
          <>
            <QrView view={view} svg={await qrSvg(view.qr_payload)} />
            {extra}
          </>
        ),
      }
    case 'crypto_address':
      return { node: <CryptoView view={view} svg={await qrSvg(view.address)} /> }
    case 'payment_details':
      return {
        node: (
          <>
            <DetailsView view={view} />
            {extra}
          </>
        ),
      }
    case 'app_confirmation':
    case 'device_confirmation':
      return {
        node: (
          <>
            <ConfirmView view={view} />
            {extra}
          </>
        ),
      }
    case 'message_link':
      return { node: <MessageView view={view} /> }
    case 'extra_page_fields': {
      const otpSent =
        payment.method === 'beeline'
          ? sentMessages(page.ctx, payment.id).find((m) => m.kind === 'otp')
          : undefined
      return {
        node: (
          <FieldsView
            view={view}
            fields={asked}
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
            {...(payment.method === 'one-collection' ? { details: oneCollectionDetails(payment) ?? [] } : {})}
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
            wallet={wallet}
            message={view.message}
            flow={isWallet(wallet) && paymentWalletFlow(payment) === 'card' ? 'card' : 'virtual'}
            {...(payment.card ? { card: payment.card.masked } : {})}
            {...(scan ? { scan: { svg: await qrSvg(url), url } } : {})}
          />
        ),
        ...(scan ? {} : { approveLabel: `Pay with ${wallet}` }),
      }
    }
    default:
      return {
        node: (
          <>
            <RedirectView view={view} />
            {extra}
          </>
        ),
      }
  }
}

/** beeline's check: the code typed is the one "sent to payer". */
export const otpMatches = (payment: ApmPayment, typed: unknown): boolean =>
  typeof typed === 'string' && typed.replace(/\s/g, '') === beelineOtp(payment.id)
