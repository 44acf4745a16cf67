/** One request of a captured file and the answer it got, as the replay reads both formats. */
export interface Exchange {
  /** The file it comes from. */
  file: string
  /** Where in it: `entry 3` (HAR, 1-based) or `line 7` (JSON lines). */
  where: string
  /** When it was sent (epoch ms), when the file says. */
  at?: number
  method: string
  url: URL
  /** Lower-case names. */
  headers: Record<string, string>
  /** The body as text (a form urlencoded, JSON, …); '' when none. */
  body: string
  /** The answer as recorded; absent when the file holds none (the request failed, was aborted). */
  response?: RecordedAnswer
}

export interface RecordedAnswer {
  status: number
  headers: Record<string, string>
  body: string
}
