import type { SandboxConfig, SandboxMerchant, SandboxMid } from '../../src/core/engine/context.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { createTestGateway, demoConfig, type TestGateway } from '../helpers/engine.js'

export const PASSWORD = 'demo-password-0123456789abcdef'
export const SHOP = 'https://shop.test'

/** The whole sandbox (every module, so pages meet the real engine) with the demo merchant changed as given. */
export function pagesGateway(
  merchant: Partial<SandboxMerchant> = {},
  mid: Partial<SandboxMid> = {},
): TestGateway {
  const base = demoConfig()
  const demo = base.merchants[0] as SandboxMerchant
  const config: SandboxConfig = {
    ...base,
    merchants: [{ ...demo, ...merchant, mids: [{ ...(demo.mids[0] as SandboxMid), ...mid }] }],
  }
  return createTestGateway(DEFAULT_MODULES, config)
}

/** A signed session with the shop's four URLs; answers its token. */
export async function openSession(t: TestGateway, overrides: Record<string, unknown> = {}): Promise<string> {
  const order = { number: 'order-7', amount: '12.50', currency: 'EUR', description: 'Teapot' }
  const r = await t.call('POST', '/api/v1/session', {
    merchant_key: 'demo-merchant',
    operation: 'purchase',
    methods: ['card'],
    order,
    success_url: `${SHOP}/success`,
    error_url: `${SHOP}/error`,
    cancel_url: `${SHOP}/cancel`,
    expiry_url: `${SHOP}/expired`,
    hash: checkoutSignatures.session(order, PASSWORD),
    ...overrides,
  })
  if (r.status !== 200) throw new Error(`session refused: ${r.raw}`)
  return String(r.body.redirect_url).split('/auth/')[1] as string
}

/** A form post, as a browser sends it. */
export const form = (values: Record<string, string>): string => new URLSearchParams(values).toString()

export const CARD = { card_number: '4111 1111 1111 1111', card_exp: '01/30', card_cvv2: '123' }

/** The opening tag of the element with this id (the pages are rendered without a DOM here). */
export function tag(html: string, id: string): string | undefined {
  return new RegExp(`<(input|select|button|a|div|p|form)\\b[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0]
}

export const attr = (tagText: string | undefined, name: string): string | undefined =>
  tagText ? new RegExp(`\\b${name}="([^"]*)"`, 'i').exec(tagText)?.[1] : undefined

/** The text of `<label for=id>`, markup removed. */
export function labelText(html: string, id: string): string | undefined {
  const match = new RegExp(`<label[^>]*for="${id}"[^>]*>([\\s\\S]*?)</label>`).exec(html)
  return match?.[1]?.replace(/<[^>]+>/g, '').trim()
}

/** Every visible form control's id. */
export function controlIds(html: string): string[] {
  return [...html.matchAll(/<(input|select)\b[^>]*>/g)]
    .map((m) => m[0])
    .filter((t) => !/type="hidden"/.test(t))
    .map((t) => attr(t, 'id') ?? '(no id)')
}

/** The text inside the element with this id, up to its closing `element` tag, markup removed. */
export function textOf(html: string, id: string, element = 'p'): string {
  const match = new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</${element}>`).exec(html)
  return (match?.[1] ?? '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}
