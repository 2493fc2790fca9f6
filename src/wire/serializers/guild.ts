import type { BotApi } from "../../botapi/context";

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

import { roleJson } from "./role";
import { channelJson } from "./channel";
import { memberJson } from "./member";

/**
 * Guild (spec 2.6, reference-gaps 3.14): every listed field always present, null,
 * empty or 0 where Parley has no equivalent.
 */
export function guildJson(api: BotApi, guildId: string, opts: { withCounts?: boolean } = {}) {
  const f = api.flakes;
  const g = api.core.guilds.require(guildId);
  const roles = api.core.guilds.roles(guildId);
  const everyone = roles.find((r) => r.is_everyone);
  const out: Record<string, unknown> = {
    id: f.of(g.id),
    name: g.name,
    icon: g.icon,
    icon_hash: g.icon,
    splash: null,
    discovery_splash: null,
    owner_id: f.of(g.owner_id),
    permissions: String(everyone?.permissions ?? 0),
    region: "auto",
    afk_channel_id: null,
    afk_timeout: 300,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    roles: roles.map((r) => roleJson(f, r)),
    emojis: [],
    features: ["SERVICE_E2E_DIRECT_MESSAGES"],
    mfa_level: 0,
    application_id: null,
    system_channel_id: f.ofNullable(g.system_channel_id),
    system_channel_flags: 0,
    rules_channel_id: null,
    max_presences: null,
    max_members: 250000,
    vanity_url_code: null,
    description: g.description,
    banner: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: g.preferred_locale,
    public_updates_channel_id: null,
    max_video_channel_users: 0,
    max_stage_video_channel_users: 0,
    nsfw_level: 0,
    stickers: [],
    stage_instances: [],
    guild_scheduled_events: [],
    premium_progress_bar_enabled: false,
    safety_alerts_channel_id: null,
    incidents_data: null,
    member_count: api.core.guilds.memberCount(guildId),
    large: false,
    joined_at: null,
    // channels, members and presences exist only in GUILD_CREATE (guildCreateJson):
    // discord.py iterates a present `channels` key and fails on null, and discord.js
    // clears its channel cache on a present one, so elsewhere they are omitted.
  };
  if (opts.withCounts) {
    out.approximate_member_count = out.member_count;
    out.approximate_presence_count = presenceCount(api, guildId);
  }
  return out;
}

function presenceCount(api: BotApi, guildId: string): number {
  return (
    api.core.store.db
      .query("SELECT count(*) AS n FROM members m JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? AND u.presence != 'offline'")
      .get(guildId) as { n: number }
  ).n;
}

/** Presence entries for GUILD_CREATE and PRESENCE_UPDATE. */
export function presenceJson(api: BotApi, guildId: string, userId: string, status: string) {
  return {
    user: { id: api.flakes.of(userId) },
    guild_id: api.flakes.of(guildId),
    status,
    activities: [],
    client_status: status === "offline" ? {} : { web: status },
  };
}

/**
 * GUILD_CREATE's payload for one bot: the guild plus joined_at, channels, members,
 * presences (only with GUILD_PRESENCES), and the empty collections libraries expect.
 * `member_count` equals the members sent, since every guild is sent whole ("small").
 */
export function guildCreateJson(api: BotApi, guildId: string, botUserId: string, withPresences: boolean) {
  const base = guildJson(api, guildId);
  const members = api.core.guilds.members(guildId);
  const me = members.find((m) => m.user_id === botUserId);
  const presences = withPresences
    ? (api.core.store.db
        .query("SELECT u.id, u.presence FROM members m JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? AND u.presence != 'offline'")
        .all(guildId) as { id: string; presence: string }[]).map((r) => presenceJson(api, guildId, r.id, r.presence))
    : [];
  return {
    ...base,
    joined_at: me ? base.joined_at ?? new Date(me.joined_at).toISOString().replace("Z", "+00:00") : null,
    large: false,
    unavailable: false,
    member_count: members.length,
    channels: api.core.guilds.channels(guildId).map((c) => channelJson(api, c)),
    members: members.map((m) => memberJson(api, m)),
    presences,
    threads: [],
    voice_states: [],
    soundboard_sounds: [],
  };
}
