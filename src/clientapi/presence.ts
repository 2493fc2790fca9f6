/** A person's presence: online, idle, dnd or offline (fires presence.updated). */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { route, type PeopleRoute } from "./http";
import { PRESENCES } from "../core/users";

export const SetPresence = Type.Object(
  { status: Type.Union(PRESENCES.map((s) => Type.Literal(s))) },
  { additionalProperties: false },
);

export function presenceRoutes(p: ClientContext): PeopleRoute[] {
  return [
    route({
      method: "PUT",
      path: "/users/@me/presence",
      caller: "session",
      summary: "Set one's presence",
      body: SetPresence,
      handler: ({ caller: { user: me }, body }) => {
        const b = body();
        p.core.users.setPresence(me.id, b.status);
        return { status: b.status };
      },
    }),
  ];
}
