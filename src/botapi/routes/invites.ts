import type { BotApi } from "../context";
import { Type } from "@sinclair/typebox";
import { ok, route, type BotRoute } from "../http";
import type { Invite } from "../../core";
import { inviteJson } from "../../wire/serializers/invite";
import { known } from "./ids";

function inviteOut(api: BotApi, i: Invite, metadata: boolean, counts = false) {
  return inviteJson(api.flakes, api.core.reads.invite(i), { metadata, counts });
}

export const inviteRoutes: BotRoute[] = [
  route({
    method: "POST",
    path: "/channels/{channel_id}/invites",
    summary: "Create an invite: refused (403), a bot token never creates one (spec 5.11)",
    caller: "bot",
    // Spec 5.11: a bot token never creates an invite, whatever its permissions.
    handler: ({ ctx: api, params, caller: bot }) =>
      api.core.invites.refuseBotCreate(bot.botUserId, known(api, params.channel_id, "channel")),
  }),
  route({
    method: "GET",
    path: "/channels/{channel_id}/invites",
    summary: "A channel's invites",
    caller: "bot",
    handler: ({ ctx: api, params, caller: bot }) =>
      ok(api.core.invites.forChannel(bot.botUserId, known(api, params.channel_id, "channel")).map((i) => inviteOut(api, i, true))),
  }),
  route({
    method: "GET",
    path: "/guilds/{guild_id}/invites",
    summary: "A server's invites",
    caller: "bot",
    handler: ({ ctx: api, params, caller: bot }) =>
      ok(api.core.invites.forGuild(bot.botUserId, known(api, params.guild_id, "guild")).map((i) => inviteOut(api, i, true))),
  }),
  route({
    method: "GET",
    path: "/invites/{code}",
    summary: "An invite",
    query: Type.Object({ with_counts: Type.Optional(Type.Boolean()) }),
    caller: "bot",
    handler: ({ ctx: api, params, query }) =>
      ok(inviteOut(api, api.core.invites.require(params.code), false, /^(true|1)$/i.test(query.get("with_counts") ?? ""))),
  }),
  route({
    method: "DELETE",
    path: "/invites/{code}",
    summary: "Delete an invite",
    caller: "bot",
    handler: ({ ctx: api, params, caller: bot }) => ok(inviteOut(api, api.core.invites.delete(params.code, bot.botUserId), false)),
  }),
];
