/**
 * Transcripts (design/harness.md "Transcripts"): everything between each application and
 * Parley, in order: bot API requests with their answers, and gateway frames both ways.
 * Recorded through the pipeline's and the gateway's hooks, bounded in memory per
 * application, kept as given (frames as the strings sent) and shaped only when read,
 * with tokens masked.
 */
import type { HookAnswer, HookRequest, HookSession } from "./hooks";
import { parseBoundedJsonLossless } from "../wire/json";

export const TRANSCRIPT_CAPACITY = 2000;

interface RestEntry {
  cursor: number;
  at: number;
  kind: "rest";
  method: string;
  route: string;
  /** The route with its parameters filled in (tokens in it masked when shown). */
  path: string;
  status: number;
  request: unknown;
  response: unknown;
  /** The fault that answered instead of the route, if one did. */
  fault?: string;
  /** The latency faults that delayed it, if any did. */
  delayed_by?: string[];
}

interface GatewayEntry {
  cursor: number;
  at: number;
  kind: "gateway";
  session_id: string;
  direction: "in" | "out";
  frame: string;
}

type Entry = RestEntry | GatewayEntry;

interface Pending {
  at: number;
  direction: "in" | "out";
  frame: string;
}

/** The gateway frames of a socket before it has a session (HELLO, IDENTIFY, RESUME): kept until it gets one. */
const MAX_PENDING = 32;

export class Transcripts {
  private readonly byApp = new Map<string, Entry[]>();
  private next = 1;
  /** Which session each socket carries, and which socket each live session is on. */
  private readonly connSession = new Map<number, HookSession>();
  private readonly sessionConn = new Map<string, number>();
  private readonly pending = new Map<number, Pending[]>();

  constructor(
    private readonly clock: { now(): number },
    /** The application a request belongs to (its token, or the interaction or webhook it names). */
    private readonly appOf: (r: HookRequest) => string | null,
    /** The latency faults that delayed a request (faults.ts). */
    private readonly delayedBy: (r: HookRequest) => string[] | undefined = () => undefined,
    private readonly capacity = TRANSCRIPT_CAPACITY,
  ) {}

  get cursor(): number {
    return this.next - 1;
  }

  readonly requestHooks = {
    answered: (r: HookRequest, a: HookAnswer) => {
      const app = this.appOf(r);
      if (!app) return;
      // A request no route matched has no template: its path stands for one. Interaction and
      // webhook tokens in the path are credentials: masked like any "token" field.
      const route = r.path ?? r.template;
      const path =
        r.path ??
        r.template.replace(/\{(\w+)\}/g, (all, name: string) => (name.endsWith("token") ? "[masked]" : (r.params?.[name] ?? all)));
      this.add(app, {
        cursor: 0,
        at: this.clock.now(),
        kind: "rest",
        method: r.method,
        route,
        path,
        status: a.status,
        request: r.body() ?? null,
        response: a.body ?? null,
        ...(a.fault ? { fault: a.fault } : {}),
        ...delayed(this.delayedBy(r)),
      });
    },
  };

  readonly gatewayHooks = {
    /** A numbered dispatch: on the wire now if the session is live; otherwise it is replayed (sent) on RESUME. */
    dispatched: (s: HookSession, frame: string) => {
      if (this.sessionConn.has(s.id)) this.frame(s, "out", frame);
    },
    sent: (connId: number, s: HookSession | null, frame: string) => this.onFrame(connId, s, "out", frame),
    received: (connId: number, s: HookSession | null, raw: string) => this.onFrame(connId, s, "in", raw),
    attached: (connId: number, s: HookSession) => {
      this.flush(connId, s);
      this.connSession.set(connId, s);
      this.sessionConn.set(s.id, connId);
    },
    closed: (connId: number) => {
      const s = this.connSession.get(connId);
      this.connSession.delete(connId);
      this.pending.delete(connId);
      if (s && this.sessionConn.get(s.id) === connId) this.sessionConn.delete(s.id);
    },
  };

  /** Entries of an application after `cursor`, shaped as the contract fixes them, tokens masked. */
  after(appId: string, cursor: number): { entries: Record<string, unknown>[]; cursor: string } {
    const got = (this.byApp.get(appId) ?? []).filter((e) => e.cursor > cursor);
    const last = got.length ? got[got.length - 1].cursor : Math.max(cursor, this.cursor);
    return { entries: got.map(shape), cursor: String(last) };
  }

  /** The same entries as readable lines, for a failing test's output. */
  text(appId: string, cursor: number): { text: string; cursor: string } {
    const got = (this.byApp.get(appId) ?? []).filter((e) => e.cursor > cursor);
    const last = got.length ? got[got.length - 1].cursor : Math.max(cursor, this.cursor);
    return { text: got.map(line).join("\n") + (got.length ? "\n" : ""), cursor: String(last) };
  }

