/** Small pieces the group views share. */

export function Facts({ rows, id }: { rows: { label: string; value: string }[]; id?: string }) {
  return (
    <dl className="facts" id={id}>
      {rows.map((row) => (
        <div key={row.label} style={{ display: 'contents' }}>
          <dt>{row.label}</dt>
          <dd>{row.value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** A scannable code: an SVG rendered on the server (qrcode), shown as an image with its text beside. */
export function QrImage({ svg, label, text }: { svg: string; label: string; text?: string }) {
  return (
    <figure style={{ margin: '0 0 16px', textAlign: 'center' }}>
      <img
        id="apm-qr"
        src={`data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`}
        alt={label}
        width={220}
        height={220}
        style={{ imageRendering: 'pixelated', border: '1px solid #e6e9ef', borderRadius: 12 }}
      />
      {text ? (
        <figcaption>
          <code
            id="apm-qr-text"
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
