import { type PathStyle, validate } from '../validation/index.js'
import { invalid } from './errors.js'

/**
 * Validates a parsed body against its schema and returns it typed, or throws "Request data is
 * invalid." with one `path: message` item per field. S2S forms drop empty optional values first,
 * as the platform's form handling treats `payer_state=` as absent.
 */
export function validated<T>(schema: string, body: Record<string, unknown>, pathStyle: PathStyle = 'dot'): T {
  const data = pathStyle === 'bracket' ? dropEmpty(body) : body
  const result = validate<T>(schema, data, { pathStyle })
  if (!result.valid) throw invalid(result.errors)
  return result.data
}

function dropEmpty(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(body)) {
    if (v === '') continue
    out[k] = v && typeof v === 'object' && !Array.isArray(v) ? dropEmpty(v as Record<string, unknown>) : v
  }
  return out
}
