/**
 * A new instance's first administrator, from the browser (core/setup-link.ts): the page
 * at the link `parley serve` prints asks whether the link works, then either creates an
 * administrator's account or makes the signed-in person one. Guessing links is throttled
 * as guessing passwords is: per address.
 */
import type { ClientContext } from "./context";
import { SetUpAdministrator, UseSetupLink } from "../contract";
import * as C from "../contract";
import { route, type PeopleRoute } from "./http";
import { meView } from "./views";
import { sessionLabel } from "./sessions";
import { attempt, tooManyRequests } from "./limits";
import { clientAddress } from "../wire/throttle";

export function setupRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  /** Counts an attempt from the request's address; a wait (429) when there were too many. */
  const throttled = async (request: Request) => {
    const wait = await attempt([p.limits.signInByAddress, clientAddress(request)]);
    return wait > 0 ? tooManyRequests(wait) : null;
  };
  /** A link that worked costs its address nothing. */
  const worked = (request: Request) => p.limits.signInByAddress.refund(clientAddress(request));
  return [
    route({
      method: "POST",
      path: "/auth/setup/check",
      caller: "none",
      summary: "Whether a setup link works now (404 once the server has an administrator)",
      answers: "empty",
      body: UseSetupLink,
      handler: async ({ body, request }) => {
        const refused = await throttled(request);
        if (refused) return refused;
        core.setup.check(body().token);
        await worked(request);
      },
    }),
    route({
      method: "POST",
      path: "/auth/setup",
      caller: "none",
      summary: "With the setup link: a new account that administers the server, and a session",
      answer: C.SignedIn,
      body: SetUpAdministrator,
      handler: async ({ body, request }) => {
        const refused = await throttled(request);
        if (refused) return refused;
        const b = body();
        const { user, token } = await core.setup.createAdministrator(b.token, {
          username: b.username,
          password: b.password,
          globalName: b.global_name ?? null,
          label: sessionLabel(request.headers.get("user-agent")),
        });
        await worked(request);
        return { token, user: meView(user) };
      },
    }),
    route({
      method: "POST",
      path: "/users/@me/setup",
      caller: "session",
      summary: "With the setup link: the signed-in person administers the server",
      answer: C.Me,
      body: UseSetupLink,
      handler: async ({ caller: { user: me }, body, request }) => {
        const refused = await throttled(request);
        if (refused) return refused;
        const user = core.setup.promote(body().token, me.id);
        await worked(request);
        return meView(user);
      },
    }),
  ];
}
