import type { GatewayRequest } from '../core/engine/http.js'

/**
 * The browser attributes of the Events section, as the card form sends them: the client script
 * fills hidden `bi_*` fields; without script only what the request itself says is known. Form
 * values are strings, so numbers are read here, and anything unreadable is left out rather than
 * refused (these are the platform's own measurements, not the payer's input).
 */
export function browserInfoFrom(
  body: Record<string, unknown>,
  request: GatewayRequest,
): Record<string, unknown> {
  const int = (name: string, min: number, max: number) => {
    const raw = body[name]
    if (typeof raw !== 'string' || !/^-?[0-9]{1,6}$/.test(raw)) return undefined
    const n = Number(raw)
    return n >= min && n <= max ? n : undefined
  }
  const text = (value: unknown, max = 300) =>
    typeof value === 'string' && value !== '' ? value.slice(0, max) : undefined
  const scripted = body.bi_javascript === '1'
  const info: Record<string, unknown> = {
    accept_headers: text(request.headers.accept),
    user_agent: text(request.headers['user-agent']),
    javascript_enabled: scripted,
    java_enabled: scripted ? false : undefined,
    color_depth: int('bi_color_depth', 1, 96),
    screen_height: int('bi_screen_height', 0, 100000),
    screen_width: int('bi_screen_width', 0, 100000),
    timezone_offset: int('bi_timezone_offset', -840, 840),
    language: text(body.bi_language, 35) ?? text(request.headers['accept-language']?.split(',')[0], 35),
    platform: text(body.bi_platform, 60),
  }
  return Object.fromEntries(Object.entries(info).filter(([, v]) => v !== undefined))
}
