/**
 * Times as the reader reads them, in their own locale through Intl: a message's time
 * relative to today ("Today at 14:02", "Yesterday at 09:15", else the date), and the
 * reference's `<t:unix:style>` in its seven styles (t T d D f F R; f when none is given).
 */

const DAY_MS = 86_400_000;

function startOfDay(d: Date): number {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

const clock = (d: Date) => d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });

/** When a message was posted, as its header shows it. */
export function postedAt(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const days = Math.round((startOfDay(now) - startOfDay(d)) / DAY_MS);
  if (days === 0) return `Today at ${clock(d)}`;
  if (days === 1) return `Yesterday at ${clock(d)}`;
  return `${d.toLocaleDateString(undefined, { day: "2-digit", month: "2-digit", year: "numeric" })} ${clock(d)}`;
}

const STYLES: Record<string, Intl.DateTimeFormatOptions> = {
  t: { timeStyle: "short" },
  T: { timeStyle: "medium" },
  d: { day: "2-digit", month: "2-digit", year: "numeric" },
  D: { dateStyle: "long" },
  f: { dateStyle: "long", timeStyle: "short" },
  F: { dateStyle: "full", timeStyle: "short" },
};

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * DAY_MS],
  ["month", 30 * DAY_MS],
  ["day", DAY_MS],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1000],
];

/** "in 2 hours", "3 days ago": the largest whole unit, as the reference's R style. */
export function relative(d: Date, now = new Date()): string {
  const diff = d.getTime() - now.getTime();
  const fmt = new Intl.RelativeTimeFormat(undefined, { numeric: "always" });
  for (const [unit, ms] of UNITS) if (Math.abs(diff) >= ms || unit === "second") return fmt.format(Math.trunc(diff / ms), unit);
  return "";
}

/** A `<t:unix:style>` timestamp's text; an unknown style reads as the default (f). */
export function timestampText(d: Date, style: string | undefined, now = new Date()): string {
  if (style === "R") return relative(d, now);
  return d.toLocaleString(undefined, STYLES[style ?? "f"] ?? STYLES.f);
}
