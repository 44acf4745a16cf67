/**
 * The candidate closest to what was typed, for a "Did you mean …?" line: within two edits (one
 * for words of four letters or fewer), else undefined. Damerau-Levenshtein (optimal string
 * alignment), so a swapped pair of letters (`versoin`) counts as one edit.
 */
export function closest(typed: string, candidates: readonly string[]): string | undefined {
  const bound = typed.length <= 4 ? 1 : 2
  let best: { word: string; distance: number } | undefined
  for (const word of candidates) {
    const distance = editDistance(typed.toLowerCase(), word.toLowerCase())
    if (distance <= bound && (!best || distance < best.distance)) best = { word, distance }
  }
  return best?.word
}

function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      const row = d[i] as number[]
      const up = d[i - 1] as number[]
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1)
    }
  return (d[a.length] as number[])[b.length] as number
}
