/** Unread channels and mentions: a person's read states, and marking a channel read. */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { MarkRead } from "../contract";
import * as C from "../contract";
import { pathId, route, type PeopleRoute } from "./http";
import type { ReadState } from "../core";

export function readStateView(r: ReadState) {
  return { channel_id: r.channelId, last_read_id: r.lastReadId, unread: r.unread, mention_count: r.mentionCount };
}

export function readStateRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  return [
    route({
      method: "GET",
      path: "/users/@me/read-states",
      caller: "session",
      summary: "How far one has read each channel: unread marks and mention counts",
      answer: Type.Array(C.ReadState),
      handler: ({ caller: { user: me } }) => core.readStates.all(me.id).map(readStateView),
    }),
    route({
      method: "PUT",
      path: "/channels/{channel_id}/read",
      caller: "session",
      summary: "Mark a channel read up to a message",
      window: "background",
      answer: C.ReadState,
      body: MarkRead,
      handler: ({ caller: { user: me }, params, body }) => {
        const c = pathId(params.channel_id, "channel");
        const b = body();
        return readStateView(core.readStates.mark(me.id, c, b.message_id));
      },
    }),
    route({
      method: "PUT",
      path: "/guilds/{guild_id}/read",
      caller: "session",
      summary: "Mark every channel of a server one can see read up to its newest message (the server's Mark as read)",
      window: "background",
      answer: Type.Array(C.ReadState),
      handler: ({ caller: { user: me }, params }) => core.readStates.markServer(me.id, pathId(params.guild_id, "guild")).map(readStateView),
    }),
    route({
      method: "PUT",
      path: "/channels/{channel_id}/messages/{message_id}/unread",
      caller: "session",
      summary: "Mark unread from a message: the channel read up to the one before it (the one way a mark moves back)",
      answer: C.ReadState,
      handler: ({ caller: { user: me }, params }) =>
        readStateView(core.readStates.markUnread(me.id, pathId(params.channel_id, "channel"), pathId(params.message_id, "message"))),
    }),
  ];
}
