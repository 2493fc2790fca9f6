/**
 * Internal ids are UUIDv7 strings. The 48-bit millisecond prefix comes from the shared
 * clock and the next 12 bits are a per-millisecond counter (RFC 9562 method 1), so the
 * lexicographic order of ids is creation order. The bot API boundary derives snowflakes
 * from these bits, which is why snowflake order equals creation order.
 */
import type { Clock } from "./clock";

/** Two hex digits per byte value. */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
/** Ids' random bytes drawn per call to the system's generator: one call per id was a tenth of an id's cost. */
const POOL_BYTES = 8 * 256;

export class IdGenerator {
  private lastMs = 0;
  private counter = 0;
  private readonly pool = new Uint8Array(POOL_BYTES);
  private used = POOL_BYTES;

  constructor(private readonly clock: Clock) {}

  /**
   * Forget the last millisecond used (the world was wiped, so no id is left to collide
   * with): a world seeded at a fixed start time then gets the same ids on every run.
   */
  reset(): void {
    this.lastMs = 0;
    this.counter = 0;
  }

  next(): string {
    let ms = this.clock.now();
    if (ms <= this.lastMs) {
      ms = this.lastMs;
      this.counter++;
      if (this.counter > 0xfff) {
        // Counter exhausted within one millisecond: borrow the next millisecond.
        ms = ++this.lastMs;
        this.counter = 0;
      }
    } else {
      this.lastMs = ms;
      this.counter = 0;
    }
    if (this.used === POOL_BYTES) {
      crypto.getRandomValues(this.pool);
      this.used = 0;
    }
    const r = this.pool;
    const i = this.used;
    this.used += 8;
    const hex = ms.toString(16).padStart(12, "0");
    const a = (0x7000 | this.counter).toString(16);
    const b = HEX[(r[i] & 0x3f) | 0x80] + HEX[r[i + 1]];
    const tail = HEX[r[i + 2]] + HEX[r[i + 3]] + HEX[r[i + 4]] + HEX[r[i + 5]] + HEX[r[i + 6]] + HEX[r[i + 7]];
    return `${hex.slice(0, 8)}-${hex.slice(8)}-${a}-${b}-${tail}`;
  }
}

/** Milliseconds and 12-bit counter encoded in a UUIDv7. */
export function uuidTime(id: string): { ms: number; counter: number } {
  const ms = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  const counter = parseInt(id.slice(15, 18), 16);
  return { ms, counter };
}

/** Milliseconds since 2025-01-01 (UTC), where positions start. */
const POSITION_EPOCH = Date.UTC(2025, 0, 1);

/**
 * Where an id stands in time: its 48-bit millisecond (since 2025) and 12-bit counter as
 * one number, (ms << 12) | counter, below 2^53 until 2094. Ids from one generator never
 * share one; a message keeps its own (migration 023), and the search index and the
 * boundary's numbers derive from it.
 */
export function positionOf(id: string): number {
  const ms = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  return (ms - POSITION_EPOCH) * 4096 + parseInt(id.slice(15, 18), 16);
}

/** The smallest / largest UUIDv7 string for a given millisecond, for range queries. */
export function uuidBound(ms: number, upper: boolean): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, "0");
  return upper ? `${hex.slice(0, 8)}-${hex.slice(8)}-7fff-ffff-ffffffffffff` : `${hex.slice(0, 8)}-${hex.slice(8)}-7000-0000-000000000000`;
}
