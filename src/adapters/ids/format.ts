/** Default token size: 16 bytes, 32 hex characters (safe in URLs, headers and file names). */
export const DEFAULT_TOKEN_BYTES = 16

export function assertTokenBytes(bytes: number) {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > 1024)
    throw new RangeError(`ids: token(bytes) takes an integer from 1 to 1024, got ${bytes}`)
}

/** Sets the version (4) and variant (10xx) bits of RFC 9562 and formats 16 bytes as a UUID. */
export function uuidV4From(bytes: Uint8Array): string {
  const b = Buffer.from(bytes.subarray(0, 16))
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80
  const h = b.toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}
