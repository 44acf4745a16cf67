/**
 * A captured file the replay cannot read as it is: not JSON, a HAR without entries, a request to a
 * host that is not the gateway, a log cut short. The message names the file and the entry (`entry
 * 3`, `line 7`); nothing is sent to any sandbox before every file has been read.
 */
export class ReplayInputError extends Error {
  override name = 'ReplayInputError'
  constructor(
    readonly file: string,
    readonly where: string | undefined,
    detail: string,
  ) {
    super(`${file}${where ? `, ${where}` : ''}: ${detail}`)
  }
}
