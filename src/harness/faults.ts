/**
 * Faults (design/harness.md "Faults"): the harness breaks things on purpose. Gateway
 * closes and invalid sessions act at once (faults-http.ts); dropped heartbeat ACKs, REST
 * errors and latency stay armed here, in memory, until used, deleted or reset, and act
 * through the pipeline's and the gateway's hooks (botapi/hooks.ts, gateway/context.ts),
 * so neither the pipeline nor the connection handler knows about them. Holds (a cluster
 * node's session writes or its hearing of the others, held back) act through what the
 * composition root hands the harness (context.ts, ClusterHolds) and end when deleted.
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { DomainError } from "../core";
import { rateLimitedAnswer } from "../wire/errors";
import { Snowflake, validate } from "../wire/validation";
import type { HookAnswer, HookRequest, HookSession, LimitHeaders } from "./hooks";

const strict = { additionalProperties: false } as const;
const Route = Type.String({ minLength: 1, maxLength: 300, pattern: "^/" });
/** A concrete path, as the bot requests it: no template parameters. */
const Path = Type.String({ minLength: 1, maxLength: 300, pattern: "^/[^{}]*$" });
const Method = Type.Union(["GET", "POST", "PUT", "PATCH", "DELETE"].map((m) => Type.Literal(m)));
const Times = Type.Integer({ minimum: 1, maximum: 1_000_000 });

const SCHEMAS = {
  gateway_close: Type.Object(
    { kind: Type.Literal("gateway_close"), application_id: Snowflake, code: Type.Optional(Type.Integer({ minimum: 1000, maximum: 4999 })) },
    strict,
  ),
  invalid_session: Type.Object({ kind: Type.Literal("invalid_session"), application_id: Snowflake }, strict),
  heartbeat_ack: Type.Object(
    { kind: Type.Literal("heartbeat_ack"), application_id: Snowflake, drop: Type.Integer({ minimum: 1, maximum: 100_000 }) },
    strict,
  ),
  rest: Type.Object(
    {
      kind: Type.Literal("rest"),
      application_id: Type.Optional(Snowflake),
      method: Type.Optional(Method),
      route: Type.Optional(Route),
      path: Type.Optional(Path),
      status: Type.Integer({ minimum: 400, maximum: 599 }),
      times: Type.Optional(Times),
      retry_after: Type.Optional(Type.Number({ minimum: 0, maximum: 3600 })),
      global: Type.Optional(Type.Boolean()),
    },
    strict,
  ),
  hold: Type.Object({ kind: Type.Literal("hold"), what: Type.Union([Type.Literal("session_writes"), Type.Literal("events")]) }, strict),
  latency: Type.Object(
    {
      kind: Type.Literal("latency"),
      application_id: Type.Optional(Snowflake),
      method: Type.Optional(Method),
      route: Type.Optional(Route),
      path: Type.Optional(Path),
      ms: Type.Integer({ minimum: 0, maximum: 120_000 }),
      times: Type.Optional(Times),
    },
    strict,
  ),
} satisfies Record<string, TSchema>;

/** Any fault body (for the API description). */
export const FaultSchema = Type.Union(Object.values(SCHEMAS));

export type FaultKind = keyof typeof SCHEMAS;
export type FaultBody = { [K in FaultKind]: Static<(typeof SCHEMAS)[K]> }[FaultKind];
type Body<K extends FaultKind> = Static<(typeof SCHEMAS)[K]>;

/** A fault body, validated for its kind (400/50035 naming the field otherwise). */
export function parseFault(raw: unknown): FaultBody {
  const kind = raw && typeof raw === "object" ? (raw as { kind?: unknown }).kind : undefined;
  if (typeof kind !== "string" || !(kind in SCHEMAS))
    throw DomainError.invalid("kind", `Must be one of ${Object.keys(SCHEMAS).join(", ")}`, "BASE_TYPE_CHOICES");
  // Methods are matched as the pipeline names them; accept any case.
  const method = (raw as { method?: unknown }).method;
  const doc = typeof method === "string" ? { ...(raw as object), method: method.toUpperCase() } : raw;
  const body = validate(SCHEMAS[kind as FaultKind], doc) as FaultBody;
  if (body.kind === "gateway_close" && body.code !== undefined && body.code !== 1000 && body.code < 3000)
    throw DomainError.invalid("code", "A close code is 1000 or 3000 to 4999", "NUMBER_TYPE_COERCE");
  if ((body.kind === "rest" || body.kind === "latency") && body.route !== undefined && body.path !== undefined)
    throw DomainError.invalid("path", "Give a route or a path, not both", "BASE_TYPE_INVALID");
  if (body.kind === "rest" && body.route === undefined && body.path === undefined)
    throw DomainError.invalid("route", "This field is required (or give a concrete path)", "BASE_TYPE_REQUIRED");
  return body;
}

