/** The reference dialect's timestamps (wire/time.ts): what toISOString writes, with +00:00, however it is formatted. */
import { describe, expect, test } from "bun:test";
import { iso, isoOrNull } from "../../src/wire/time";

const plain = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

describe("iso", () => {
  test("each millisecond across second, day and year boundaries, in order and out of it", () => {
    const starts = [Date.UTC(2026, 11, 31, 23, 59, 59), Date.UTC(2025, 0, 1), 0, Date.UTC(2028, 1, 29, 12)];
    for (const start of starts) for (let ms = start - 1500; ms < start + 1500; ms += 7) expect(iso(ms)).toBe(plain(ms));
    // Back and forth between two seconds: the kept second is never reused for the other.
    for (const ms of [5_000_001, 4_999_999, 5_000_999, 4_000_000, 5_000_000]) expect(iso(ms)).toBe(plain(ms));
  });

  test("the edges: a one- and two-digit millisecond, the last four-digit year, and times the shortcut leaves alone", () => {
    for (const ms of [1, 9, 10, 99, 100, 999, 253402300799999, 253402300800000, -1, -86_400_001, 1.5]) expect(iso(ms)).toBe(plain(ms));
    expect(iso(Date.UTC(2026, 0, 2, 3, 4, 5, 6))).toBe("2026-01-02T03:04:05.006+00:00");
    expect(isoOrNull(null)).toBeNull();
  });
});
