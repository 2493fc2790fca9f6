import type { BotApi } from "../context";
import type { RouteDef } from "../http";
import { ok } from "../http";
import type { InviteRow } from "../../core/invites";
import { userJson } from "../../wire/serializers/user";
import { iso, isoOrNull } from "../../wire/time";
import { known } from "./ids";

/** Invite (reference-gaps 3.10); `metadata` adds uses, max_uses, max_age, temporary, created_at. */
export function inviteJson(api: BotApi, i: InviteRow, metadata: boolean, withCounts = false) {
  const f = api.flakes;
  const g = api.core.guilds.get(i.guild_id);
  const c = api.core.guilds.channel(i.channel_id);
  const inviter = i.inviter_id ? api.core.users.get(i.inviter_id) : null;
  const out: Record<string, unknown> = {
    type: 0,
    code: i.code,
    guild: g
      ? {
          id: f.of(g.id),
          name: g.name,
          icon: g.icon,
          splash: null,
          banner: null,
          description: g.description,
          features: ["SERVICE_E2E_DIRECT_MESSAGES"],
          verification_level: 0,
          vanity_url_code: null,
          nsfw_level: 0,
          premium_subscription_count: 0,
        }
      : undefined,
    channel: c ? { id: f.of(c.id), name: c.name, type: c.type } : null,
    expires_at: isoOrNull(api.core.invites.expiresAt(i)),
    flags: 0,
  };
  if (inviter) out.inviter = userJson(f, inviter);
  if (withCounts && g) {
    out.approximate_member_count = api.core.guilds.memberCount(g.id);
    out.approximate_presence_count = 0;
  }
  if (metadata) Object.assign(out, { uses: i.uses, max_uses: i.max_uses, max_age: i.max_age, temporary: !!i.temporary, created_at: iso(i.created_at) });
  return out;
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
      ok(api.core.invites.forChannel(bot.botUserId, known(api, params.channel_id, "channel")).map((i) => inviteJson(api, i, true))),
  },
  {
    method: "GET",
    path: "/guilds/{guild_id}/invites",
    auth: "bot",
    handler: ({ api, params, bot }) =>
      ok(api.core.invites.forGuild(bot.botUserId, known(api, params.guild_id, "guild")).map((i) => inviteJson(api, i, true))),
  },
  {
    method: "GET",
    path: "/invites/{code}",
    auth: "bot",
    handler: ({ api, params, query }) =>
      ok(inviteJson(api, api.core.invites.require(params.code), false, /^(true|1)$/i.test(query.get("with_counts") ?? ""))),
  },
  {
    method: "DELETE",
    path: "/invites/{code}",
    auth: "bot",
    handler: ({ api, params, bot }) => ok(inviteJson(api, api.core.invites.delete(params.code, bot.botUserId), false)),
  },
];
