/**
 * A seed from the clock: a simulator restarted against a persistent Temporal must never hand out
 * a request id whose resource workflow still holds the previous run's events.
 */
export function clockSeed(): number {
  return Date.now() % 2 ** 31;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same ids, data and fault decisions. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A version-4-shaped GUID. */
  guid(): string {
    const hex = Array.from({ length: 32 }, () => Math.floor(this.next() * 16).toString(16));
    hex[12] = '4';
    hex[16] = ((parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
    const s = hex.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }

  /** The generator's position, to save with the simulator's state and resume from. */
  get position(): number {
    return this.state;
  }

  set position(value: number) {
    this.state = value >>> 0;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
}
