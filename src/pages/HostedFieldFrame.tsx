import { FAVICON } from './Document.js'

export type HostedFieldKind = 'card' | 'expiry' | 'cvv'

export const HOSTED_FIELD_KINDS: readonly HostedFieldKind[] = ['card', 'expiry', 'cvv']

const INPUTS: Record<
  HostedFieldKind,
  { label: string; autoComplete: string; placeholder: string; maxLength: number }
> = {
  card: {
    label: 'Card number',
    autoComplete: 'cc-number',
    placeholder: '4111 1111 1111 1111',
    maxLength: 23,
  },
  expiry: { label: 'Expiry date (MM/YY)', autoComplete: 'cc-exp', placeholder: 'MM/YY', maxLength: 7 },
  cvv: { label: 'Security code', autoComplete: 'cc-csc', placeholder: '123', maxLength: 4 },
}

/** CSS properties a merchant may set through `init({style})`, and values without CSS syntax in them. */
const STYLE_PROPERTIES: Record<string, string> = {
  color: 'color',
  fontSize: 'font-size',
  fontFamily: 'font-family',
  fontWeight: 'font-weight',
  letterSpacing: 'letter-spacing',
  padding: 'padding',
  background: 'background',
  backgroundColor: 'background-color',
  border: 'border',
  borderRadius: 'border-radius',
}

/**
 * `style` as the merchant's page passed it to `init` (JSON in the frame's query): `{base: {...},
 * invalid: {...}, focus: {...}}`, or a flat object taken as `base`. Unknown properties and values
 * with CSS punctuation are dropped, so nothing can escape the rule.
 */
export function fieldCss(styleParam: string | undefined): string {
  let style: unknown
  try {
    style = styleParam ? JSON.parse(styleParam.slice(0, 4000)) : {}
  } catch {
    style = {}
  }
  if (!style || typeof style !== 'object') return ''
  const groups = style as Record<string, unknown>
  const rule = (selector: string, group: unknown): string => {
    if (!group || typeof group !== 'object') return ''
    const declarations = Object.entries(group as Record<string, unknown>)
      .filter(([k, v]) => STYLE_PROPERTIES[k] && typeof v === 'string' && /^[\w\s#%.,()'"-]{1,80}$/.test(v))
      .map(([k, v]) => `${STYLE_PROPERTIES[k]}:${v}`)
    return declarations.length ? `${selector}{${declarations.join(';')}}` : ''
  }
  const flat = !('base' in groups || 'invalid' in groups || 'focus' in groups)
  return [
    rule('#field', flat ? groups : groups.base),
    rule('#field:focus', groups.focus),
    rule('#field[aria-invalid=true]', groups.invalid),
  ].join('')
}

const BASE_CSS =
  'html,body{margin:0;padding:0;background:transparent;font:16px system-ui,sans-serif}' +
  '#field{box-sizing:border-box;width:100%;height:44px;padding:8px 10px;border:1px solid #8a8f98;border-radius:6px;font:inherit;color:#111}' +
  '#field:focus{outline:2px solid #3346d3;outline-offset:1px}' +
  '#field[aria-invalid=true]{border-color:#b3261e}' +
  '.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}'

/**
 * One field of the Hosted Payment Fields (docs/rules.md#sessions), the page inside one iframe of
 * /sdk/hosted-fields.js: a single input whose value stays in this frame until
 * collectIframesData() sends it, with the other fields', into the session.
 */
export function HostedFieldFrame(props: { kind: HostedFieldKind; token: string; base: string; css: string }) {
  const input = INPUTS[props.kind]
  return (
    <html lang="en" data-field={props.kind} data-token={props.token} data-base={props.base}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{input.label}</title>
        <link rel="icon" href={FAVICON} />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our constant CSS plus the merchant's filtered declarations */}
        <style dangerouslySetInnerHTML={{ __html: BASE_CSS + props.css }} />
      </head>
      <body>
        <label htmlFor="field" className="sr-only">
          {input.label}
        </label>
        <input
          id="field"
          name={props.kind}
          type="text"
          inputMode="numeric"
          autoComplete={input.autoComplete}
          placeholder={input.placeholder}
          maxLength={input.maxLength}
          aria-describedby="field-error"
          spellCheck={false}
        />
        <span id="field-error" className="sr-only" role="alert" />
        <script src={`${props.base}/assets/hosted-field.js`} defer />
      </body>
    </html>
  )
}