  clear(): void {
    // Cursors keep increasing across a reset, so a stale cursor never sees new entries as old.
    this.byApp.clear();
    this.connSession.clear();
    this.sessionConn.clear();
    this.pending.clear();
  }

  private onFrame(connId: number, given: HookSession | null, direction: "in" | "out", frame: string): void {
    // Op 9 goes out after the session is dropped from its socket; the socket still says whose it was.
    const s = this.connSession.get(connId) ?? given;
    if (s) {
      this.flush(connId, s);
      return this.frame(s, direction, frame);
    }
    let list = this.pending.get(connId);
    if (!list) this.pending.set(connId, (list = []));
    if (list.length < MAX_PENDING) list.push({ at: this.clock.now(), direction, frame });
  }

  /** Frames of the socket from before it had a session belong to the session it got. */
  private flush(connId: number, s: HookSession): void {
    const list = this.pending.get(connId);
    if (!list) return;
    this.pending.delete(connId);
    for (const p of list)
      this.add(s.owner.appId, { cursor: 0, at: p.at, kind: "gateway", session_id: s.id, direction: p.direction, frame: p.frame });
  }

  private frame(s: HookSession, direction: "in" | "out", frame: string): void {
    this.add(s.owner.appId, { cursor: 0, at: this.clock.now(), kind: "gateway", session_id: s.id, direction, frame });
  }

  private add(appId: string, e: Entry): void {
    e.cursor = this.next++;
    let list = this.byApp.get(appId);
    if (!list) this.byApp.set(appId, (list = []));
    list.push(e);
    // Amortised trimming: drop a chunk once over capacity rather than shifting per entry.
    if (list.length > this.capacity * 1.25) this.byApp.set(appId, list.slice(-this.capacity));
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

function parseFrame(frame: string): { op: unknown; t: unknown; s: unknown; d: unknown } {
  // Integers of 16 or more digits read as strings, as in request bodies, so none is rounded.
  const f: any = parseBoundedJsonLossless(frame);
  if (f && typeof f === "object") return { op: f.op ?? null, t: f.t ?? null, s: f.s ?? null, d: mask(f.d ?? null) };
  // Not JSON (or nested past the bound): the gateway refused it with op 9; show what came.
  return { op: null, t: null, s: null, d: frame };
}

function shape(e: Entry): Record<string, unknown> {
  if (e.kind === "rest")
    return {
      at: iso(e.at),
      kind: "rest",
      method: e.method,
      route: e.route,
      path: e.path,
      status: e.status,
      request: mask(e.request),
      response: mask(e.response),
      ...(e.fault ? { fault: e.fault } : {}),
      ...delayed(e.delayed_by),
    };
  return { at: iso(e.at), kind: "gateway", session_id: e.session_id, direction: e.direction, ...parseFrame(e.frame) };
}

const OPS: Record<number, string> = {
  0: "DISPATCH",
  1: "HEARTBEAT",
  2: "IDENTIFY",
  3: "PRESENCE_UPDATE",
  4: "VOICE_STATE_UPDATE",
  6: "RESUME",
  8: "REQUEST_GUILD_MEMBERS",
  9: "INVALID_SESSION",
  10: "HELLO",
  11: "HEARTBEAT_ACK",
};

const LINE_JSON = 240;

function brief(v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = JSON.stringify(v);
  return s.length > LINE_JSON ? `${s.slice(0, LINE_JSON)}…` : s;
}

function line(e: Entry): string {
  if (e.kind === "rest") {
    const req = brief(mask(e.request));
    const res = brief(mask(e.response));
    const late = e.delayed_by ? ` (delayed by fault${e.delayed_by.length > 1 ? "s" : ""} ${e.delayed_by.join(", ")})` : "";
    return `${iso(e.at)} rest    ${e.method} ${e.path} -> ${e.status}${e.fault ? ` (fault ${e.fault})` : ""}${late}${req ? `  request ${req}` : ""}${res ? `  response ${res}` : ""}`;
  }
  const f = parseFrame(e.frame);
  const arrow = e.direction === "in" ? "bot -> parley" : "parley -> bot";
  const name = f.op === 0 ? `${f.t} s=${f.s}` : (OPS[f.op as number] ?? `op ${f.op}`);
  const d = brief(f.d);
  return `${iso(e.at)} gateway ${arrow} ${name}${d ? `  ${d}` : ""}  [${e.session_id.slice(0, 8)}]`;
}

function delayed(ids: string[] | undefined): { delayed_by?: string[] } {
  return ids?.length ? { delayed_by: ids } : {};
}

/** Tokens (bot tokens in IDENTIFY and RESUME, interaction and webhook tokens) are never shown. */
export function mask(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(mask);
  if (!v || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = k === "token" && typeof x === "string" ? "[masked]" : mask(x);
  return out;
}
