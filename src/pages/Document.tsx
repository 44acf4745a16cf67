import type { ReactNode } from 'react'
import { htmlLang, type Lang, textDirection } from './i18n.js'
import { jsonForScript } from './render.js'
import { CSS } from './styles.js'

export interface DocumentProps {
  lang: Lang
  title: string
  /** The sandbox path prefix, for the client script's address. */
  base: string
  /** What the client script needs (messages, timers, targets), as JSON in the page. */
  data?: Record<string, unknown>
  /** Extra class on <html> (the Hosted Payment Fields frame is transparent). */
  className?: string
  /** Scripts under /assets/ besides hosted.js, loaded after it (the Hosted Payment Fields' hpf.js). */
  scripts?: string[]
  children: ReactNode
}

/** The pages' icon, inline (a padlock on the accent colour): no request, so never a 404. */
export const FAVICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#3346d3"/><path d="M11 14v-3a5 5 0 0 1 10 0v3" fill="none" stroke="#fff" stroke-width="2.5"/><rect x="8" y="14" width="16" height="12" rx="2.5" fill="#fff"/></svg>',
)}`

/** The whole HTML document: inline CSS, the page data and the one same-origin script. */
export function Document({ lang, title, base, data, className, scripts = [], children }: DocumentProps) {
  return (
    <html lang={htmlLang(lang)} dir={textDirection(lang)} className={className}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <link rel="icon" href={FAVICON} />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant stylesheet */}
        <style dangerouslySetInnerHTML={{ __html: CSS }} />
      </head>
      <body>
        {children}
        {data ? (
          <script
            type="application/json"
            id="page-data"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with `<` escaped (jsonForScript)
            dangerouslySetInnerHTML={{ __html: jsonForScript(data) }}
          />
        ) : null}
        {['hosted.js', ...scripts].map((name) => (
          <script key={name} src={`${base}/assets/${name}`} defer />
        ))}
      </body>
    </html>
  )
}
