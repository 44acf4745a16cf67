/** A shell-safe curl command: every value single-quoted, embedded quotes closed and escaped. */
export function curlCommand(url: string, contentType: string, body: string): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  return `curl -s -X POST ${q(url)} -H ${q(`content-type: ${contentType}`)} --data-raw ${q(body)}`
}

/**
 * The same command for the screen: one argument a line, each form field its own `--data-raw`
 * (curl joins them with `&`, so the body sent is the same), every line but the last ending in ` \`.
 * Copied from the terminal with the mouse, it pastes into a shell as one command; `y` copies the
 * one-line form to the clipboard.
 */
export function curlLines(url: string, contentType: string, body: string): string[] {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  const args = [
    `curl -s -X POST ${q(url)}`,
    `  -H ${q(`content-type: ${contentType}`)}`,
    ...(body ? body.split('&').map((field) => `  --data-raw ${q(field)}`) : []),
  ]
  return args.map((line, i) => (i < args.length - 1 ? `${line} \\` : line))
}
