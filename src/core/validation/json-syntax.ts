/**
 * Where a JSON text stops being JSON, as a person finds it in an editor: `line 3, column 5`
 * (issue 33: a configuration's syntax error was reported as a character offset, and V8's own
 * message for some errors quotes the whole text without any position).
 */
export interface JsonSyntaxError {
  line: number
  column: number
  reason: string
}

/** `not valid JSON at line 3, column 5: expected ',' or '}' after a property value`. */
export const describeJsonError = (e: JsonSyntaxError): string =>
  `not valid JSON at line ${e.line}, column ${e.column}: ${e.reason}`

/** The first syntax error of `text`, or undefined when it is JSON. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let at = 0
  class Stop extends Error {}
  const fail = (reason: string, where = at): never => {
    at = where
    throw new Stop(reason)
  }
  const show = (c: string | undefined) =>
    c === undefined
      ? 'the end of the text'
      : c === "'"
        ? `a single quote (JSON takes double quotes)`
        : `'${c}'`
  const ws = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at] as string)) at++
  }
  const string = () => {
    at++
    while (at < text.length) {
      const c = text[at] as string
      if (c === '"') return void at++
      if (c === '\\') {
        const e = text[at + 1]
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) at += 6
        else if (e !== undefined && '"\\/bfnrt'.includes(e)) at += 2
        else fail(`bad escape \\${e ?? ''} in a string`)
      } else if (c < ' ') fail('a control character (a line break?) inside a string: write it as \\n')
      else at++
    }
    fail('a string that never ends (a missing closing ")')
  }
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at))
    if (!m) fail(`unexpected ${show(text[at])}`)
    at += (m as RegExpExecArray)[0].length
    if (/^[0-9]/.test(text[at] ?? '')) fail('a number with a leading zero')
  }
  const value = (): void => {
    ws()
    const c = text[at]
    if (c === '{') {
      at++
      ws()
      if (text[at] === '}') return void at++
      for (;;) {
        ws()
        if (text[at] !== '"')
          fail(
            text[at] === '}'
              ? "a comma before '}' (JSON allows no trailing comma)"
              : `expected a property name in double quotes, found ${show(text[at])}`,
          )
        string()
        ws()
        if (text[at] !== ':') fail(`expected ':' after a property name, found ${show(text[at])}`)
        at++
        value()
        ws()
        if (text[at] === ',') {
          at++
          continue
        }
        if (text[at] === '}') return void at++
        fail(
          `expected ',' or '}' after a property value, found ${show(text[at])}${text[at] === '"' ? ' (a comma missing before it?)' : ''}`,
        )
      }
    }
    if (c === '[') {
      at++
      ws()
      if (text[at] === ']') return void at++
      for (;;) {
        ws()
        if (text[at] === ']') fail("a comma before ']' (JSON allows no trailing comma)")
        value()
        ws()
        if (text[at] === ',') {
          at++
          continue
        }
        if (text[at] === ']') return void at++
        fail(`expected ',' or ']' after an array element, found ${show(text[at])}`)
      }
    }
    if (c === '"') return void string()
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return void number()
    for (const word of ['true', 'false', 'null'])
      if (text.startsWith(word, at)) {
        at += word.length
        return
      }
    fail(c === undefined ? 'the text ends where a value should be' : `unexpected ${show(c)}`)
  }
  try {
    if (text.charCodeAt(0) === 0xfeff) at = 1
    value()
    ws()
    if (at < text.length) fail(`more after the end of the JSON value: ${show(text[at])}`)
    return undefined
  } catch (error) {
    if (!(error instanceof Stop)) throw error
    const before = text.slice(0, at).split('\n')
    return { line: before.length, column: (before.at(-1) ?? '').length + 1, reason: error.message }
  }
}

/** JSON.parse, throwing a SyntaxError that says the line and column. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    const found = jsonSyntaxError(text)
    throw new SyntaxError(found ? describeJsonError(found) : `not valid JSON: ${(error as Error).message}`)
  }
}
