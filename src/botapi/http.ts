/**
 * The bot API's door to the one pipeline (wire/pipeline.ts): how a bot is authenticated
 * (its token), limited (the spec's buckets, 8.1) and answered (the rate-limit headers on
 * every answer, errors included, and an exact `application/json` content type), and
 * the declaration helper its route areas use.
 */
import { type Application, sha256Hex } from "../core";
import type { BotApi } from "./context";
import { errorToStatusBody, rateLimitedAnswer } from "../wire/errors";
import { jsonResponse, jsonResponseOwningHeaders } from "../wire/http";
import { jsonAnswerHeaders, rateLimitHeaders, type Bucket, type BucketState, type Verdict } from "./ratelimit";
import { SNOWFLAKE } from "../wire/snowflakes";
import { routes, type Call, type CallerKind, type Reply, type Route } from "../wire/route";
import { unmatched, type Door, type Exchange } from "../wire/pipeline";
import type { Answer } from "../wire/hooks";

export { ok, noContent, type Reply, type Method } from "../wire/route";

export interface AuthedBot {
  app: Application;
  botUserId: string;
  /** The grant baked into the token used (REST content gating uses these, spec 5.7). */
  intents: number;
}

/** Who each caller kind names on the bot API. */
export interface BotCallers {
  bot: AuthedBot;
  any: AuthedBot | null;
  token: null;
  none: null;
}

/** A bot API request as handlers see it: `ctx` is the bot API's context, `caller` the bot. */
export type Req<Body = unknown> = Call<BotApi, AuthedBot, Body>;

/** A request whose path carries the credential ("token"), or any caller at all. */
export type TokenReq<Body = unknown> = Call<BotApi, AuthedBot | null, Body>;

/** Declares one bot API route (wire/route.ts): its handler answers a Reply. */
export const route = routes<BotApi, BotCallers, Reply>();

export type BotRoute = Route<BotApi>;

/** The largest body the bot API reads: a whole message payload is 32 KB (spec 8.2); room for the other bodies. */
export const BOT_BODY_LIMIT = 64 * 1024;

function authenticate(api: BotApi, header: string | null): AuthedBot | null {
  const parsed = header ? api.tokens.read(header) : null;
  if (!parsed) return null;
  const app = api.core.apps.authenticate(parsed.botUserId, parsed.version, parsed.secret);
  if (!app) return null;
  // The token's intents less any privileged one revoked since it was minted (core/applications.ts).
  return { app, botUserId: app.bot_user_id, intents: api.core.apps.currentGrant(app) };
}

/**
 * What the bot API works out once per route: the bucket it counts against, on the
 * route's first request (a bucket's hash is a SHA-256; a hundred of them at start-up
 * cost the first answer about ten milliseconds).
 */
class Limits {
  private b: Bucket | null = null;

  constructor(
    private readonly limiter: BotApi["limiter"],
    private readonly method: string,
    private readonly template: string,
  ) {}

  get bucket(): Bucket {
    return (this.b ??= this.limiter.bucketOf(this.method, this.template));
  }
}

/**
 * The bot API's door. `groupCommit` (FastPaths.groupCommit) runs each handler inside the
 * group commit; off, each request's writes commit alone.
 */
