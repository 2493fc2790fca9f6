/**
 * The bot API's request pipeline: every route goes through run(), which authenticates,
 * applies rate limits, calls the (thin) handler, and maps errors, always answering
 * with the spec's rate-limit headers and an exact `application/json` content type.
 */
import type { ApplicationRow } from "../core/types";
import { DomainError } from "../core/errors";
import type { BotApi } from "./context";
import { errorToStatusBody, rateLimitedAnswer } from "../wire/errors";
import { jsonResponse, jsonResponseOwningHeaders } from "../wire/http";
import { parseRequestJson } from "../wire/json";
import { readBodyText } from "../wire/body";
import { rateLimitHeaders, type BucketState } from "./ratelimit";
import { parseBotAuthorization } from "../wire/tokens";
import { validate } from "../wire/validation";
import { SNOWFLAKE } from "../wire/snowflakes";
import type { TSchema, Static } from "@sinclair/typebox";
import type { Answer, RequestHooks, RequestInfo } from "./hooks";

export type { Answer, RequestHooks, RequestInfo } from "./hooks";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface AuthedBot {
  app: ApplicationRow;
  botUserId: string;
  /** The grant baked into the token used (REST content gating uses these, spec 5.7). */
  intents: number;
}

export interface Req {
  api: BotApi;
  method: Method;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: Headers;
  /** Present on routes with auth "bot". */
  bot: AuthedBot;
  /** The decoded X-Audit-Log-Reason, if any. */
  auditReason: string | null;
  /** Parse and validate the JSON body against a schema (50035 on failure). */
  body<T extends TSchema>(schema: T): Promise<Static<T>>;
  /** The raw parsed JSON body (undefined when empty). */
  json(): Promise<unknown>;
  /** Length (UTF-16 units) of the body text once json() has read it, else null. */
  bodyLength(): number | null;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const noContent = (): Reply => ({ status: 204 });

export interface RouteDef {
  method: Method;
  /** Template under /api/v10 with {name} parameters, e.g. "/channels/{channel_id}/messages". */
  path: string;
  /**
   * "bot": Authorization: Bot <token> required. "none": the path carries the credential
   * or none is needed. "any": answered alike with or without a token (a refused route);
   * a valid bot token still names the application (its transcript, its rate limits).
   */
  auth: "bot" | "none" | "any";
  /**
   * The template whose rate-limit bucket this route counts against, when it is an alias
   * of that route (one window for both, so alternating between them gains nothing).
   */
  limitAs?: string;
  handler(req: Req): Reply | Promise<Reply>;
}

/** Elysia path ("/channels/:channel_id") for a spec template ("/channels/{channel_id}"). */
export function elysiaPath(template: string): string {
  return "/api/v10" + template.replace(/\{(\w+)\}/g, ":$1");
}

function authenticate(api: BotApi, header: string | null): AuthedBot | null {
  const parsed = header ? parseBotAuthorization(header, api.flakes) : null;
  if (!parsed) return null;
  const app = api.core.apps.authenticate(parsed.botUserId, parsed.version, parsed.secret);
  if (!app) return null;
  // The token's intents less any privileged one revoked since it was minted (core/applications.ts).
  return { app, botUserId: app.bot_user_id, intents: api.core.apps.currentGrant(app) };
}

async function readJson(request: Request, seen: (length: number) => void): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  // Bounded by the bot API's body limit, refused from Content-Length before reading (wire/body.ts).
  const text = await readBodyText(request);
  seen(text.length);
  // An empty body is no body, whatever its Content-Type (discord.py sends PUT .../bans that way).
  if (text.trim() === "") return undefined;
  if (/^multipart\//i.test(type)) {
    throw DomainError.invalid("", "Multipart bodies are not supported: Parley takes JSON only (no file uploads)", "CONTENT_TYPE_INVALID");
  }
  if (type && !/^application\/json\b/i.test(type)) {
    throw DomainError.invalid("", `Content-Type must be application/json, not ${type}`, "CONTENT_TYPE_INVALID");
  }
  return parseRequestJson(text);
}

