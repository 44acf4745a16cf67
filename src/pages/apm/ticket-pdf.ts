/**
 * (sandbox) axxi-cash's payment ticket (2.2.2: "the payer then gets a PDF ticket"): a one-page
 * PDF 1.4 written by hand (no dependency), Helvetica text only, with an exact cross-reference
 * table so every reader opens it. Text is kept to printable ASCII, as the standard font's
 * encoding is not Unicode.
 */

const ascii = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[\\()]/g, (c) => `\\${c}`)

export function ticketPdf(title: string, lines: string[]): string {
  const text = [
    'BT',
    '/F1 18 Tf',
    '56 780 Td',
    `(${ascii(title)}) Tj`,
    '/F1 11 Tf',
    '0 -20 TL',
    'T*',
    ...lines.flatMap((line) => [`(${ascii(line)}) Tj`, 'T*']),
    'ET',
  ].join('\n')
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
  ]
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  // Everything above is ASCII, so string length equals byte length (the offsets are byte offsets).
  return out
}
