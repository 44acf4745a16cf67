/** Identifier source: seeded and repeatable in tests and scenarios, random when serving. */
export interface Ids {
  /** A payment, transaction, schedule or delivery id (UUID form). */
  uuid(): string
  /** A short opaque token (session tokens, card tokens, recurring tokens). */
  token(bytes?: number): string
}
