/** Direct messages: list and open DM channels (messages go through messages.ts). */
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { person } from "./http";
import { channelView } from "./views";
import { Uuid } from "./schemas";

export const OpenDm = Type.Object({ recipient_id: Uuid }, { additionalProperties: false });

export function dmRoutes(p: ClientContext) {
  const core = p.core;
  return new Elysia()
    .get(
      "/users/@me/dms",
      person(p, ({ me }) => core.people.dms(me.id).map((c) => channelView(core, c, me.id))),
    )
    .post(
      "/users/@me/dms",
      person(p, async ({ me, body }) => {
        const b = await body(OpenDm);
        return channelView(core, core.people.openDm(me.id, b.recipient_id), me.id);
      }),
    );
}
