import type { Lang, Translate } from '../../i18n.js'

/** Small pieces the group views share. */

/** What every group view needs to word its part in the payer's language. */
export interface ViewText {
  t: Translate
  lang: Lang
  /** The method's payer-facing name (brand, or a plain description). */
  name: string
  /** The order amount formatted for the language (`25,00 €`). */
  amount: string
}

export interface FactRow {
  label: string
  value: string
  /** Numbers, codes and addresses read left to right in every language. */
  ltr?: boolean
}

export function Facts({ rows, id }: { rows: FactRow[]; id?: string }) {
  return (
    <dl className="facts" id={id}>
      {rows.map((row) => (
        <div key={row.label} style={{ display: 'contents' }}>
          <dt>{row.label}</dt>
          <dd>{row.ltr ? <bdi dir="ltr">{row.value}</bdi> : <bdi>{row.value}</bdi>}</dd>
        </div>
      ))}
    </dl>
  )
}

/** A scannable code: an SVG rendered on the server (qrcode), shown as an image with its text beside. */
export function QrImage({
  svg,
  label,
  text,
  caption,
}: {
  svg: string
  label: string
  text?: string
  /** Words before the copyable text. */
  caption?: string
}) {
  return (
    <figure style={{ margin: '0 0 16px', textAlign: 'center' }}>
      <img
        id="apm-qr"
        src={`data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`}
        alt={label}
        width={220}
        height={220}
        style={{
          imageRendering: 'pixelated',
          border: '1px solid #e6e9ef',
          borderRadius: 12,
          maxWidth: '100%',
        }}
      />
      {text ? (
        <figcaption>
          {caption ? <span className="hint">{caption}</span> : null}
          <code
            id="apm-qr-text"
            dir="ltr"
            style={{ display: 'block', fontSize: '.75rem', overflowWrap: 'anywhere', marginTop: 8 }}
          >
            {text}
          </code>
        </figcaption>
      ) : null}
    </figure>
  )
}

/** The line that tells the payer the page follows the payment by itself. */
export function Waiting({ text }: { text: string }) {
  return (
    <p className="alert alert-info" id="apm-waiting" role="status" aria-live="polite">
      {text}
    </p>
  )
}

/** A country code as the payer's language names it (`BJ` → `Bénin`), the code itself when unknown. */
export function countryName(code: string, lang: Lang): string {
  try {
    return new Intl.DisplayNames([lang === 'sp' ? 'es' : lang], { type: 'region' }).of(code) ?? code
  } catch {
    return code
  }
}
