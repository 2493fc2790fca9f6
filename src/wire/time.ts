/**
 * Times as text, in one place. The reference dialect writes ISO 8601 with an explicit
 * +00:00 offset (discord.py and discord.js both parse it); Parley's own JSON (the
 * people's API, the harness) writes the plain UTC form with Z.
 */
export function iso(ms: number): string {
  return new Date(ms).toISOString().replace("Z", "+00:00");
}

export function isoOrNull(ms: number | null | undefined): string | null {
  return ms == null ? null : iso(ms);
}

/** Parley's own JSON: 2026-01-01T00:00:00.000Z. */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString();
}