/** An armed fault: the body as given, what it matches, and how much of it is left. */
interface Armed {
  id: string;
  body: Body<"heartbeat_ack"> | Body<"rest"> | Body<"latency">;
  /** Internal id of the application it is limited to, if any. */
  appId: string | null;
  /** Route segments to match ("{}" for any value), or null for every route. */
  route: string[] | null;
  /** The route is a concrete path: every segment is matched against the path the bot requested. */
  concrete: boolean;
  /** Requests left (rest, latency); null: unlimited (latency without `times`). */
  left: number | null;
  /** heartbeat_ack: ACKs each bound session still loses. */
  drops?: Map<string, number>;
  /** heartbeat_ack armed while the application had no live session: sessions bind as they heartbeat. */
  lazy?: boolean;
}

/** A hold in place: its body, and what ends it. */
interface Held {
  id: string;
  body: Body<"hold">;
  release: () => void;
}

/** The armed faults and the hooks through which they act. */
export class Faults {
  private armed: Armed[] = [];
  private holds: Held[] = [];
  private nextId = 1;

  constructor(
    private readonly limitHeaders: LimitHeaders,
    /** The application a request belongs to (its token, or the interaction or webhook it names). */
    private readonly appOf: (r: HookRequest) => string | null,
  ) {}

  /** The latency faults that delayed each request in flight, for its transcript entry. */
  private readonly delays = new WeakMap<HookRequest, string[]>();

  /** Which latency faults delayed a request (none: undefined). */
  delayedBy(r: HookRequest): string[] | undefined {
    return this.delays.get(r);
  }

  /** For the bot API's hook list: answers instead of the route, or delays it. */
  readonly requestHooks = { intercept: (r: HookRequest) => (this.armed.length ? this.intercept(r) : null) };
  /** For the gateway's hook list: drops heartbeat ACKs. */
  readonly gatewayHooks = { acknowledge: (s: HookSession | null) => (this.armed.length && s ? this.acknowledge(s) : true) };

  /** A fresh id, also for the faults that act at once and are never listed. */
  newId(): string {
    return String(this.nextId++);
  }

  /**
   * Arm a fault that waits for its requests or heartbeats. `sessions`: for heartbeat_ack,
   * the application's live sessions now; with none, the sessions that heartbeat while it
   * is armed are bound to it instead.
   */
  arm(body: Armed["body"], appId: string | null, sessions: string[] = []): string {
    const id = this.newId();
    const a: Armed = { id, body, appId, route: null, concrete: false, left: null };
    if (body.kind === "heartbeat_ack") {
      a.drops = new Map(sessions.map((s) => [s, body.drop]));
      a.lazy = sessions.length === 0;
    } else {
      const given = body.route ?? body.path;
      a.route = given === undefined ? null : segments(given);
      a.concrete = body.path !== undefined;
      a.left = body.times ?? (body.kind === "rest" ? 1 : null);
    }
    this.armed.push(a);
    return id;
  }

  /** A hold now in place (`release` ends it): listed until deleted or reset. */
  held(body: Body<"hold">, release: () => void): string {
    const id = this.newId();
    this.holds.push({ id, body, release });
    return id;
  }

  /** What GET /faults lists: each armed fault's body with what is left of it. */
  list(): Record<string, unknown>[] {
    const holds = this.holds.map((h) => ({ id: h.id, ...h.body, remaining: null }));
    return [...this.armed.map((a) => ({ id: a.id, ...a.body, remaining: this.remaining(a) })), ...holds];
  }

  delete(id: string): boolean {
    const hold = this.holds.find((h) => h.id === id);
    if (hold) {
      this.holds = this.holds.filter((h) => h !== hold);
      hold.release();
      return true;
    }
    const before = this.armed.length;
    this.armed = this.armed.filter((a) => a.id !== id);
    return this.armed.length < before;
  }

  clear(): void {
    this.armed = [];
    const holds = this.holds;
    this.holds = [];
    for (const h of holds) h.release();
  }

  private remaining(a: Armed): number | null {
    if (!a.drops) return a.left;
    if (!a.drops.size) return (a.body as Body<"heartbeat_ack">).drop;
    return Math.max(...a.drops.values());
  }

  private async intercept(r: HookRequest): Promise<HookAnswer | null> {
    let app: string | null | undefined;
    const appOf = () => (app === undefined ? (app = this.appOf(r)) : app);
    let delay = 0;
    const delayedBy: string[] = [];
    let answer: HookAnswer | null = null;
    for (const a of [...this.armed]) {
      if (a.body.kind === "heartbeat_ack" || (a.body.kind === "rest" && answer)) continue;
      if (a.body.method && a.body.method !== r.method) continue;
      if (a.route && !(a.concrete ? samePath(a.route, r) : matches(a.route, r))) continue;
      if (a.appId && a.appId !== appOf()) continue;
      if (a.body.kind === "latency") {
        delay += a.body.ms;
        delayedBy.push(a.id);
      } else answer = { ...this.answerFor(a.body, r), fault: a.id };
      this.use(a);
    }
    if (delayedBy.length) this.delays.set(r, delayedBy);
    // Real milliseconds: latency is what the bot waits for on the wire, not domain time.
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    // The route never reads the body of a request a fault answers; the transcript shows it all the same.
    if (answer) await r.read?.();
    return answer;
  }