/**
 * Run one bot API request through auth, hooks, rate limits, the handler and the error
 * mapping. Synchronous as long as every step is (a read with no body, hooks that do not
 * wait, nothing waiting to commit): a promise costs a request a turn of the event loop,
 * which is most of what a cheap read costs. One object carries the request through
 * (what the handler sees as Req), and the hooks' view of it exists only when there are
 * hooks: allocations per request show up as CPU in the collector.
 */
export function run(api: BotApi, def: RouteDef, request: Request, params: Record<string, string>): Response | Promise<Response> {
  const ex = new Exchange(api, def, request, params);
  const a = answer(ex);
  return a instanceof Promise ? a.then((x) => respond(ex, x)) : respond(ex, a);
}

function respond(ex: Exchange, a: Answer): Response {
  const hooks = ex.api.hooks;
  if (!hooks.length) return jsonResponseOwningHeaders(a.status, a.body, a.headers); // built here for this answer alone
  const ms = performance.now() - ex.started;
  for (const h of hooks) h.answered?.(ex.info(), a, ms);
  // An answer a hook gave (a fault) may be given again: its headers are not ours to change.
  return ex.given ? jsonResponse(a.status, a.body, a.headers) : jsonResponseOwningHeaders(a.status, a.body, a.headers);
}

/** One bot API request on its way through the pipeline: what the handler sees, and what the pipeline keeps. */
class Exchange implements Req {
  bot!: AuthedBot;
  /** The rate-limit state the answer reports, once known. */
  state: BucketState | undefined = undefined;
  readonly started = performance.now();
  private parsed: unknown = undefined;
  private read: Promise<unknown> | undefined = undefined;
  private length: number | null = null;
  private q: URLSearchParams | undefined = undefined;
  private reason: string | null | undefined = undefined;
  private hookView: RequestInfo | null = null;
  /** The answer is a hook's (a fault), not made for this request alone. */
  given = false;

  constructor(
    readonly api: BotApi,
    readonly def: RouteDef,
    readonly request: Request,
    readonly params: Record<string, string>,
  ) {}

