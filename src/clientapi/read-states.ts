/** Unread channels and mentions: a person's read states, and marking a channel read. */
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { pathId, person } from "./http";
import { Uuid } from "./schemas";
import type { ReadState } from "../core/read-states";

const MarkRead = Type.Object({ message_id: Uuid }, { additionalProperties: false });

export function readStateView(r: ReadState) {
  return { channel_id: r.channelId, last_read_id: r.lastReadId, unread: r.unread, mention_count: r.mentionCount };
}

export function readStateRoutes(p: ClientContext) {
  const core = p.core;
  return new Elysia()
    .get(
      "/users/@me/read-states",
      person(p, ({ me }) => core.readStates.all(me.id).map(readStateView)),
    )
    .put(
      "/channels/:channel_id/read",
      person(p, async ({ me, params, body }) => {
        const c = pathId(params.channel_id, "channel");
        const b = await body(MarkRead);
        return readStateView(core.readStates.mark(me.id, c, b.message_id));
      }),
    );
}
