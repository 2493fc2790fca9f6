/**
 * A door for our own JSON APIs (the people's API, the operator's routes): a handler
 * returns the value to answer (200), nothing (204), or a Response it made whole (an
 * image, a page, metrics text); errors are the spec's body through the one mapping.
 * The bot API's door (botapi/http.ts) answers in the reference's dialect instead.
 */
import type { CallerKind } from "./route";
import type { Answer, RequestHooks, RequestInfo } from "./hooks";
import type { Door, Exchange } from "./pipeline";
import { errorToStatusBody } from "./errors";
import { jsonResponse } from "./http";

export interface JsonDoorSetup<Ctx> {
  name: RequestInfo["surface"];
  prefix: string;
  ctx: Ctx;
  bodyLimit: number;
  screen(request: Request): Response | undefined;
  hooks: RequestHooks[];
  sync: boolean;
  /** Who a credential names (a person's session); doors without credentials leave it out. */
  authenticate?(kind: CallerKind, request: Request): unknown;
  identify?(info: RequestInfo, caller: unknown): void;
  /** Limits before the handler (a person's writes): a refusal, or null. */
  limit?(x: Exchange<Ctx>): Answer | null | Promise<Answer | null>;
  report(err: unknown, route: string): void;
}

export function jsonDoor<Ctx>(s: JsonDoorSetup<Ctx>): Door<Ctx> {
  return {
    name: s.name,
    prefix: s.prefix,
    ctx: s.ctx,
    bodyLimit: s.bodyLimit,
    screen: s.screen,
    hooks: s.hooks,
    sync: s.sync,
    batched: null,
    authenticate: s.authenticate ?? (() => null),
    identify: s.identify ?? (() => {}),
    limit: s.limit ?? (() => null),
    report: s.report,
    present: (_x, result) => presented(result),
    failed(_x, e) {
      const { status, body, headers } = errorToStatusBody(e);
      return { status, body, headers: { ...headers } };
    },
    respond: (_x, a) => a.raw ?? jsonResponse(a.status, a.body, a.headers),
  };
}

/** A handler's value as the answer: undefined is 204, a Response is passed on as it is. */
export function presented(result: unknown): Answer {
  if (result instanceof Response) return { status: result.status, headers: {}, raw: result };
  if (result === undefined) return { status: 204, headers: {} };
  return { status: 200, body: result, headers: {} };
}
