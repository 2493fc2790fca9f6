/** A person's presence: online, idle, dnd or offline (fires presence.updated). */
import type { ClientContext } from "./context";
import { SetPresence } from "../contract";
import * as C from "../contract";
import { route, type PeopleRoute } from "./http";

export function presenceRoutes(p: ClientContext): PeopleRoute[] {
  return [
    route({
      method: "PUT",
      path: "/users/@me/presence",
      caller: "session",
      summary: "Set one's presence",
      answer: C.PresenceSet,
      body: SetPresence,
      handler: ({ caller: { user: me }, body }) => {
        const b = body();
        p.core.users.setPresence(me.id, b.status);
        return { status: b.status };
      },
    }),
  ];
}
