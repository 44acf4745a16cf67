import type { Logger } from '../../core/ports/logger.js'

/** Log lines for `serve`, on stderr so that stdout carries only the banner. */
export function createConsoleLogger(write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const line = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    write(`paysandbox ${level}: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`)
  return { info: line('info'), warn: line('warn'), error: line('error') }
}
