/** A person's presence: online, idle, dnd or offline (fires presence.updated). */
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { person } from "./http";
import { PRESENCES } from "../core/users";

export const SetPresence = Type.Object(
  { status: Type.Union(PRESENCES.map((s) => Type.Literal(s))) },
  { additionalProperties: false },
);

export function presenceRoutes(p: ClientContext) {
  return new Elysia().put(
    "/users/@me/presence",
    person(p, async ({ me, body }) => {
      const b = await body(SetPresence);
      p.core.users.setPresence(me.id, b.status);
      return { status: b.status };
    }),
  );
}
