/**
 * The search grammar people type, parsed the same way by the web client (which shows
 * each filter as a chip and resolves names) and by the server (which runs it): words,
 * `"quoted phrases"`, `word*` (a prefix), and filters `from:`, `in:`, `mentions:`,
 * `has:file|image|video|sound|link|embed`, `before:`, `after:`, `during:` (dates as
 * YYYY-MM-DD, in the searcher's time zone) and `pinned:true|false`. A filter's value may
 * be quoted (`from:"Sam Smith"`). Anything else with a colon (`12:30`, a link) is a word.
 * Parsing never fails: what cannot be understood is kept as a problem for the searcher to
 * see, and the rest still runs. Imports nothing.
 */
export const HAS_KINDS = ["file", "image", "video", "sound", "link", "embed"] as const;
export type HasKind = (typeof HAS_KINDS)[number];

export interface SearchTerm {
  text: string;
  /** Written in quotes: its words must appear together, in order. */
  phrase: boolean;
  /** Written with a trailing `*`: any word starting so. */
  prefix: boolean;
}

export interface ParsedSearch {
  terms: SearchTerm[];
  /** Authors, mentioned people and channels as typed: names, `@name`, `#name`, `<@id>`, `<#id>` or bare ids. */
  from: string[];
  in: string[];
  mentions: string[];
  has: HasKind[];
  /** YYYY-MM-DD. */
  before: string | null;
  after: string | null;
  during: string | null;
  pinned: boolean | null;
  problems: string[];
}

/** The longest query taken (the rest is ignored and said so), and the most terms kept. */
export const MAX_QUERY = 512;
export const MAX_TERMS = 32;

const FILTERS = new Set(["from", "in", "mentions", "has", "before", "after", "during", "on", "pinned"]);
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** One whitespace-separated piece: an optional `key:` and a value, quoted or not. */
interface Piece {
  key: string | null;
  value: string;
  quoted: boolean;
}

function pieces(q: string): Piece[] {
  const out: Piece[] = [];
  const re = /(?:([A-Za-z]+):)?(?:"([^"]*)"?|(\S+))/g;
  for (const m of q.matchAll(re)) {
    const key = m[1]?.toLowerCase() ?? null;
    if (key !== null && !FILTERS.has(key)) {
      // Not a filter: the whole piece is a word (`12:30`, `https://...`).
      out.push({ key: null, value: m[0], quoted: false });
      continue;
    }
    out.push({ key, value: m[2] ?? m[3] ?? "", quoted: m[2] !== undefined });
  }
  return out;
}

function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

export function parseSearch(query: string): ParsedSearch {
  const p: ParsedSearch = {
    terms: [],
    from: [],
    in: [],
    mentions: [],
    has: [],
    before: null,
    after: null,
    during: null,
    pinned: null,
    problems: [],
  };
  if (query.length > MAX_QUERY) p.problems.push(`Only the first ${MAX_QUERY} characters are searched.`);
  for (const { key, value, quoted } of pieces(query.slice(0, MAX_QUERY))) {
    if (key === null && /^[A-Za-z]+:$/.test(value) && FILTERS.has(value.slice(0, -1).toLowerCase()))
      p.problems.push(`${value} needs a value.`);
    else if (key === null) {
      if (p.terms.length >= MAX_TERMS) {
        p.problems.push(`Only the first ${MAX_TERMS} words are searched.`);
        break;
      }
      const prefix = !quoted && value.length > 1 && value.endsWith("*");
      const text = prefix ? value.slice(0, -1) : value;
      if (text.trim()) p.terms.push({ text, phrase: quoted, prefix });
    } else if (!value) p.problems.push(`${key}: needs a value.`);
    else filter(p, key, value);
  }
  return p;
}

/** "a, b or c". */
function orList(items: string[]): string {
  return items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

function filter(p: ParsedSearch, key: string, value: string): void {
  switch (key) {
    case "from":
    case "mentions":
      p[key].push(value.replace(/^@/, ""));
      return;
    case "in":
      p.in.push(value.replace(/^#/, ""));
      return;
    case "has": {
      const kind = value.toLowerCase() as HasKind;
      if (HAS_KINDS.includes(kind)) {
        if (!p.has.includes(kind)) p.has.push(kind);
      } else p.problems.push(`Unknown filter has:${value}. Use ${orList(HAS_KINDS.map((k) => `has:${k}`))}.`);
      return;
    }
    case "pinned": {
      const v = value.toLowerCase();
      if (v === "true" || v === "yes") p.pinned = true;
      else if (v === "false" || v === "no") p.pinned = false;
      else p.problems.push("pinned: takes true or false.");
      return;
    }
    default: {
      // before, after, during (and its other name, on)
      const which = key === "on" ? "during" : (key as "before" | "after" | "during");
      if (validDate(value)) p[which] = value;
      else p.problems.push(`${key}: takes a date such as 2025-01-31.`);
    }
  }
}

/** Nothing to look for: no word and no filter. */
export function isEmptySearch(p: ParsedSearch): boolean {
  return (
    !p.terms.length &&
    !p.from.length &&
    !p.in.length &&
    !p.mentions.length &&
    !p.has.length &&
    !p.before &&
    !p.after &&
    !p.during &&
    p.pinned === null
  );
}

const quote = (s: string) => (/[\s"]/.test(s) || !s ? `"${s.replace(/"/g, "")}"` : s);

/** The query as text again (the client's chips edited back into the box): parseSearch(formatSearch(p)) gives p's terms and filters. */
export function formatSearch(p: ParsedSearch): string {
  const parts: string[] = p.terms.map((t) => (t.phrase ? `"${t.text.replace(/"/g, "")}"` : t.prefix ? `${t.text}*` : t.text));
  for (const v of p.from) parts.push(`from:${quote(v)}`);
  for (const v of p.mentions) parts.push(`mentions:${quote(v)}`);
  for (const v of p.in) parts.push(`in:${quote(v)}`);
  for (const v of p.has) parts.push(`has:${v}`);
  for (const k of ["before", "after", "during"] as const) if (p[k]) parts.push(`${k}:${p[k]}`);
  if (p.pinned !== null) parts.push(`pinned:${p.pinned}`);
  return parts.join(" ");
}

/**
 * The instants a day starts and ends (exclusive) for someone whose clock is
 * `utcOffsetMinutes` ahead of UTC (Europe/Paris in winter: 60), as milliseconds.
 */
export function dayBounds(date: string, utcOffsetMinutes = 0): { start: number; end: number } {
  const m = DATE.exec(date);
  if (!m || !validDate(date)) throw new RangeError(`not a date: ${date}`);
  const start = Date.UTC(+m[1], +m[2] - 1, +m[3]) - utcOffsetMinutes * 60_000;
  return { start, end: start + 86_400_000 };
}
