import type { GuildCreateModel, GuildModel, PartialGuildModel } from "../../core";
import type { Ids } from "../snowflakes";
import { roleJson } from "./role";
import { channelJson } from "./channel";
import { memberJson } from "./member";
import { iso } from "../time";
import { emojiJson } from "./attachment";

/** The partial guild of GET /users/@me/guilds (reference-gaps 2.11). */
export function partialGuildJson(f: Ids, m: PartialGuildModel, userId: string) {
  const g = m.guild;
  const out: Record<string, unknown> = {
    id: f.of(g.id),
    name: g.name,
    icon: g.icon,
    banner: null,
    owner: g.owner_id === userId,
    permissions: String(m.permissions),
    features: [],
  };
  if (m.memberCount !== undefined) {
    out.approximate_member_count = m.memberCount;
    out.approximate_presence_count = 0;
  }
  return out;
}

/**
 * Guild (spec 2.6, reference-gaps 3.14): every listed field always present, null,
 * empty or 0 where Parley has no equivalent.
 */
export function guildJson(f: Ids, m: GuildModel) {
  const g = m.guild;
  const everyone = m.roles.find((r) => r.is_everyone);
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
    default_message_notifications: g.default_message_notifications ?? 0,
    explicit_content_filter: 0,
    roles: m.roles.map((r) => roleJson(f, r)),
    // Every change to them is a GUILD_UPDATE carrying this (GUILD_EMOJIS_UPDATE is never dispatched, spec 6.2).
    emojis: m.emojis.map((e) => emojiJson(f, e)),
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
    member_count: m.memberCount,
    large: false,
    joined_at: null,
    // channels, members and presences exist only in GUILD_CREATE (guildCreateJson):
    // discord.py iterates a present `channels` key and fails on null, and discord.js
    // clears its channel cache on a present one, so elsewhere they are omitted.
  };
  if (m.presenceCount !== undefined) {
    out.approximate_member_count = m.memberCount;
    out.approximate_presence_count = m.presenceCount;
  }
  return out;
}

/** Presence entries for GUILD_CREATE and PRESENCE_UPDATE. */
export function presenceJson(f: Ids, guildId: string, userId: string, status: string) {
  return {
    user: { id: f.of(userId) },
    guild_id: f.of(guildId),
    status,
    activities: [],
    client_status: status === "offline" ? {} : { web: status },
  };
}

/**
 * GUILD_CREATE's payload without `joined_at`, which differs per bot, and `unavailable`,
 * which depends on why it is sent (the gateway's GuildCreateCache appends both): every
 * channel, role and member, presences (only with GUILD_PRESENCES), and the empty
 * collections libraries expect. `member_count` equals the members sent, since every
 * guild is sent whole ("small").
 */
export function guildCreateJson(f: Ids, m: GuildCreateModel) {
  const { joined_at: _joined, ...base } = guildJson(f, m);
  return {
    ...base,
    large: false,
    member_count: m.members.length,
    channels: m.channels.map((c) => channelJson(f, c)),
    members: m.members.map((x) => memberJson(f, x)),
    presences: m.presences.map((p) => presenceJson(f, m.guild.id, p.userId, p.status)),
    threads: [],
    voice_states: [],
    soundboard_sounds: [],
  };
}

/** A bot's `joined_at` in GUILD_CREATE (null when it is not a member). */
export function joinedAtJson(joinedAt: number | null): string | null {
  return joinedAt === null ? null : iso(joinedAt);
}
