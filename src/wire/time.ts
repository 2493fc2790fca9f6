/**
 * Times as text, in one place. The reference dialect writes ISO 8601 with an explicit
 * +00:00 offset (discord.py and discord.js both parse it); Parley's own JSON (the
 * people's API, the harness) writes the plain UTC form with Z.
 */
export function iso(ms: number): string {
  // Every message and member carries one, and posts come many a second: the date and
  // time to the second are formatted once per second, the milliseconds appended.
  if (!Number.isInteger(ms) || ms < 0 || ms > LAST_4_DIGIT_YEAR) return new Date(ms).toISOString().replace("Z", "+00:00");
  const milli = ms % 1000;
  const second = ms - milli;
  if (second !== lastSecond) {
    lastSecond = second;
    lastPrefix = new Date(second).toISOString().slice(0, 19);
  }
  return `${lastPrefix}.${milli < 10 ? "00" : milli < 100 ? "0" : ""}${milli}+00:00`;
}

/** 9999-12-31T23:59:59.999Z: past it, toISOString writes a six-digit year with a sign. */
const LAST_4_DIGIT_YEAR = 253402300799999;
let lastSecond = Number.NaN;
let lastPrefix = "";

export function isoOrNull(ms: number | null | undefined): string | null {
  return ms == null ? null : iso(ms);
}

/** Parley's own JSON: 2026-01-01T00:00:00.000Z. */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString();
}
