/**
 * A person's own sessions (docs/people-api.md "Sessions"): the list with what signed in
 * and when each was last used, revoke one, sign out everywhere, and a password change,
 * which needs the current password and ends every other session. Ending a session
 * closes its live connections, whichever process ended it (core/sessions.ts).
 */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { ChangePassword } from "../contract";
import * as C from "../contract";
import { DomainError, type Session } from "../core";
import { pathId, route, type PeopleRoute } from "./http";
import { attempt, tooManyRequests } from "./limits";
import { isoUtc } from "../wire/time";

/**
 * What signed in, as the session list shows it: the browser and system a User-Agent
 * names ("Chromium on Linux", as the web client names its device), the program
 * otherwise ("curl"), or "Unknown client". A label, not a proof: a client names itself.
 */
export function sessionLabel(ua: string | null): string {
  if (!ua) return "Unknown client";
  const browser = /Firefox\//.test(ua)
    ? "Firefox"
    : /Edg\//.test(ua)
      ? "Edge"
      : /Chrom(e|ium)\//.test(ua)
        ? "Chromium"
        : /Safari\//.test(ua)
          ? "Safari"
          : null;
  const os = /Windows/.test(ua)
    ? "Windows"
    : /Android/.test(ua)
      ? "Android"
      : /iPhone|iPad/.test(ua)
        ? "iOS"
        : /Mac OS X/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : null;
  if (browser) return os ? `${browser} on ${os}` : browser;
  const program = /^([A-Za-z][\w.-]{0,31})\//.exec(ua)?.[1];
  return program && program !== "Mozilla" ? program : "Unknown client";
}

export function sessionView(s: Session, current: Session, expiresAt: number) {
  return {
    id: s.id,
    label: s.label || "Unknown client",
    created_at: isoUtc(s.created_at),
    last_used_at: isoUtc(s.last_used_at),
    expires_at: isoUtc(expiresAt),
    current: s.id === current.id,
  };
}

export function sessionRoutes(p: ClientContext): PeopleRoute[] {
  const sessions = p.core.sessions;
  return [
    route({
      method: "GET",
      path: "/users/@me/sessions",
      caller: "session",
      summary: "One's sessions: what signed in, when each was last used and expires, which one is this",
      answer: Type.Array(C.Session),
      handler: ({ caller: { user: me, session } }) => sessions.list(me.id).map((s) => sessionView(s, session, sessions.expiresAt(s))),
    }),
    route({
      method: "DELETE",
      path: "/users/@me/sessions",
      caller: "session",
      summary: "Sign out everywhere: end every session of one's own, this one included",
      answers: "empty",
      handler: ({ caller: { user: me } }) => {
        sessions.endAll(me.id, "signed_out_everywhere");
      },
    }),
    route({
      method: "DELETE",
      path: "/users/@me/sessions/{session_id}",
      caller: "session",
      summary: "End one of one's sessions",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        sessions.end(me.id, pathId(params.session_id, "session"), "revoked");
      },
    }),
    route({
      method: "POST",
      path: "/users/@me/password",
      caller: "session",
      summary: "Change one's password (the current one first); every other session ends",
      answers: "empty",
      body: ChangePassword,
      handler: async ({ caller: { user: me, session }, body }) => {
        const b = body();
        // Guessing the current password from a stolen session is as slow as guessing it at sign-in.
        const name = me.username.toLowerCase();
        const wait = await attempt([p.limits.signInByName, name]);
        if (wait > 0) return tooManyRequests(wait);
        try {
          await p.core.users.changePassword(me.id, session.id, b.current_password, b.new_password);
        } catch (e) {
          // Only a wrong current password counts as a guess; past it, the password was known.
          if (!(e instanceof DomainError && e.issues[0]?.path === "current_password")) await p.limits.signInByName.clear(name);
          throw e;
        }
        await p.limits.signInByName.clear(name);
      },
    }),
  ];
}
