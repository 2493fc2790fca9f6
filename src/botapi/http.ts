/**
 * The bot API's request pipeline: every route goes through run(), which authenticates,
 * applies rate limits, calls the (thin) handler, and maps errors, always answering
 * with the spec's rate-limit headers and an exact `application/json` content type.
 */
import type { ApplicationRow } from "../core/types";
import { DomainError } from "../core/errors";
import type { BotApi } from "./context";
import { errorToStatusBody, rateLimitedAnswer } from "../wire/errors";
import { jsonResponse } from "../wire/http";
import { parseRequestJson } from "../wire/json";
import { readBodyText } from "../wire/body";
import { rateLimitHeaders, type BucketState } from "./ratelimit";
import { parseBotAuthorization } from "../wire/tokens";
import { validate } from "../wire/validation";
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
  /** "bot": Authorization: Bot <token> required. "none": the path carries the credential or none is needed. */
  auth: "bot" | "none";
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
  return { app, botUserId: app.bot_user_id, intents: app.token_intents };
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
 * which is most of what a cheap read costs.
 */
export function run(api: BotApi, def: RouteDef, request: Request, params: Record<string, string>): Response | Promise<Response> {
  const started = performance.now();
  let parsed: unknown;
  const info: RequestInfo = { method: def.method, template: def.path, params, appId: null, botUserId: null, body: () => parsed };
  const a = answer(api, def, request, info, (v) => (parsed = v));
  return a instanceof Promise ? a.then((x) => respond(api, info, x, started)) : respond(api, info, a, started);
}

function respond(api: BotApi, info: RequestInfo, a: Answer, started: number): Response {
  if (api.hooks.length) {
    const ms = performance.now() - started;
    for (const h of api.hooks) h.answered?.(info, a, ms);
  }
  return jsonResponse(a.status, a.body, a.headers);
}

/** The rate-limit state a request's answer reports, once known. */
interface Limits {
  state?: BucketState;
}

function answer(api: BotApi, def: RouteDef, request: Request, info: RequestInfo, keep: (body: unknown) => void): Answer | Promise<Answer> {
  const rl: Limits = {};
  const failed = (e: unknown): Answer => {
    const { status, body, headers } = errorToStatusBody(e);
    return { status, body, headers: rl.state ? { ...rateLimitHeaders(rl.state, api.core.clock.now()), ...headers } : { ...headers } };
  };
  try {
    let bot: AuthedBot | null = null;
    if (def.auth === "bot") {
      bot = authenticate(api, request.headers.get("authorization"));
      if (!bot) {
        rl.state = api.limiter.peek(def.method, def.path, `anon|${firstParam(def.path, info.params)}`);
        throw DomainError.unauthorized();
      }
      info.appId = bot.app.id;
      info.botUserId = bot.botUserId;
    }
    const instead = intercepted(api.hooks, info, 0);
    const out =
      instead instanceof Promise
        ? instead.then((a) => a ?? limitAndHandle(api, def, request, info, keep, bot, rl))
        : (instead ?? limitAndHandle(api, def, request, info, keep, bot, rl));
    return out instanceof Promise ? out.catch(failed) : out;
  } catch (e) {
    return failed(e);
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

function limitAndHandle(
  api: BotApi,
  def: RouteDef,
  request: Request,
  info: RequestInfo,
  keep: (body: unknown) => void,
  bot: AuthedBot | null,
  rl: Limits,
): Answer | Promise<Answer> {
  const clock = api.core.clock;
  const major = firstParam(def.path, info.params);
  if (!bot && !major) {
    // Spec 8.1 rule 3: no bot token and no major parameter: not bucketed.
    rl.state = api.limiter.peek(def.method, def.path, `anon|${major}`);
  } else {
    const verdict = api.limiter.take(def.method, def.path, `${bot?.botUserId ?? "anon"}|${major}`, bot !== null);
    rl.state = verdict.state;
    if (!verdict.ok) return tooMany(verdict.global, verdict.retryAfterMs, verdict.state, clock.now());
  }
  const state = rl.state;

  let bodyPromise: Promise<unknown> | undefined;
  let bodyLength: number | null = null;
  const json = () => (bodyPromise ??= readJson(request, (n) => (bodyLength = n)).then((v) => (keep(v), v)));
  let query: URLSearchParams | undefined;
  let reason: string | null | undefined;
  const req: Req = {
    api,
    method: def.method,
    params: info.params,
    // Parsed on first use: most writes never look at the query string.
    get query() {
      return (query ??= new URL(request.url).searchParams);
    },
    headers: request.headers,
    bot: bot as AuthedBot,
    // Read on first use, as the query: reads never look at it.
    get auditReason() {
      if (reason === undefined) {
        const raw = request.headers.get("x-audit-log-reason");
        reason = raw ? safeDecode(raw).slice(0, 512) : null;
      }
      return reason;
    },
    json,
    bodyLength: () => bodyLength,
    body: async (schema) => validate(schema, await json()),
  };
  // Group commit (src/store/db.ts): the handler's writes share one commit with the
  // other requests of this turn, and nothing is answered before that commit, so an
  // acknowledged write is durable and no answer shows rows that could still roll back.
  const reply = api.core.batched(() => def.handler(req));
  const done = (r: Reply): Answer => {
    const limits = rateLimitHeaders(state, clock.now());
    return { status: r.status, body: r.body, headers: r.headers ? { ...limits, ...r.headers } : limits };
  };
  return reply instanceof Promise ? reply.then(done) : done(reply);
}

function tooMany(global: boolean, retryAfterMs: number, state: BucketState, now: number): Answer {
  const { status, body, headers } = rateLimitedAnswer({ retryAfterMs, global });
  return { status, body, headers: { ...rateLimitHeaders(state, now), ...headers } };
}

function firstParam(template: string, params: Record<string, string>): string {
  let name = firstParamNames.get(template);
  if (name === undefined) firstParamNames.set(template, (name = /\{(\w+)\}/.exec(template)?.[1] ?? null));
  return name ? (params[name] ?? "") : "";
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

/** The spec's answer to every path or method Parley does not implement. */
export function notImplemented(api: BotApi): Response {
  const now = api.core.clock.now();
  const state = api.limiter.peek("GET", "/*", "anon|");
  return jsonResponse(501, { code: 0, message: "501: Not Implemented. Parley does not implement this route." }, rateLimitHeaders(state, now));
}
