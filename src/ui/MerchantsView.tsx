import { Text } from 'ink'
import type { MerchantView } from './client-types.js'
import { inline } from './format.js'
import { blank, field, type Line, plain, seg } from './lines.js'
import { TextPanel } from './TextPanel.js'
import { useTheme } from './theme.js'
import { useUi } from './ui-context.js'
import { useRemote } from './use-remote.js'

export const MERCHANTS_HINTS = '↑↓ scroll'

const flag = (value: unknown) =>
  value === true ? 'on' : value === false || value === undefined ? 'off' : inline(value)

/** Merchant configuration as the sandbox runs it: MIDs and every Protocol Mapping flag (never passwords). */
export function merchantLines(merchants: MerchantView[]): Line[] {
  const out: Line[] = []
  for (const m of merchants) {
    out.push([seg(m.key, 'accent', true), seg(m.name ? `  ${m.name}` : '')])
    out.push(field('callbacks', m.notification_url ?? 'none (no callbacks)'))
    for (const mid of m.mids) {
      const link = mid.override_link_target ? `  link target ${mid.override_link_target}` : ''
      out.push(
        field(
          `MID`,
          `${mid.id}  ${mid.payment_mode ?? 'SMS/DMS'}  moto ${flag(mid.moto)}  card-on-file ${flag(mid.card_on_file)}  zero amount ${flag(mid.zero_amount)}${link}`,
        ),
      )
    }
    const mapping = Object.entries(m.protocol_mapping)
    out.push(
      field(
        'mapping',
        mapping.length ? `${mapping.length} setting(s)` : 'defaults (every optional field off)',
      ),
    )
    for (const [k, v] of mapping) out.push(...settingLines(k, v))
    if (m.wallets.length) out.push(field('wallets', m.wallets.join(', ')))
    out.push(blank)
  }
  if (!merchants.length) out.push(plain('No merchants configured.', 'muted'))
  return out
}

/** A Protocol Mapping setting; a group of flags (callback_fields, payer_attributes) one per line. */
function settingLines(name: string, value: unknown): Line[] {
  if (value && typeof value === 'object' && !Array.isArray(value))
    return [
      field('', `${name}:`),
      ...Object.entries(value).map(([k, v]) =>
        field('', `  ${k}: ${flag(v)}`, v === true ? 'good' : undefined),
      ),
    ]
  const shown = Array.isArray(value) ? value.join(', ') || '(none)' : flag(value)
  return [field('', `${name}: ${shown}`, value === true ? 'good' : undefined)]
}

export function MerchantsView({ active }: { active: boolean }) {
  const ui = useUi()
  const theme = useTheme()
  const remote = useRemote(() => ui.client.merchants(), [ui.tick])
  if (!remote.data)
    return <Text {...theme.tone(remote.error ? 'bad' : 'muted')}>{remote.error ?? 'Loading…'}</Text>
  return <TextPanel lines={merchantLines(remote.data)} height={ui.height} width={ui.width} active={active} />
}
