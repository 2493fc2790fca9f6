/**
 * Channels of a server and their permission overwrites, through the same core operations
 * as the bot API (core/channels.ts): the same checks, events and audit entries.
 */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { CreateChannel, EditChannel, Overwrite } from "../contract";
import * as C from "../contract";
import { pathId, route, type PeopleRoute } from "./http";
import { channelView } from "./views";
import type { ChannelInput } from "../core";
import { permissionBits } from "./schemas";

/** The people's channel fields as the core takes them (absent stays absent). */
function channelInput(
  b: Partial<{
    name: string;
    type: number;
    topic: string | null;
    parent_id: string | null;
    nsfw: boolean;
    rate_limit_per_user: number;
    position: number;
    overwrites: { target_id: string; type: "role" | "member"; allow?: string | string[]; deny?: string | string[] }[];
  }>,
): ChannelInput {
  return {
    overwrites: b.overwrites?.map((o, i) => ({
      targetId: o.target_id,
      targetType: o.type === "role" ? 0 : 1,
      allow: permissionBits(o.allow, `overwrites[${i}].allow`) ?? 0,
      deny: permissionBits(o.deny, `overwrites[${i}].deny`) ?? 0,
    })),
    name: b.name,
    type: b.type,
    topic: b.topic,
    parentId: b.parent_id,
    nsfw: b.nsfw,
    rateLimitPerUser: b.rate_limit_per_user,
    position: b.position,
  };
}

/** Longer than 80 lines because it is a table: one declaration per route. */
export function channelRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  return [
    route({
      method: "GET",
      path: "/guilds/{guild_id}/channels",
      caller: "session",
      summary: "A server's channels",
      answer: Type.Array(C.Channel),
      handler: ({ caller: { user: me }, params }) => {
        const g = core.people.guild(me.id, pathId(params.guild_id, "guild"));
        return core.guilds.channels(g.id).map((c) => channelView(core, c));
      },
    }),
    route({
      method: "POST",
      path: "/guilds/{guild_id}/channels",
      caller: "session",
      summary: "Create a channel",
      answer: C.Channel,
      body: CreateChannel,
      handler: ({ caller: { user: me }, params, body }) => {
        const g = pathId(params.guild_id, "guild");
        const b = body();
        return channelView(core, core.channels.create(me.id, g, { ...channelInput(b), name: b.name }));
      },
    }),
    route({
      method: "GET",
      path: "/channels/{channel_id}",
      caller: "session",
      summary: "A channel",
      answer: C.Channel,
      handler: ({ caller: { user: me }, params }) =>
        channelView(core, core.people.channel(me.id, pathId(params.channel_id, "channel")), me.id),
    }),
    route({
      method: "PATCH",
      path: "/channels/{channel_id}",
      caller: "session",
      summary: "Edit a channel; `overwrites` replaces its whole list (MANAGE_ROLES too)",
      answer: C.Channel,
      body: EditChannel,
      handler: ({ caller: { user: me }, params, body }) => {
        const c = pathId(params.channel_id, "channel");
        core.channels.access(me.id, c);
        const b = body();
        return channelView(core, core.channels.edit(me.id, c, channelInput(b)), me.id);
      },
    }),
    route({
      method: "DELETE",
      path: "/channels/{channel_id}",
      caller: "session",
      summary: "Delete a channel",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        core.channels.delete(me.id, pathId(params.channel_id, "channel"));
      },
    }),
    route({
      method: "PUT",
      path: "/channels/{channel_id}/overwrites/{target_id}",
      caller: "session",
      summary: "Set a channel's permission overwrite",
      answer: C.Channel,
      body: Overwrite,
      handler: ({ caller: { user: me }, params, body }) => {
        const c = pathId(params.channel_id, "channel");
        const target = pathId(params.target_id, "overwrite target");
        core.channels.access(me.id, c);
        const b = body();
        const allow = permissionBits(b.allow, "allow") ?? 0;
        const deny = permissionBits(b.deny, "deny") ?? 0;
        core.channels.putOverwrite(me.id, c, target, b.type === "role" ? 0 : 1, allow, deny);
        return channelView(core, core.channels.get(me.id, c), me.id);
      },
    }),
    route({
      method: "DELETE",
      path: "/channels/{channel_id}/overwrites/{target_id}",
      caller: "session",
      summary: "Remove a channel's permission overwrite",
      answer: C.Channel,
      handler: ({ caller: { user: me }, params }) => {
        const c = pathId(params.channel_id, "channel");
        core.channels.deleteOverwrite(me.id, c, pathId(params.target_id, "overwrite"));
        return channelView(core, core.channels.get(me.id, c), me.id);
      },
    }),
  ];
}
