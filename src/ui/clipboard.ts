/**
 * OSC 52: asks the terminal (and tmux, with set-clipboard on) to put text on the clipboard, which
 * works over ssh where no clipboard program can. Terminals that ignore it show nothing, so the
 * console always shows the text too.
 */
export function osc52(text: string): string {
  const payload = Buffer.from(text, 'utf8').toString('base64')
  const sequence = `\x1b]52;c;${payload}\x07`
  // Inside tmux the sequence must be wrapped to reach the outer terminal.
  return process.env.TMUX ? `\x1bPtmux;${sequence.split('\x1b').join('\x1b\x1b')}\x1b\\` : sequence
}
