import { Document } from './Document.js'
import { translator } from './i18n.js'
import { Shell } from './Shell.js'

export interface HpfDemoPageProps {
  base: string
  token?: string
  /** The payer came back to the demo's return_url (after 3DS): what it received and the payment's status. */
  returned?: { payment_id: string; status: string; reason?: string }
  /** The built-in demo merchant exists, so the page can make a session itself. */
  canCreate: boolean
}

const SERVER_SNIPPET = `curl -X POST {base_url}/api/v1/session/token \\
  -H 'Content-Type: application/json' \\
  -d '{"merchant_key": "<MERCHANT_KEY>", "operation": "purchase", "methods": ["card"],
       "order": {"number": "order-1", "amount": "10.00", "currency": "EUR", "description": "Order 1"},
       "return_url": "https://shop.example/return", "hash": "<SESSION_HASH>"}'
# hash = sha1(md5(upper(order.number + order.amount + order.currency + order.description + password)))
# answer: {"token": "<SESSION_TOKEN>"}`

const PAGE_SNIPPET = `<div id="card-number"></div> <div id="card-expiry"></div> <div id="card-cvv"></div>
<script src="{base_url}/sdk/hosted-fields.js"></script>
<script>
  const hostedFields = new HostedFields()
  await hostedFields.init({
    sessionToken: '<SESSION_TOKEN>',
    fields: { card: { id: 'card-number' }, expiry: { id: 'card-expiry' }, cvv: { id: 'card-cvv' } },
    style: { base: { fontSize: '16px' }, invalid: { color: '#b3261e' } },
  })
  hostedFields.cardOn('input', (state) => console.log(state))   // {field, empty, complete, valid, brand}
  // On "Pay": the frames send the card into the session, then your server pays
  const collected = await hostedFields.collectIframesData()     // {result: 'success'} or {result: 'error', errors}
</script>`

const PAY_SNIPPET = `curl -X POST {base_url}/api/v1/processing/purchase/card \\
  -H 'Content-Type: application/json' -H 'Token: <SESSION_TOKEN>' \\
  -d '{"with_hosted_fields": true, "name": "Jane Doe", "email": "jane@shop.example",
       "browser_info": {"user_agent": "...", "language": "en-GB", "javascript_enabled": true}}'
# {"result": "success" | "decline" | "redirect" | "waiting" | "undefined", "payment_id": "...",
#  "redirect_url", "redirect_params", "redirect_method" (redirect: send the payer there; 3DS),
#  "return_url_query_params", "decline_message" (decline)}
# After 3DS the payer comes back to return_url with payment_id, trans_id, order_id and hash.`

/**
 * A merchant's checkout page built only on /sdk/hosted-fields.js (docs/rules.md#sessions): three fields
 * in the merchant's own elements, collectIframesData(), then the payment request without card
 * data, 3DS through return_url. The demo's "server" steps (session token, payment request) are
 * the sandbox's demo merchant: the page says which calls a real merchant makes from its server.
 * Developer-facing, so English only. Works at any host the sandbox answers (localhost, 127.0.0.1):
 * every address here is relative to the page.
 */
export function HpfDemoPage({ base, token, returned, canCreate }: HpfDemoPageProps) {
  const t = translator('en')
  return (
    <Document
      lang="en"
      title="Hosted Payment Fields demo"
      base={base}
      data={{
        page: 'hpf-demo',
        ...(token ? { token, endpoint: `${base}/api/v1/processing/purchase/card` } : {}),
      }}
      scripts={['hpf-demo.js']}
    >
      <Shell t={t} wide>
        <div className="card">
          <h1>Hosted Payment Fields</h1>
          <p>
            Card fields served by the sandbox inside the merchant's own page, with the platform's{' '}
            <code>HostedFields</code> script. The card data goes from the fields into the session; the
            merchant's page and server never see it.
          </p>
          <h2 id="snippet-server">1. On your server: a session token</h2>
          {/* Focusable, so a keyboard can scroll the code sideways (WCAG 2.1.1). */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
          <pre tabIndex={0}>
            <code>{SERVER_SNIPPET}</code>
          </pre>
          <h2 id="snippet-page">2. On your checkout page: the fields</h2>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
          <pre tabIndex={0}>
            <code>{PAGE_SNIPPET}</code>
          </pre>
          <h2 id="snippet-pay">3. On your server: the payment, without card data</h2>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
          <pre tabIndex={0}>
            <code>{PAY_SNIPPET}</code>
          </pre>
        </div>
        <div className="card">
          <h2>Try it</h2>
          {returned ? (
            <p className="alert alert-info" role="status" id="hpf-returned">
              Back at return_url with payment_id <code>{returned.payment_id}</code>: the payment is{' '}
              <strong id="hpf-returned-status">{returned.status}</strong>
              {returned.reason ? ` (${returned.reason})` : ''}.
            </p>
          ) : null}
          {token ? (
            // Each field's frame carries its own label (the iframe title and the input's label inside).
            <form id="hpf-demo-form" noValidate>
              <div className="field">
                <label htmlFor="holder">Name on the card</label>
                <input id="holder" name="holder" type="text" autoComplete="cc-name" defaultValue="Jane Doe" />
              </div>
              <div className="field">
                <span className="label" aria-hidden="true">
                  Card number
                </span>
                <div id="card-number" className="hosted-field" />
              </div>
              <div className="field">
                <span className="label" aria-hidden="true">
                  Expiry (MM/YY)
                </span>
                <div id="card-expiry" className="hosted-field" />
              </div>
              <div className="field">
                <span className="label" aria-hidden="true">
                  Security code
                </span>
                <div id="card-cvv" className="hosted-field" />
              </div>
              <p className="note">
                Test card 4111 1111 1111 1111; the expiry month picks the outcome: 01 success, 02 decline, 05
                3-D Secure then success, 06 3-D Secure then decline.
              </p>
              <button type="submit" className="btn" id="hpf-demo-pay" disabled>
                Pay 10.00 EUR
              </button>
              <p id="hpf-demo-status" role="status" aria-live="polite" />
              <h3>Field events</h3>
              <ol id="hpf-demo-log" aria-live="off" />
            </form>
          ) : null}
          {canCreate ? (
            <form method="post" action={`${base}/hpf/demo`} className="actions">
              <button type="submit" className={token ? 'btn btn-quiet' : 'btn'}>
                Create a demo session (demo merchant, 10.00 EUR)
              </button>
            </form>
          ) : null}
        </div>
        {/* The platform's script, loaded as a merchant loads it. */}
        <script src={`${base}/sdk/hosted-fields.js`} defer />
      </Shell>
    </Document>
  )
}
