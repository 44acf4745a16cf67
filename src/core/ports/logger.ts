/** Structured log lines. Card numbers never reach a logger in full (mask first 6 / last 4 before). */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} }
