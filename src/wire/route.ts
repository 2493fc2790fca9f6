/**
 * One route declaration for every HTTP surface: what a route is (method, path), who may
 * call it, what body and query it takes, its rate-limit rule and a summary, beside its
 * handler. One pipeline runs every declaration (wire/pipeline.ts); the API description,
 * the bot API's rate-limit table and `bun scripts/routes.ts` are read off the same
 * declarations, so a route's facts live in one place.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import type { RateLimitRule } from "../config";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call a route, decided before anything else of the request is read:
 * - "bot": `Authorization: Bot <token>`, 401 without a valid one;
 * - "any": answered alike with or without a token (a refused route), but a valid bot
 *   token still names the application (its transcript, its log line, its limits);
 * - "session": a person's `Authorization: Session <token>`, 401 without a live one;
 * - "token": the path carries the credential (a webhook's or an interaction's token),
 *   which the handler checks through the core, in the order the spec answers in;
 * - "harness": test mode's harness (same-origin requests, no credential);
 * - "none": nobody needs to say who they are (sign-in, health, the image proxy).
 */
export type CallerKind = "bot" | "any" | "session" | "token" | "harness" | "none";

/** A handler's answer with its status and headers; the bot API's handlers answer these. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const noContent = (): Reply => ({ status: 204 });

/** One request as its handler sees it. */
export interface Call<Ctx, Caller, Body = unknown> {
  /** The door's narrow context (the bot API's services, the people's, ...). */
  readonly ctx: Ctx;
  /** Who called, as the route's caller kind says (null where it names nobody). */
  readonly caller: Caller;
  readonly method: Method;
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
  readonly headers: Headers;
  readonly request: Request;
  /** The decoded X-Audit-Log-Reason, if any (at most 512 characters). */
  readonly auditReason: string | null;
  /**
   * The body validated against the declared schema (400 code 50035 when it fails); with
   * `bodyOptional`, an empty body reads as `{}`. Checked once, when first asked (or before
   * the handler with `bodyAt: "first"`).
   */
  body(): Body;
  /** The body as parsed JSON, losslessly (undefined when empty); for validators of their own. */
  json(): unknown;
  /** The body's length (UTF-16 units) once read, else null. */
  bodyLength(): number | null;
}

/** Which callers each kind names, per door (e.g. the bot API's "bot" is an AuthedBot). */
export type Callers = Partial<Record<CallerKind, unknown>>;

type BodyOf<B> = B extends TSchema ? Static<B> : never;
/** A handler declaring its answer's schema answers that (or a Response it made whole). */
type AnswerOf<A, R> = A extends TSchema ? Static<A> | Response : R;

export interface RouteDecl<
  Ctx,
  C extends Callers,
  K extends keyof C & CallerKind,
  B extends TSchema | undefined,
  A extends TSchema | undefined,
  R,
> {
  method: Method;
  /** The path under the door's prefix, with `{name}` parameters: "/channels/{channel_id}/messages". */
  path: string;
  caller: K;
  /** One line for the API description and the route table of contents. */
  summary: string;
  /** The body's TypeBox schema: its type, its validator and its description. */
  body?: B;
  /**
   * "handler" (the default): validated when the handler asks (`body()`), after it has
   * resolved the path's ids: the spec answers an unknown channel 404 before a bad body
   * 400. "first": validated before the handler runs.
   */
  bodyAt?: "first" | "handler";
  /** An empty body is no body: `body()` reads it as `{}` (PUT .../bans, PATCH .../members). */
  bodyOptional?: boolean;
  /**
   * The query parameters the route reads, for the description. Handlers parse them with
   * the spec's own per-parameter messages (botapi/routes/ids.ts), so they are not checked
   * here a second time.
   */
  query?: TSchema;
  /** The bot API's bucket rule (spec 8.1); without one, the configured default. */
  limit?: RateLimitRule;
  /** The template whose bucket this alias counts against (one window for both). */
  limitAs?: string;
  /** The people's API: a write the page makes by itself (read marks, typing) counts in its own window, not the person's. */
  window?: "background";
  /** What a success answers, when one shape is sure (the description); else JSON or 204. */
  answers?: "json" | "empty" | "text" | "image";
  /** The success's JSON schema (the people's API contract): its description, and its handler's type. */
  answer?: A;
  handler(x: Call<Ctx, C[K], BodyOf<B>>): AnswerOf<A, R> | Promise<AnswerOf<A, R>>;
}

/** A declaration with its types erased, as doors keep them in tables. */
export interface Route<Ctx = any> {
  method: Method;
  path: string;
  caller: CallerKind;
  summary: string;
  body?: TSchema;
  bodyAt?: "first" | "handler";
  bodyOptional?: boolean;
  query?: TSchema;
  limit?: RateLimitRule;
  limitAs?: string;
  window?: "background";
  answers?: "json" | "empty" | "text" | "image";
  answer?: TSchema;
  handler(x: Call<Ctx, any, any>): unknown;
}

/**
 * A door's declaration helper: `const route = routes<BotApi, BotCallers, Reply>()`, then
 * `route({ method, path, caller: "bot", ... handler })` with the caller and body typed.
 */
export function routes<Ctx, C extends Callers, R>() {
  return <K extends keyof C & CallerKind, B extends TSchema | undefined = undefined, A extends TSchema | undefined = undefined>(
    d: RouteDecl<Ctx, C, K, B, A, R>,
  ): Route<Ctx> => d as unknown as Route<Ctx>;
}

/** "METHOD /template": how rate-limit overrides and the description name a route. */
export const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/** Elysia's and Bun's path ("/channels/:channel_id") for a template ("/channels/{channel_id}"). */
export const routerPath = (prefix: string, template: string) => prefix + template.replace(/\{(\w+)\}/g, ":$1");
