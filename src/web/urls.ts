/** The only way a URL from a message, embed or component reaches an href or src. */

/** The URL if it parses as http or https; anything else (javascript:, data:, relative) is null. */
export function safeUrl(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.length > 2048) return null;
  try {
    const u = new URL(raw);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}

/** An embed or container colour (an integer) as CSS; anything else gives none. */
export function cssColor(v: unknown): string | undefined {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 0xffffff) return undefined;
  return `#${v.toString(16).padStart(6, "0")}`;
}
