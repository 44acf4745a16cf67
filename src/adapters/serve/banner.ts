import type { SandboxMerchant } from '../../core/engine/context.js'
import type { LoadedConfig } from './config-file.js'

export interface BannerFacts {
  version: string
  baseUrl: string
  loaded: LoadedConfig
  clock: 'virtual' | 'system'
  dataFile?: string
  /** `METHOD /path` of every route the engine serves (gateway.routes()). */
  routes: string[]
}

/**
 * What `paysandbox serve` prints once it listens: where everything is, and the credentials to
 * use. Passwords are printed only for the built-in demo merchant, whose credentials are
 * documented anyway; a user's own file keeps its passwords to itself.
 */
export function renderBanner(facts: BannerFacts): string {
  const { baseUrl, loaded } = facts
  const lines = [`paysandbox ${facts.version}: payment gateway sandbox listening on ${baseUrl}`, '']
  const paths = facts.routes.map((r) => r.split(' ')[1] ?? '')
  const served = (prefix: string) => paths.some((p) => p.startsWith(prefix))
  const row = (label: string, text: string) => lines.push(`  ${label.padEnd(14)}${text}`)
  if (served('/api/v1/')) row('Checkout API', `${baseUrl}/api/v1/...  (POST ${baseUrl}/api/v1/session)`)
  if (paths.includes('/post')) row('S2S CARD', `POST ${baseUrl}/post  (and /v2/post)`)
  if (paths.includes('/post-va')) row('S2S APM', `POST ${baseUrl}/post-va`)
  if (served('/api/v1/') || served('/auth/')) row('Hosted pages', `${baseUrl}/auth/<session token>`)
  const control = [...new Set(paths.filter((p) => p.startsWith('/sandbox/') && !p.includes(':')))]
  for (const [i, line] of wrap(control, 86).entries())
    row(i ? '' : 'Control API', i ? line : `${baseUrl}${line}`)
  row(
    'Clock',
    facts.clock === 'virtual'
      ? 'virtual: stands still until POST /sandbox/clock/advance {"seconds": n}'
      : 'system: real time; POST /sandbox/clock/advance {"seconds": n} moves it ahead',
  )
  row(
    'Data',
    facts.dataFile ? `${facts.dataFile} (kept across restarts)` : 'in memory only (--data FILE keeps it)',
  )
  lines.push('')
  const demo = loaded.source === 'demo'
  lines.push(
    demo
      ? 'Merchant (built-in demo; --config FILE for your own):'
      : `Merchants (from ${loaded.file}; passwords not shown):`,
  )
  for (const merchant of loaded.config.merchants) lines.push(...merchantLines(merchant, demo))
  lines.push('', 'Ready. Stop with Ctrl+C.')
  return `${lines.join('\n')}\n`
}

function merchantLines(merchant: SandboxMerchant, showPassword: boolean): string[] {
  const out = [`  ${merchant.key}${merchant.name ? `  (${merchant.name})` : ''}`]
  const row = (label: string, text: string) => out.push(`    ${label.padEnd(18)}${text}`)
  row('merchant_key', merchant.key)
  if (showPassword) row('password', `${merchant.password}  (documented demo credential)`)
  for (const mid of merchant.mids) row(`MID ${mid.id}`, midFacts(mid))
  row(
    'callbacks to',
    merchant.notification_url ?? 'none: no notification_url, so no callbacks (docs/rules.md#callbacks)',
  )
  return out
}

function midFacts(mid: SandboxMerchant['mids'][number]): string {
  const facts: string[] = [mid.payment_mode ?? 'SMS/DMS']
  if (mid.moto) facts.push('MOTO')
  if (mid.card_on_file) facts.push('card-on-file')
  if (mid.zero_amount) facts.push('zero amount')
  if (mid.override_link_target) facts.push(`link target ${mid.override_link_target}`)
  if (mid.currencies) facts.push(mid.currencies.join('/'))
  if (mid.methods) facts.push(`methods: ${mid.methods.join(', ')}`)
  return facts.join(', ')
}

/** Paths joined with commas, in lines of at most `width` characters. */
function wrap(paths: string[], width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const path of paths) {
    const next = line ? `${line}, ${path}` : path
    if (line && next.length > width) {
      lines.push(`${line},`)
      line = path
    } else line = next
  }
  if (line) lines.push(line)
  return lines
}
