/** Direct messages: list and open DM channels (messages go through messages.ts). */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { OpenDm } from "../contract";
import * as C from "../contract";
import { route, type PeopleRoute } from "./http";
import { channelView } from "./views";

export function dmRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  return [
    route({
      method: "GET",
      path: "/users/@me/dms",
      caller: "session",
      summary: "One's direct message channels",
      answer: Type.Array(C.Channel),
      handler: ({ caller: { user: me } }) => core.people.dms(me.id).map((c) => channelView(core, c, me.id)),
    }),
    route({
      method: "POST",
      path: "/users/@me/dms",
      caller: "session",
      summary: "Open a direct message channel",
      answer: C.Channel,
      body: OpenDm,
      handler: ({ caller: { user: me }, body }) => {
        const b = body();
        return channelView(core, core.people.openDm(me.id, b.recipient_id), me.id);
      },
    }),
  ];
}
