/**
 * The people's API plumbing (/api/client/v1): our own JSON with internal ids, session
 * tokens in `Authorization: Session <token>` (hashed at rest), and the same error body
 * as the bot API through the one error mapping.
 */
import type { TSchema, Static } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import type { UserRow } from "../core/types";
import type { SessionRow } from "../core/sessions";
import { DomainError } from "../core/errors";
import { answerJson, errorResponse } from "../wire/http";
import { readBody } from "../wire/validation";
import { tooManyRequests } from "./limits";

export interface PersonCtx {
  p: ClientContext;
  me: UserRow;
  /** The session this request came with (core/sessions.ts). */
  session: SessionRow;
  params: Record<string, string>;
  query: URLSearchParams;
  body<T extends TSchema>(schema: T): Promise<Static<T>>;
}

export interface AnonCtx extends Omit<PersonCtx, "me" | "session"> {
  request: Request;
}

function parse<T extends TSchema>(request: Request, schema: T): Promise<Static<T>> {
  return readBody(request, schema);
}

/** A people's API handler for a signed-in person. */
export function person(p: ClientContext, fn: (c: PersonCtx) => unknown | Promise<unknown>) {
  return async ({ request, params }: { request: Request; params: Record<string, string> }) => {
    try {
      const m = /^Session\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "");
      const signedIn = m ? p.core.sessions.authenticate(m[1]) : null;
      if (!signedIn) throw DomainError.unauthorized();
      const me = signedIn.user;
      // One window per person for every write, whatever the route (limits.ts).
      if (request.method !== "GET" && request.method !== "HEAD") {
        const wait = p.limits.writes.take(me.id);
        if (wait > 0) return tooManyRequests(wait);
      }
      const url = new URL(request.url);
      return answerJson(await fn({ p, me, session: signedIn.session, params, query: url.searchParams, body: (s) => parse(request, s) }));
    } catch (e) {
      return errorResponse(e);
    }
  };
}

/** A people's API handler that needs no session (sign-up, sign-in). */
export function anonymous(p: ClientContext, fn: (c: AnonCtx) => unknown | Promise<unknown>) {
  return async ({ request, params }: { request: Request; params: Record<string, string> }) => {
    try {
      const url = new URL(request.url);
      return answerJson(await fn({ p, request, params, query: url.searchParams, body: (s) => parse(request, s) }));
    } catch (e) {
      return errorResponse(e);
    }
  };
}

const PERSON_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A path id: internal UUIDs only; anything else is simply unknown. */
export function pathId(value: string | undefined, what: string): string {
  if (!value || !PERSON_ID.test(value)) throw DomainError.notFound(what);
  return value;
}