export function botDoor(
  api: BotApi,
  o: {
    sync: boolean;
    groupCommit: boolean;
    screen: (r: Request) => Response | undefined;
    report(err: unknown, route: string): void;
    bodyLimit?: number;
  },
): Door<BotApi> {
  const { limiter } = api;
  const clock = api.core.clock;
  return {
    name: "bot",
    prefix: "/api/v10",
    ctx: api,
    bodyLimit: o.bodyLimit ?? BOT_BODY_LIMIT,
    screen: o.screen,
    report: o.report,
    hooks: api.hooks,
    sync: o.sync,
    batched: o.groupCommit ? (fn) => api.core.batched(fn) : null,
    compile: (r) => new Limits(limiter, r.method, r.limitAs ?? r.path),
    authenticate: (_kind: CallerKind, request) => authenticate(api, request.headers.get("authorization")),
    identify(info, caller) {
      const bot = caller as AuthedBot;
      info.appId = bot.app.id;
      info.botUserId = bot.botUserId;
    },
    unauthorized(x) {
      x.state = limiter.peek((x.c.extra as Limits).bucket, `anon|${major(x)}`);
    },
    limit(x) {
      const bot = x.caller as AuthedBot | null;
      const { bucket } = x.c.extra as Limits;
      const m = major(x);
      if (!bot && !m) {
        // Spec 8.1 rule 3: no bot token and no major parameter: not bucketed.
        x.state = limiter.peek(bucket, `anon|${m}`);
        return null;
      }
      const verdict = (api.shared ?? limiter).take(bucket, `${bot?.botUserId ?? "anon"}|${m}`, bot !== null);
      if (verdict instanceof Promise) return verdict.then((v) => decided(x, v));
      return decided(x, verdict);
    },
    present(x, result) {
      const r = result as Reply;
      const state = x.state as BucketState;
      const limits =
        r.status !== 204 && r.body !== undefined ? jsonAnswerHeaders(state, clock.now()) : rateLimitHeaders(state, clock.now());
      return { status: r.status, body: r.body, headers: r.headers ? Object.assign(limits, r.headers) : limits };
    },
    failed(x, e) {
      const { status, body, headers } = errorToStatusBody(e);
      const state = x?.state as BucketState | undefined;
      return { status, body, headers: state ? { ...rateLimitHeaders(state, clock.now()), ...headers } : { ...headers } };
    },
    respond(x, a) {
      // Headers made for this answer alone are set in place; an answer a hook gave (a
      // fault) may be given again: its headers are not ours to change.
      return x && !x.given ? jsonResponseOwningHeaders(a.status, a.body, a.headers) : jsonResponse(a.status, a.body, a.headers);
    },
  };
}

/**
 * The major parameter as the rate limits count it: digits by their value, so "0<id>"
 * and "<id>" share one window instead of each spelling opening a fresh one, and an id
 * that is not digits at all (it names nothing) one window for all such junk.
 *
 * A webhook-token route counts its id and token together, as the reference does
 * (reference-gaps 7.1): a webhook's id is public and a follow-up's path names the
 * application, so by the id alone wrong tokens would spend the real one's window, and
 * a bot's follow-ups to different interactions would share one.
 */
function major(x: Exchange<BotApi>): string {
  const name = x.c.major;
  if (!name) return "";
  const v = x.params[name] ?? "";
  const id = SNOWFLAKE.test(v) ? v : /^[0-9]+$/.test(v) ? v.replace(/^0+(?=[0-9])/, "") : name.endsWith("_id") ? "?" : v;
  const token = x.params.webhook_token;
  // The token is a secret: windows (in Redis too, with --redis) are keyed by a digest of it.
  return token === undefined ? id : `${id}/${sha256Hex(token).slice(0, 24)}`;
}

/** A request's verdict as its answer: null to go on, or the 429 (its headers' state kept on x either way). */
function decided(x: { state?: unknown }, verdict: Verdict): Answer | null {
  x.state = verdict.state;
  // The refusal's own instant, not a fresh clock read: detritus rejects a bucket 429
  // whose X-RateLimit-Reset-After differs from the body's retry_after by a millisecond.
  return verdict.ok ? null : tooMany(verdict.global, verdict.retryAfterMs, verdict.state, verdict.now);
}

function tooMany(global: boolean, retryAfterMs: number, state: BucketState, now: number): Answer {
  const { status, body, headers } = rateLimitedAnswer({ retryAfterMs, global });
  return { status, body, headers: { ...rateLimitHeaders(state, now), ...headers } };
}

/**
 * The spec's answer to every path or method Parley does not implement. The hooks see it
 * as the route "/*" with the path asked and the application of the bot token it carried,
 * if any (its transcript records it, its log line names it); its body is never read.
 */
export function notImplemented(door: Door<BotApi>, request: Request): Response {
  const started = performance.now();
  const api = door.ctx;
  const now = api.core.clock.now();
  const state = api.limiter.peek(api.limiter.bucketOf("GET", "/*"), "anon|");
  const a: Answer = {
    status: 501,
    body: { code: 0, message: "501: Not Implemented. Parley does not implement this route." },
    headers: rateLimitHeaders(state, now),
  };
  const hooked = door.hooks.length > 0;
  const caller = hooked ? authenticate(api, request.headers.get("authorization")) : null;
  const path = hooked ? new URL(request.url).pathname.slice(door.prefix.length) || "/" : undefined;
  return unmatched(door as Door<unknown>, request, a, { template: "/*", path, caller, started });
}
