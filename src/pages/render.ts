import type { ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import type { GatewayResponse } from '../core/engine/http.js'
import type { Refusal } from '../core/engine/refusal.js'

/**
 * Pages are rendered on the server once, with no hydration (the client script only enhances the
 * markup), so the static renderer is used: no React markers in the HTML. Every page is a whole
 * document with its CSS inline and one same-origin script: nothing is fetched from the internet.
 */
export function renderDocument(element: ReactElement): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(element)}`
}

/**
 * Hosted pages must never be cached (they show a payment's live state) and load nothing from
 * elsewhere. `frame-ancestors` stays open: merchants embed the page and the Hosted Payment Fields.
 */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; script-src 'self'; base-uri 'none'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
}

/**
 * A page; a page that refuses what the payer sent (a form with problems, a page that does not
 * exist) says why as a refusal (docs/rules.md#rule-book), which the gateway sends as `Sandbox-Rule`.
 */
export function pageResponse(status: number, element: ReactElement, refusal?: Refusal): GatewayResponse {
  return {
    status,
    headers: { ...PAGE_HEADERS },
    body: renderDocument(element),
    ...(refusal ? { refusal } : {}),
  }
}

/** 303 See Other: after a form POST the browser follows with a GET, so a reload never pays twice. */
export const seeOther = (location: string): GatewayResponse => ({
  status: 303,
  headers: { location, 'cache-control': 'no-store' },
  body: '',
})

/** Data for the client script, in a non-executed block; `<` is escaped so no value can close the tag. */
export const jsonForScript = (data: unknown): string =>
  JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
