import { Document } from './Document.js'
import { translator } from './i18n.js'
import { Shell } from './Shell.js'

export interface HpfDemoPageProps {
  base: string
  /** The sandbox's address as merchants call it (`{base_url}`). */
  baseUrl: string
  token?: string
  /** `?result=` when the fields sent the payer back here (success_url of the demo session). */
  result?: string
  /** The built-in demo merchant exists, so the page can make a session itself. */
  canCreate: boolean
}

/**
 * A merchant's checkout page with Hosted Payment Fields, meant to be copied: the two snippets
 * are all a merchant needs (a session token from its backend, an iframe and a message listener).
 * With `?token=` the fields are embedded live below. Developer-facing, so English only.
 */
export function HpfDemoPage({ base, baseUrl, token, result, canCreate }: HpfDemoPageProps) {
  const t = translator('en')
  const origin = new URL(baseUrl).origin
  const backend = `curl -X POST ${baseUrl}/api/v1/session/token \\
  -H 'Content-Type: application/json' \\
  -d '{"merchant_key": "<MERCHANT_KEY>", "operation": "purchase",
       "order": {"number": "order-1", "amount": "10.00", "currency": "EUR", "description": "Order 1"},
       "success_url": "https://shop.example/paid", "hash": "<SESSION_HASH>"}'
# hash = sha1(md5(upper(order.number + order.amount + order.currency + order.description + password)))
# answer: {"token": "<SESSION_TOKEN>"}`
  const frontend = `<iframe src="${baseUrl}/hpf/<SESSION_TOKEN>" title="Card details"
        style="width:100%;min-height:470px;border:0"></iframe>
<script>
  window.addEventListener('message', (event) => {
    if (event.origin !== '${origin}' || event.data?.source !== 'paysandbox-hpf') return
    // {type: 'result', payment_id, status} once paid or declined;
    // {type: 'redirect', url} before the fields open the 3-D Secure page
    console.log(event.data)
  })
</script>`
  return (
    <Document
      lang="en"
      title="Hosted Payment Fields demo"
      base={base}
      data={{ page: 'hpf-demo', origin }}
      scripts={['hpf.js']}
    >
      <Shell t={t} wide>
        <div className="card">
          <h1>Hosted Payment Fields</h1>
          <p>
            Card fields served by the sandbox for a session token, inside the merchant's own page. Copy the
            two snippets below.
          </p>
          {result ? (
            <p className="alert alert-info" role="status">
              The payer came back to the demo page with <code>result={result}</code>.
            </p>
          ) : null}
          <h2>1. On your server: a session token</h2>
          <pre>
            <code>{backend}</code>
          </pre>
          <h2>2. On your checkout page: the fields</h2>
          <pre>
            <code>{frontend}</code>
          </pre>
        </div>
        <div className="card">
          <h2>Try it</h2>
          {token ? (
            <>
              <iframe
                className="demo-frame"
                src={`${base}/hpf/${encodeURIComponent(token)}`}
                title="Card details"
              />
              <h2>Messages from the fields</h2>
              <ol id="hpf-log" aria-live="polite" />
            </>
          ) : null}
          <form method="get" action={`${base}/hpf/demo`}>
            <div className="field">
              <label htmlFor="token">Session token</label>
              <input
                id="token"
                name="token"
                type="text"
                required
                defaultValue={token ?? ''}
                autoComplete="off"
              />
            </div>
            <button type="submit" className="btn btn-quiet">
              Show the fields for this token
            </button>
          </form>
          {canCreate ? (
            <form method="post" action={`${base}/hpf/demo`} className="actions">
              <button type="submit" className="btn">
                Create a demo session (demo merchant, 10.00 EUR)
              </button>
            </form>
          ) : null}
        </div>
      </Shell>
    </Document>
  )
}
