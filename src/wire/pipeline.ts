/**
 * The one request pipeline: every declared route of every door runs through run(), in
 * the order the spec answers in:
 *   1. screen (declared body size; Origin and Content-Type where browsers reach);
 *   2. authenticate by the route's caller kind (401);
 *   3. the hooks' intercept (the harness's faults);
 *   4. rate limits (429 with the door's headers);
 *   5. read the body, bounded and lossless: the only await before the handler;
 *   6. validate the body (when declared "first"; else when the handler asks);
 *   7. the handler, inside the group commit where the door has one;
 *   8. present the result as the door answers (the bot API: rate-limit headers, exact JSON);
 *   9. the hooks' answered (logs, metrics, transcripts), and the Response.
 * Errors at any step go through the one mapping (wire/errors.ts). Synchronous as long as
 * every step is (no body to read, hooks that do not wait, nothing waiting to commit): a
 * promise costs a request a turn of the event loop, which is most of what a cheap read
 * costs. One object carries the request through (what the handler sees as its Call),
 * and the hooks' view of it exists only when there are hooks.
 */
import type { Call, CallerKind, Method, Route } from "./route";
import type { Answer, RequestHooks, RequestInfo } from "./hooks";
import { validate } from "./validation";
import { parseBody, readBodyText } from "./body";
import { DomainError } from "../core";
import { isInternal } from "./errors";

/** A surface's setup, built once by the composition root: how its routes are called and answered. */
export interface Door<Ctx> {
  readonly name: RequestInfo["surface"];
  /** The path prefix of its routes: "/api/v10", "/api/client/v1", "" (ops). */
  readonly prefix: string;
  readonly ctx: Ctx;
  /** The largest body it reads (wire/body.ts). */
  readonly bodyLimit: number;
  /** The first look at a request (wire/screen.ts): a refusal, or undefined to go on. */
  screen(request: Request): Response | undefined;
  /** Who a credential of this kind names, or null. */
  authenticate(kind: CallerKind, request: Request): unknown;
  /** The ids the hooks see for a caller (application, bot user, person). */
  identify(info: RequestInfo, caller: unknown): void;
  /** A request refused for want of a credential: what its answer shows beside the 401 (the bot API's window). */
  unauthorized?(x: Exchange<Ctx>): void;
  /** Rate limits before the handler: a refusal, or null to go on (state for the answer's headers stays on x). */
  limit(x: Exchange<Ctx>): Answer | null | Promise<Answer | null>;
  /** What the handler returned, as the answer. */
  present(x: Exchange<Ctx>, result: unknown): Answer;
  /** An error as the answer. */
  failed(x: Exchange<Ctx> | null, e: unknown): Answer;
  /** A bug (an error that is no refusal): to the operator's log, with the route it broke. */
  report(err: unknown, route: string): void;
  /** The answer written out. */
  respond(x: Exchange<Ctx> | null, a: Answer): Response;
  /** Runs a handler inside the group commit (the bot API), or null: it runs as it is. */
  readonly batched: (<T>(fn: () => T) => T | Promise<T>) | null;
  readonly hooks: RequestHooks[];
  /** FastPaths.syncAnswers: answer without a promise when nothing waits. */
  readonly sync: boolean;
  /** What the door works out once per route (the bot API: its bucket and rule). */
  compile?(route: Route<Ctx>): unknown;
}

/** A declaration ready to run: its door, and what is worked out once instead of per request. */
export interface Compiled<Ctx> {
  readonly door: Door<Ctx>;
  readonly route: Route<Ctx>;
  /** The full template, prefix included: how logs and metrics name the route. */
  readonly label: string;
  /** The first path parameter's name (the rate limits' major parameter), or null. */
  readonly major: string | null;
  /** What the door worked out for it (Door.compile). */
  readonly extra: unknown;
  readonly interceptors: RequestHooks[];
  readonly observers: RequestHooks[];
}

export function compile<Ctx>(door: Door<Ctx>, route: Route<Ctx>): Compiled<Ctx> {
  return {
    door,
    route,
    label: door.prefix + route.path,
    major: /\{(\w+)\}/.exec(route.path)?.[1] ?? null,
    extra: door.compile?.(route),
    interceptors: door.hooks.filter((h) => h.intercept),
    observers: door.hooks.filter((h) => h.answered),
  };
}

