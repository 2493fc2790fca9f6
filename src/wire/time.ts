/** Reference timestamps: ISO 8601 with an explicit +00:00 offset (discord.py and discord.js both parse it). */
export function iso(ms: number): string {
  return new Date(ms).toISOString().replace("Z", "+00:00");
}

export function isoOrNull(ms: number | null | undefined): string | null {
  return ms == null ? null : iso(ms);
}