  get method(): Method {
    return this.def.method;
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

  json(): Promise<unknown> {
    return (this.read ??= readJson(this.request, (n) => (this.length = n)).then((v) => (this.parsed = v)));
  }

  bodyLength(): number | null {
    return this.length;
  }

  async body<T extends TSchema>(schema: T): Promise<Static<T>> {
    return validate(schema, await this.json());
  }

  /** The request as hooks see it (made on first use: only when there are hooks). */
  info(): RequestInfo {
    if (!this.hookView) {
      const ex = this;
      this.hookView = {
        method: this.def.method,
        template: this.def.path,
        params: this.params,
        appId: null,
        botUserId: null,
        body: () => ex.parsed,
        read: () => ex.json().catch(() => undefined),
      };
    }
    if (this.bot) {
      this.hookView.appId = this.bot.app.id;
      this.hookView.botUserId = this.bot.botUserId;
    }
    return this.hookView;
  }

  /** An error as the answer, with the rate-limit headers once they are known. */
  failed(e: unknown): Answer {
    const { status, body, headers } = errorToStatusBody(e);
    return { status, body, headers: this.state ? { ...rateLimitHeaders(this.state, this.api.core.clock.now()), ...headers } : { ...headers } };
  }
}

function answer(ex: Exchange): Answer | Promise<Answer> {
  const { api, def } = ex;
  try {
    if (def.auth !== "none") {
      const bot = authenticate(api, ex.request.headers.get("authorization"));
      if (bot) ex.bot = bot;
      else if (def.auth === "bot") {
        ex.state = api.limiter.peek(def.method, def.limitAs ?? def.path, `anon|${firstParam(def.path, ex.params)}`);
        throw DomainError.unauthorized();
      }
    }
    const instead = api.hooks.length ? intercepted(api.hooks, ex.info(), 0) : null;
    const take = (a: Answer | null) => (a ? ((ex.given = true), a) : limitAndHandle(ex));
    const out = instead instanceof Promise ? instead.then(take) : take(instead);
    return out instanceof Promise ? out.catch((e) => ex.failed(e)) : out;
  } catch (e) {
    return ex.failed(e);
  }
}

/** The first answer a hook gives instead (a fault), after any delay it awaits; each hook in turn. */
function intercepted(hooks: RequestHooks[], info: RequestInfo, from: number): Answer | null | Promise<Answer | null> {
  for (let i = from; i < hooks.length; i++) {
    const r = hooks[i].intercept?.(info);
    if (r instanceof Promise) return r.then((a) => a ?? intercepted(hooks, info, i + 1));
    if (r) return r;
  }
  return null;
}

function limitAndHandle(ex: Exchange): Answer | Promise<Answer> {
  const { api, def } = ex;
  const bot = ex.bot ?? null;
  const major = firstParam(def.path, ex.params);
  const limited = def.limitAs ?? def.path;
  if (!bot && !major) {
    // Spec 8.1 rule 3: no bot token and no major parameter: not bucketed.
    ex.state = api.limiter.peek(def.method, limited, `anon|${major}`);
  } else {
    const verdict = api.limiter.take(def.method, limited, `${bot?.botUserId ?? "anon"}|${major}`, bot !== null);
    ex.state = verdict.state;
    // The refusal's own instant, not a fresh clock read: detritus rejects a bucket 429
    // whose X-RateLimit-Reset-After differs from the body's retry_after by a millisecond.
    if (!verdict.ok) return tooMany(verdict.global, verdict.retryAfterMs, verdict.state, verdict.now);
  }
  // Group commit (src/store/db.ts): the handler's writes share one commit with the
  // other requests of this turn, and nothing is answered before that commit, so an
  // acknowledged write is durable and no answer shows rows that could still roll back.
  const reply = api.core.batched(() => def.handler(ex));
  return reply instanceof Promise ? reply.then((r) => replied(ex, r)) : replied(ex, reply);
}

function replied(ex: Exchange, r: Reply): Answer {
  const limits = rateLimitHeaders(ex.state!, ex.api.core.clock.now());
  return { status: r.status, body: r.body, headers: r.headers ? Object.assign(limits, r.headers) : limits };
}

function tooMany(global: boolean, retryAfterMs: number, state: BucketState, now: number): Answer {
  const { status, body, headers } = rateLimitedAnswer({ retryAfterMs, global });
  return { status, body, headers: { ...rateLimitHeaders(state, now), ...headers } };
}

/**
 * The major parameter as the rate limits count it: digits by their value, so "0<id>"
 * and "<id>" share one window instead of each spelling opening a fresh one, and an id
 * that is not digits at all (it names nothing) one window for all such junk.
 */
function firstParam(template: string, params: Record<string, string>): string {
  let name = firstParamNames.get(template);
  if (name === undefined) firstParamNames.set(template, (name = /\{(\w+)\}/.exec(template)?.[1] ?? null));
  if (!name) return "";
  const v = params[name] ?? "";
  if (SNOWFLAKE.test(v)) return v;
  if (/^[0-9]+$/.test(v)) return v.replace(/^0+(?=[0-9])/, "");
  return name.endsWith("_id") ? "?" : v;
}

/** Each template's first parameter (the rate limits' major one), found once per template. */
const firstParamNames = new Map<string, string | null>();

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The spec's answer to every path or method Parley does not implement. The hooks see it
 * as the route "/*" with the path asked and the application of the bot token it carried,
 * if any (its transcript records it, its log line names it); its body is never read.
 */
export function notImplemented(api: BotApi, request: Request): Response {
  const started = performance.now();
  const now = api.core.clock.now();
  const state = api.limiter.peek("GET", "/*", "anon|");
  const a: Answer = { status: 501, body: { code: 0, message: "501: Not Implemented. Parley does not implement this route." }, headers: rateLimitHeaders(state, now) };
  if (api.hooks.length) {
    const bot = authenticate(api, request.headers.get("authorization"));
    const path = new URL(request.url).pathname.slice("/api/v10".length) || "/";
    const info: RequestInfo = { method: request.method, template: "/*", path, params: {}, appId: bot?.app.id ?? null, botUserId: bot?.botUserId ?? null, body: () => undefined, read: () => Promise.resolve(undefined) };
    const ms = performance.now() - started;
    for (const h of api.hooks) h.answered?.(info, a, ms);
  }
  return jsonResponse(a.status, a.body, a.headers);
}
