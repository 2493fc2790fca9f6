import type { BotApi } from "../context";

/** The partial guild of GET /users/@me/guilds (reference-gaps 2.11). */
export function partialGuildJson(api: BotApi, guildId: string, userId: string, withCounts: boolean) {
  const g = api.core.guilds.require(guildId);
  const out: Record<string, unknown> = {
    id: api.flakes.of(g.id),
    name: g.name,
    icon: g.icon,
    banner: null,
    owner: g.owner_id === userId,
    permissions: String(api.core.guilds.permissions(guildId, userId)),
    features: [],
  };
  if (withCounts) {
    out.approximate_member_count = api.core.guilds.memberCount(guildId);
    out.approximate_presence_count = 0;
  }
  return out;
}
