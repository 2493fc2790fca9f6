/**
 * The people's API's door to the one pipeline (/api/client/v1): our own JSON with
 * internal ids, session tokens in `Authorization: Session <token>` (hashed at rest), one
 * window per person for every write, and the same error body as the bot API through the
 * one error mapping.
 */
import type { ClientContext } from "./context";
import { DomainError, type Session, type User } from "../core";
import { routes, type Call, type Route } from "../wire/route";
import type { Door } from "../wire/pipeline";
import type { Answer, RequestHooks } from "../wire/hooks";
import { jsonDoor } from "../wire/json-door";
import { rateLimitedAnswer } from "../wire/errors";

/** A signed-in person: who, and the session this request came with (core/sessions.ts). */
export interface Person {
  user: User;
  session: Session;
}

/** Who each caller kind names on the people's API. */
export interface PeopleCallers {
  session: Person;
  none: null;
}

/** A people's API request as its handler sees it (a signed-in person's). */
export type PersonCall<Body = unknown> = Call<ClientContext, Person, Body>;

/** Declares one people's API route (wire/route.ts): its handler answers a value (200), nothing (204) or a Response. */
export const route = routes<ClientContext, PeopleCallers, unknown>();

export type PeopleRoute = Route<ClientContext>;

/** The largest body the people's API reads. */
export const PEOPLE_BODY_LIMIT = 64 * 1024;

const SESSION = /^Session\s+(\S+)$/i;

/** The people's API's door: `prefix` is /api/client/v1, or /api/media/v1 for the image proxy. */
export function peopleDoor(
  p: ClientContext,
  o: {
    prefix: string;
    screen(r: Request): Response | undefined;
    hooks: RequestHooks[];
    sync: boolean;
    report(err: unknown, route: string): void;
  },
): Door<ClientContext> {
  return jsonDoor({
    name: "people",
    prefix: o.prefix,
    ctx: p,
    bodyLimit: PEOPLE_BODY_LIMIT,
    screen: o.screen,
    hooks: o.hooks,
    sync: o.sync,
    report: o.report,
    authenticate(_kind, request) {
      const m = SESSION.exec(request.headers.get("authorization") ?? "");
      const signedIn = m ? p.core.sessions.authenticate(m[1]) : null;
      return signedIn ? { user: signedIn.user, session: signedIn.session } : null;
    },
    identify(info, caller) {
      info.personId = (caller as Person).user.id;
    },
    limit(x) {
      // One window per person for every write, whatever the route, and one apart for what
      // the page writes by itself (limits.ts).
      const who = x.caller as Person | null;
      if (!who || x.method === "GET") return null;
      const wait = (x.c.route.window === "background" ? p.limits.background : p.limits.writes).take(who.user.id);
      // Counted in Redis when nodes share the windows: the answer comes later.
      return typeof wait === "number" ? refusal(wait) : wait.then(refusal);
    },
  });
}

/** The spec's 429 for a full window, or null. */
function refusal(wait: number): Answer | null {
  if (wait <= 0) return null;
  const { status, body, headers } = rateLimitedAnswer({ retryAfterMs: wait, global: false });
  return { status, body, headers: headers ?? {} };
}

const PERSON_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A path id: internal UUIDs only; anything else is simply unknown. */
export function pathId(value: string | undefined, what: string): string {
  if (!value || !PERSON_ID.test(value)) throw DomainError.notFound(what);
  return value;
}