/** Run one request through the pipeline. */
export function run<Ctx>(c: Compiled<Ctx>, request: Request, params: Record<string, string>): Response | Promise<Response> {
  const refused = c.door.screen(request);
  if (refused) return c.door.sync ? refused : Promise.resolve(refused);
  const x = new Exchange(c, request, params);
  const a = answer(x);
  if (a instanceof Promise) return a.then((v) => respond(x, v));
  const out = respond(x, a);
  return c.door.sync ? out : Promise.resolve(out);
}

function answer<Ctx>(x: Exchange<Ctx>): Answer | Promise<Answer> {
  const { door, route, interceptors } = x.c;
  try {
    const kind = route.caller;
    if (kind === "bot" || kind === "any" || kind === "session") {
      const who = door.authenticate(kind, x.request);
      if (who) x.caller = who;
      else if (kind !== "any") {
        door.unauthorized?.(x);
        throw DomainError.unauthorized();
      }
    }
    const instead = interceptors.length ? intercepted(interceptors, x.info(), 0) : null;
    const out =
      instead instanceof Promise ? instead.then((a) => (a ? x.give(a) : limitAndHandle(x))) : instead ? x.give(instead) : limitAndHandle(x);
    return out instanceof Promise ? out.catch((e) => failed(x, e)) : out;
  } catch (e) {
    return failed(x, e);
  }
}

/** An error as the door answers it; a bug is reported first. */
function failed<Ctx>(x: Exchange<Ctx>, e: unknown): Answer {
  if (isInternal(e)) x.c.door.report(e, `${x.c.route.method} ${x.c.label}`);
  return x.c.door.failed(x, e);
}

/** The first answer a hook gives instead (a fault), after any delay it awaits; each hook in turn. */
function intercepted(hooks: RequestHooks[], info: RequestInfo, from: number): Answer | null | Promise<Answer | null> {
  for (let i = from; i < hooks.length; i++) {
    const r = hooks[i].intercept!(info);
    if (r instanceof Promise) return r.then((a) => a ?? intercepted(hooks, info, i + 1));
    if (r) return r;
  }
  return null;
}

function limitAndHandle<Ctx>(x: Exchange<Ctx>): Answer | Promise<Answer> {
  const refused = x.c.door.limit(x);
  // Limits kept elsewhere (shared by several nodes) answer later.
  if (refused instanceof Promise) return refused.then((r) => r ?? readAndHandle(x));
  if (refused) return refused;
  return readAndHandle(x);
}

function readAndHandle<Ctx>(x: Exchange<Ctx>): Answer | Promise<Answer> {
  if (x.c.route.body) {
    const read = x.read();
    if (read) return read.then(() => handle(x));
  }
  return handle(x);
}

function handle<Ctx>(x: Exchange<Ctx>): Answer | Promise<Answer> {
  const { door, route } = x.c;
  if (route.bodyAt === "first") x.body();
  // Group commit (src/store/db.ts): the handler's writes share one commit with the
  // other requests of this turn, and nothing is answered before that commit, so an
  // acknowledged write is durable and no answer shows rows that could still roll back.
  const result = door.batched ? door.batched(() => route.handler(x)) : route.handler(x);
  return result instanceof Promise ? result.then((r) => door.present(x, r)) : door.present(x, result);
}

function respond<Ctx>(x: Exchange<Ctx>, a: Answer): Response {
  const { observers, door } = x.c;
  if (observers.length) {
    const ms = performance.now() - x.started;
    const info = x.info();
    for (const h of observers) h.answered!(info, a, ms);
  }
  return door.respond(x, a);
}

/**
 * An answer given outside any declared route (the bot API's 501 fallback, a path nothing
 * matched): the door's observers see it as the route "/*" (or the label given) with the
 * path asked, and it is written out as the door writes its answers.
 */
export function unmatched(
  door: Door<unknown>,
  request: Request,
  a: Answer,
  o: { template: string; path?: string; caller?: unknown; started: number },
): Response {
  const observers = door.hooks.filter((h) => h.answered);
  if (observers.length) {
    const info: RequestInfo = {
      surface: door.name,
      method: request.method,
      template: o.template,
      route: door.prefix + o.template,
      path: o.path,
      params: {},
      appId: null,
      botUserId: null,
      personId: null,
      body: () => undefined,
      read: () => Promise.resolve(undefined),
    };
    if (o.caller) door.identify(info, o.caller);
    const ms = performance.now() - o.started;
    for (const h of observers) h.answered!(info, a, ms);
  }
  return door.respond(null, a);
}

