/**
 * What a differential run records: every HTTP answer (status, headers but Date, body),
 * every frame each gateway session and live connection received, step by step, and
 * whether a GET wrote to the store. Values that differ between two runs of the same
 * session by nature (random tokens, session ids, keys, ciphertext, the random tail of
 * internal ids, the listening port) become placeholders numbered in order of first
 * appearance, so two runs that behaved alike record the same lines.
 */
import type { Parley } from "../../src/app";

export interface Line {
  step: string;
  what: string;
  data: unknown;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Keys whose string values are random by nature (or name something random). */
const RANDOM_KEYS = new Set([
  "token",
  "session_id",
  "verify_key",
  "public_key",
  "ciphertext",
  "x25519",
  "p256",
  "sealed",
  "fingerprint",
  "secret",
]);
const PORT = /(127\.0\.0\.1|localhost|0\.0\.0\.0):\d+/g;
/** Bot tokens (base64 of the bot's snowflake, the version, the secret) and 48-byte secrets (interaction and webhook tokens), wherever they stand (a path, a URL). */
const BOT_TOKEN = /(?<![A-Za-z0-9_-])[A-Za-z0-9+/]{20,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{40,}(?![A-Za-z0-9_-])/g;
const SECRET = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{64}(?![A-Za-z0-9_-])/g;
const ENVELOPE = /\bdm1\.[A-Za-z0-9._~-]+/g;

export class Recorder {
  readonly lines: Line[] = [];
  step = "setup";
  /** GETs whose answer moved the store's write counter: none may. */
  readonly writingGets: string[] = [];
  /**
   * How the gateway fanned out (not compared: the fast paths exist to change it): the
   * largest cohort seen after an answer or a step, and the deliveries that visited every
   * session or followed a plan. They show each run took the path its switches chose.
   */
  readonly fanOut = { largestCohort: 0, visits: 0, planned: 0 };
  /** The store's engine the session ran on (sqlite, postgres). */
  engine = "";

  constructor(private readonly p: Parley) {}

  /** Note the largest cohort now (fanOut). */
  sawCohorts(): void {
    this.fanOut.largestCohort = Math.max(this.fanOut.largestCohort, this.p.gateway.cohortSizes()[0] ?? 0);
  }

  add(what: string, data: unknown): void {
    this.lines.push({ step: this.step, what, data });
  }

  /** One request through the real listening server, recorded; answers the parsed body. */
  async http(
    label: string,
    method: string,
    path: string,
    opts: { headers?: Record<string, string>; body?: unknown; raw?: Uint8Array } = {},
  ): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | Uint8Array | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["Content-Type"] ??= "application/json";
    }
    // The server's own background work first: four times a second the search index takes
    // in the entries that wait (core/search-index.ts), and on a busy machine that write can
    // land while a GET is on its way and be taken for the GET's.
    if (method === "GET") while (this.p.core.search.backfillStep());
    const before = this.p.store.changes.written;
    const res = await fetch(`${this.p.api.urls.base}${path}`, { method, headers, body: body as BodyInit | undefined });
    const text = await res.text();
    if (method === "GET" && this.p.store.changes.written !== before) this.writingGets.push(`${this.step}: ${label} ${path}`);
    this.sawCohorts();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    const shown: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      if (k !== "date") shown[k] = v;
    });
    this.add(`${label} ${method} ${path}`, { status: res.status, headers: shown, body: parsed });
    return { status: res.status, body: parsed };
  }
}

/** The lines with every random value replaced by a placeholder, in order of first appearance. */
export function normalise(lines: Line[]): Line[] {
  const seen = new Map<string, string>();
  const place = (kind: string, v: string) => {
    let p = seen.get(v);
    if (!p) seen.set(v, (p = `<${kind}#${seen.size + 1}>`));
    return p;
  };
  const str = (s: string): string =>
    s
      .replace(ENVELOPE, (v) => place("envelope", v))
      .replace(BOT_TOKEN, (v) => place("token", v))
      .replace(UUID, (v) => place("uuid", v))
      .replace(SECRET, (v) => place("secret", v))
      .replace(/\bps_[A-Za-z0-9_-]+/g, (v) => place("session", v))
      .replace(PORT, "$1:<port>");
  const walk = (v: unknown, key = ""): unknown => {
    if (typeof v === "string") return RANDOM_KEYS.has(key) && v ? place(key, v) : str(v);
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [str(k), walk(x, k)]));
    return v;
  };
  return lines.map((l) => ({ step: l.step, what: str(l.what), data: inOneOrder(walk(l.data)) }));
}

/**
 * The harness's event log and transcripts list every session's frames in the order the
 * fan-out reached the sessions, which is the fan-out's own business: a plan, a cohort or
 * a visit reaches the same sessions with the same frames in another order. So the
 * entries of one dispatch (a run of entries with one event name) are compared in one
 * order: by session, then seq. The frames each connection received stay compared
 * exactly, in the order they came.
 */
function inOneOrder(data: any): unknown {
  const body = data?.body;
  const field = Array.isArray(body?.events) ? "events" : Array.isArray(body?.entries) ? "entries" : null;
  if (field === null) return data;
  const list: any[] = body[field];
  const key = (e: any) => `${e.session_id} ${String(e.s).padStart(10, "0")}`;
  const out: any[] = [];
  for (let i = 0; i < list.length; ) {
    let j = i + 1;
    if (typeof list[i].t === "string") while (j < list.length && list[j].t === list[i].t) j++;
    out.push(...list.slice(i, j).sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0)));
    i = j;
  }
  return { ...data, body: { ...body, [field]: out } };
}

/** The first line where two recordings part, with its step and the first place inside it, or null when they are the same. */
export function firstDifference(a: Line[], b: Line[]): string | null {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (JSON.stringify(a[i] ?? null) === JSON.stringify(b[i] ?? null)) continue;
    const where = a[i] ?? b[i];
    const [path, x, y] = firstPlace(a[i]?.data, b[i]?.data, "");
    const short = (v: unknown) => (JSON.stringify(v) ?? "undefined").slice(0, 300);
    return `line ${i}, step "${where.step}", ${a[i]?.what ?? "(none)"} | ${b[i]?.what ?? "(none)"}, at ${path || "(whole)"}:\n  expected ${short(x)}\n  received ${short(y)}`;
  }
  return null;
}

function firstPlace(x: unknown, y: unknown, path: string): [string, unknown, unknown] {
  if (x && y && typeof x === "object" && typeof y === "object") {
    const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])];
    for (const k of keys) {
      const a = (x as Record<string, unknown>)[k];
      const b = (y as Record<string, unknown>)[k];
      if (JSON.stringify(a) !== JSON.stringify(b)) return firstPlace(a, b, `${path}.${k}`);
    }
  }
  return [path, x, y];
}
