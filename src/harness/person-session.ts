/**
 * A people's session for a seeded person (test mode only, like every harness route):
 * `POST /users/{user}/session` answers a token a test sends as `Authorization: Session
 * <token>`, so it can drive any people's API route (/api/client/v1) as that person, the
 * way the web client does, without signing in with a password. A disabled account gets
 * none, as it could not sign in.
 */
import type { HarnessContext } from "./context";
import type { Route } from "../wire/route";
import { DomainError } from "../core";
import { route } from "./http";
import { Lookup } from "./lookup";

export function harnessPersonSession(p: HarnessContext): Route<HarnessContext>[] {
  const look = new Lookup(p);
  return [
    route({
      method: "POST",
      path: "/users/{user}/session",
      caller: "harness",
      summary: "A people's API session token for a person (Authorization: Session <token>)",
      handler: ({ params }) => {
        const me = look.person(params.user);
        if (me.disabled_at !== null) throw DomainError.forbidden("This account is disabled");
        const { token } = p.core.sessions.open(me.id, "Test harness");
        // The people's API names everyone by internal id: the session's person too.
        return { token, user_id: me.id };
      },
    }),
  ];
}