/** One request on its way through the pipeline: what the handler sees, and what the pipeline keeps. */
export class Exchange<Ctx> implements Call<Ctx, any, any> {
  caller: any = null;
  /** What the door's limits keep for the answer (the bot API: the bucket's state). */
  state: unknown = undefined;
  /** The answer is a hook's (a fault), not made for this request alone. */
  given = false;
  readonly started = performance.now();
  private text: string | undefined = undefined;
  private failedRead: unknown = undefined;
  private parsed: unknown = undefined;
  private hasParsed = false;
  private valid: unknown = undefined;
  private bound: { json(): unknown; body(): any; bodyLength(): number | null } | null = null;
  private q: URLSearchParams | undefined = undefined;
  private reason: string | null | undefined = undefined;
  private hookView: RequestInfo | null = null;

  constructor(
    readonly c: Compiled<Ctx>,
    readonly request: Request,
    readonly params: Record<string, string>,
  ) {}

  get ctx(): Ctx {
    return this.c.door.ctx;
  }

  get method(): Method {
    return this.c.route.method;
  }

  get headers(): Headers {
    return this.request.headers;
  }

  /** Parsed on first use: most writes never look at the query string. */
  get query(): URLSearchParams {
    return (this.q ??= new URL(this.request.url).searchParams);
  }

  /** Read on first use, as the query: reads never look at it. */
  get auditReason(): string | null {
    if (this.reason === undefined) {
      const raw = this.request.headers.get("x-audit-log-reason");
      this.reason = raw ? safeDecode(raw).slice(0, 512) : null;
    }
    return this.reason;
  }

  /** Read the body's text (step 5); a failure is kept and thrown where the handler reads it. */
  read(): Promise<void> | undefined {
    if (this.request.body === null) {
      this.text = "";
      return undefined;
    }
    return readBodyText(this.request, this.c.door.bodyLimit).then(
      (t) => void (this.text = t),
      (e) => void (this.failedRead = e),
    );
  }

  /** Read and parse the body now, for a hook's answer given instead of the route's: undefined when it cannot be. */
  async readNow(): Promise<unknown> {
    if (this.text === undefined && this.failedRead === undefined) await this.read();
    try {
      return this.parse();
    } catch {
      return undefined;
    }
  }

  // json(), bodyLength() and body() work when destructured (people's handlers do):
  // bound on first use, so a request that reads no body makes no closures.
  get json(): () => unknown {
    return this.methods().json;
  }

  get bodyLength(): () => number | null {
    return this.methods().bodyLength;
  }

  get body(): () => any {
    return this.methods().body;
  }

  private methods() {
    return (this.bound ??= {
      json: () => this.parse(),
      body: () => this.validated(),
      bodyLength: () => (this.text === undefined ? null : this.text.length),
    });
  }

  private parse(): unknown {
    if (this.hasParsed) return this.parsed;
    if (this.failedRead !== undefined) throw this.failedRead;
    if (this.text === undefined) throw new Error(`${this.c.label} reads a body its declaration does not name`);
    try {
      this.parsed = parseBody(this.text, this.request.headers.get("content-type"));
    } catch (e) {
      this.failedRead = e;
      throw e;
    }
    this.hasParsed = true;
    return this.parsed;
  }

  private validated(): any {
    if (this.valid !== undefined) return this.valid;
    const raw = this.parse();
    const route = this.c.route;
    return (this.valid = validate(route.body!, raw === undefined && route.bodyOptional ? {} : raw));
  }

  /** A hook's answer (a fault) given instead of the route's. */
  give(a: Answer): Answer {
    this.given = true;
    return a;
  }

  /** The request as hooks see it (made on first use: only when there are hooks). */
  info(): RequestInfo {
    const { c } = this;
    if (!this.hookView) {
      const x = this;
      this.hookView = {
        surface: c.door.name,
        method: c.route.method,
        template: c.route.path,
        route: c.label,
        params: this.params,
        appId: null,
        botUserId: null,
        personId: null,
        body: () => x.parsed,
        read: () => x.readNow(),
      };
    }
    if (this.caller) c.door.identify(this.hookView, this.caller);
    return this.hookView;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
