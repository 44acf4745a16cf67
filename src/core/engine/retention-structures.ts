/** The two structures of the engine's retention (retention.ts): a queue of unit keys and a filter of forgotten tokens. */

/** A FIFO of keys that does not copy on every shift; a key taken can be put back in front. */
export class KeyQueue {
  private items: string[] = []
  private head = 0
  get size(): number {
    return this.items.length - this.head
  }
  push(key: string) {
    this.items.push(key)
  }
  unshift(key: string) {
    if (this.head > 0) this.items[--this.head] = key
    else this.items.unshift(key)
  }
  shift(): string | undefined {
    if (this.head >= this.items.length) return undefined
    const key = this.items[this.head++]
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head)
      this.head = 0
    }
    return key
  }
}

/** A Bloom filter of `bits` bits, 4 probes (FNV-1a, double hashing): no false negatives. */
export class BloomFilter {
  private readonly bytes: Uint8Array
  private readonly mask: number
  constructor(bits: number) {
    this.bytes = new Uint8Array(bits >>> 3)
    this.mask = bits - 1
  }
  private probes(value: string): number[] {
    let h1 = 0x811c9dc5
    let h2 = 0x01000193
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i)
      h1 = Math.imul(h1 ^ c, 0x01000193)
      h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15)
    }
    h2 |= 1
    return [0, 1, 2, 3].map((k) => (h1 + Math.imul(k, h2)) & this.mask)
  }
  add(value: string) {
    for (const bit of this.probes(value))
      this.bytes[bit >>> 3] = (this.bytes[bit >>> 3] as number) | (1 << (bit & 7))
  }
  has(value: string): boolean {
    return this.probes(value).every((bit) => ((this.bytes[bit >>> 3] as number) & (1 << (bit & 7))) !== 0)
  }
}
