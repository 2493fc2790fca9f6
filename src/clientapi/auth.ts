/** Sign up, sign in, sign out, and who am I. Bot users can never sign in (spec 5.12); the session list is sessions.ts. */
import type { ClientContext } from "./context";
import { SignIn, SignOut, SignUp } from "../contract";
import * as C from "../contract";
import { route, type PeopleRoute } from "./http";
import { meView } from "./views";
import { attempt, tooManyRequests } from "./limits";
import { clientAddress } from "../wire/throttle";
import { sessionLabel } from "./sessions";

export function authRoutes(p: ClientContext): PeopleRoute[] {
  return [
    route({
      method: "POST",
      path: "/auth/signup",
      caller: "none",
      summary: "Sign up (a new person and a session)",
      answer: C.SignedIn,
      body: SignUp,
      handler: async ({ body, request }) => {
        const b = body();
        const address = clientAddress(request);
        const wait = await attempt([p.limits.signUpByAddress, address]);
        if (wait > 0) return tooManyRequests(wait);
        const label = sessionLabel(request.headers.get("user-agent"));
        const { user, token } = await p.core.users.signUp({
          username: b.username,
          password: b.password,
          globalName: b.global_name ?? null,
          label,
          invite: b.invite ?? null,
        });
        return { token, user: meView(user) };
      },
    }),
    route({
      method: "POST",
      path: "/auth/signin",
      caller: "none",
      summary: "Sign in",
      answer: C.SignedIn,
      body: SignIn,
      handler: async ({ body, request }) => {
        const b = body();
        // Attempts count when they start, so concurrent guesses count too; success clears its name.
        const name = b.username.toLowerCase();
        const address = clientAddress(request);
        const { signInByName, signInByAddress } = p.limits;
        const wait = await attempt([signInByName, name], [signInByAddress, address]);
        if (wait > 0) return tooManyRequests(wait);
        const { token, user } = await p.core.users.signIn(b.username, b.password, sessionLabel(request.headers.get("user-agent")));
        await Promise.all([signInByName.clear(name), signInByAddress.refund(address)]);
        return { token, user: meView(user) };
      },
    }),
    route({
      method: "POST",
      path: "/auth/signout",
      caller: "session",
      summary: "End this session; with remove_device, also remove the device this browser holds",
      answers: "empty",
      body: SignOut,
      bodyOptional: true,
      handler: ({ caller: { user: me, session }, body }) => {
        p.core.devices.signOut(me.id, session, body().remove_device === true);
      },
    }),
    route({
      method: "GET",
      path: "/users/@me",
      caller: "session",
      summary: "The signed-in person",
      answer: C.Me,
      handler: ({ caller: { user: me } }) => meView(me),
    }),
  ];
}
