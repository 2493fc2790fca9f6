import type { BotApi } from "../context";
import type { RouteDef } from "../http";
import { ok } from "../http";
import type { InviteRow } from "../../core/invites";
import { inviteJson } from "../../wire/serializers/invite";
import { known } from "./ids";

function inviteOut(api: BotApi, i: InviteRow, metadata: boolean, counts = false) {
  return inviteJson(api.flakes, api.core.reads.invite(i), { metadata, counts });
}

export const inviteRoutes: RouteDef[] = [
  {
    method: "POST",
    path: "/channels/{channel_id}/invites",
    auth: "bot",
    // Spec 5.11: a bot token never creates an invite, whatever its permissions.
    handler: ({ api, params, bot }) => api.core.invites.refuseBotCreate(bot.botUserId, known(api, params.channel_id, "channel")),
  },
  {
    method: "GET",
    path: "/channels/{channel_id}/invites",
    auth: "bot",
    handler: ({ api, params, bot }) =>
      ok(api.core.invites.forChannel(bot.botUserId, known(api, params.channel_id, "channel")).map((i) => inviteOut(api, i, true))),
  },
  {
    method: "GET",
    path: "/guilds/{guild_id}/invites",
    auth: "bot",
    handler: ({ api, params, bot }) =>
      ok(api.core.invites.forGuild(bot.botUserId, known(api, params.guild_id, "guild")).map((i) => inviteOut(api, i, true))),
  },
  {
    method: "GET",
    path: "/invites/{code}",
    auth: "bot",
    handler: ({ api, params, query }) =>
      ok(inviteOut(api, api.core.invites.require(params.code), false, /^(true|1)$/i.test(query.get("with_counts") ?? ""))),
  },
  {
    method: "DELETE",
    path: "/invites/{code}",
    auth: "bot",
    handler: ({ api, params, bot }) => ok(inviteOut(api, api.core.invites.delete(params.code, bot.botUserId), false)),
  },
];