  private use(a: Armed): void {
    if (a.left === null) return;
    if (--a.left <= 0) this.armed = this.armed.filter((x) => x !== a);
  }

  /** The spec's error body and headers for `status`; a 429 shaped exactly as a real limit's. */
  private answerFor(f: Body<"rest">, r: HookRequest): HookAnswer {
    if (f.status !== 429) return { status: f.status, body: errorBody(f.status), headers: this.limitHeaders(r.method, r.template, {}) };
    const retryMs = (f.retry_after ?? 1) * 1000;
    const { status, body, headers } = rateLimitedAnswer({ retryAfterMs: retryMs, global: f.global === true });
    // A bucket limit shows its window spent until the reset. A global one leaves the route's
    // count alone, but its Reset-After says retry_after too: libraries that prefer that
    // header (oceanic, eris) would otherwise wait out the route's whole window, where the
    // reference's global 429 leads them by retry_after.
    const window = f.global ? { resetAfterMs: retryMs } : { remaining: 0, resetAfterMs: retryMs };
    return { status, body, headers: { ...this.limitHeaders(r.method, r.template, window), ...headers } };
  }

  private acknowledge(s: HookSession): boolean {
    for (const a of this.armed) {
      if (!a.drops || a.appId !== s.owner.appId) continue;
      // Armed with no live session: the sessions that heartbeat while it is armed are the ones it breaks.
      if (a.lazy && !a.drops.has(s.id)) a.drops.set(s.id, (a.body as Body<"heartbeat_ack">).drop);
      const n = a.drops.get(s.id);
      if (!n) continue;
      a.drops.set(s.id, n - 1);
      if ([...a.drops.values()].every((left) => left === 0)) this.armed = this.armed.filter((x) => x !== a);
      return false;
    }
    return true;
  }
}

/**
 * Refuse a `rest` or `latency` fault whose route (or concrete path) and method no bot API
 * route serves: it could never match, so a typo would leave the test's fault silently
 * unused and a resilience test passing without the failure it meant to cause.
 */
export function checkServed(body: FaultBody, served: readonly { method: string; path: string }[]): void {
  if ((body.kind !== "rest" && body.kind !== "latency") || (body.route ?? body.path) === undefined) return;
  const field = body.route !== undefined ? "route" : "path";
  const want = segments((body.route ?? body.path)!);
  const fits = (tpl: string) => {
    const have = tpl.split("/").slice(1);
    return have.length === want.length && have.every((seg, i) => /^\{\w+\}$/.test(seg) || want[i] === seg);
  };
  const routes = served.filter((r) => fits(r.path));
  if (!routes.length)
    throw DomainError.invalid(field, "No bot API route has this shape (a template as the spec writes it)", "BASE_TYPE_INVALID");
  if (body.method !== undefined && !routes.some((r) => r.method === body.method))
    throw DomainError.invalid(
      "method",
      `The route answers ${[...new Set(routes.map((r) => r.method))].join(", ")} only`,
      "BASE_TYPE_CHOICES",
    );
}

/** "/api/v10/channels/{channel_id}/messages" -> ["channels", "{}", "messages"]. */
function segments(route: string): string[] {
  const path = route.replace(/^\/api\/v\d+(?=\/)/, "").replace(/\/+$/, "");
  return path
    .split("/")
    .slice(1)
    .map((s) => (/^\{.*\}$/.test(s) ? "{}" : s));
}

/** A template segment matches "{}" (any value), its literal text, or the value the request gave. */
function matches(route: string[], r: HookRequest): boolean {
  const tpl = r.template.split("/").slice(1);
  if (tpl.length !== route.length) return false;
  for (let i = 0; i < tpl.length; i++) {
    const want = route[i];
    const param = /^\{(\w+)\}$/.exec(tpl[i]);
    if (param ? want !== "{}" && want !== r.params?.[param[1]] : want !== tpl[i]) return false;
  }
  return true;
}

/** A concrete path's segments against the path the request named (its parameters filled in, compared decoded). */
function samePath(path: string[], r: HookRequest): boolean {
  const tpl = r.template.split("/").slice(1);
  if (tpl.length !== path.length) return false;
  for (let i = 0; i < tpl.length; i++) {
    const param = /^\{(\w+)\}$/.exec(tpl[i]);
    const got = param ? (r.params?.[param[1]] ?? "") : tpl[i];
    if (decoded(got) !== decoded(path[i])) return false;
  }
  return true;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const REASONS: Record<number, [number, string]> = {
  400: [50035, "Invalid Form Body"],
  401: [0, "401: Unauthorized"],
  403: [50001, "Missing Permissions"],
  404: [10003, "Unknown object"],
  500: [0, "500: Internal Server Error"],
  501: [0, "501: Not Implemented"],
  502: [0, "502: Bad Gateway"],
  503: [0, "503: Service Unavailable"],
  504: [0, "504: Gateway Timeout"],
};

/** The spec's error body (2.3, 7) for a status: its code where the spec names one, else 0. */
function errorBody(status: number): { code: number; message: string } {
  const [code, message] = REASONS[status] ?? [0, `${status}: Error`];
  return { code, message };
}
