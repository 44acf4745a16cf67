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

/** The whole HTML document: inline CSS, the page data and the one same-origin script. */
export function Document({ lang, title, base, data, className, scripts = [], children }: DocumentProps) {
  return (
    <html lang={htmlLang(lang)} dir={textDirection(lang)} className={className}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
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
