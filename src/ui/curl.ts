/** A shell-safe curl command: every value single-quoted, embedded quotes closed and escaped. */
export function curlCommand(url: string, contentType: string, body: string): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  return `curl -s -X POST ${q(url)} -H ${q(`content-type: ${contentType}`)} --data-raw ${q(body)}`
}
