/**
 * The people's API JSON: our own small shapes with internal ids and ISO times. Not the
 * reference platform's shapes (those live in src/botapi/serializers only).
 */
import type { Core } from "../core";
import type { ApplicationRow, ChannelRow, GuildRow, MessageRow, RoleRow, UserRow } from "../core/types";
import type { InviteRow } from "../core/invites";
import { intentNames } from "../core/permissions";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function userView(u: UserRow) {
  return { id: u.id, username: u.username, global_name: u.global_name, bot: u.kind === "bot", presence: u.presence };
}

export function meView(u: UserRow) {
  return { ...userView(u), admin: !!u.is_admin, created_at: iso(u.created_at) };
}

export function roleView(r: RoleRow) {
  return {
    id: r.id,
    name: r.name,
    permissions: String(r.permissions),
    color: r.color,
    hoist: !!r.hoist,
    mentionable: !!r.mentionable,
    position: r.position,
    everyone: !!r.is_everyone,
  };
}

export function channelView(core: Core, c: ChannelRow, viewerId?: string) {
  if (c.guild_id === null) {
    const recipients = core.messages
      .dmRecipients(c.id)
      .filter((id) => id !== viewerId)
      .map((id) => core.users.get(id))
      .filter((u): u is UserRow => u !== null)
      .map(userView);
    return { id: c.id, type: c.type, guild_id: null, recipients, e2e: true, last_message_id: c.last_message_id, created_at: iso(c.created_at) };
  }
  return {
    id: c.id,
    type: c.type,
    guild_id: c.guild_id,
    name: c.name,
    topic: c.topic,
    position: c.position,
    parent_id: c.parent_id,
    nsfw: !!c.nsfw,
    rate_limit_per_user: c.rate_limit_per_user,
    overwrites: core.guilds.overwrites(c.id).map((o) => ({
      target_id: o.target_id,
      type: o.target_type === 0 ? "role" : "member",
      allow: String(o.allow),
      deny: String(o.deny),
    })),
    e2e: false,
    last_message_id: c.last_message_id,
    created_at: iso(c.created_at),
  };
}

export function guildView(core: Core, g: GuildRow, viewerId: string) {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    owner_id: g.owner_id,
    system_channel_id: g.system_channel_id,
    member_count: core.guilds.memberCount(g.id),
    my_permissions: String(core.guilds.permissions(g.id, viewerId)),
    channels: core.guilds.channels(g.id).map((c) => channelView(core, c)),
    roles: core.guilds.roles(g.id).map(roleView),
    created_at: iso(g.created_at),
  };
}

export function messageView(core: Core, m: MessageRow, viewerId: string) {
  const author = core.users.get(m.author_id);
  const reactions = core.store.db
    .query(
      `SELECT emoji_key, emoji_name, emoji_id, count(*) AS n, max(user_id = ?) AS me, min(created_at) AS first
       FROM reactions WHERE message_id = ? GROUP BY emoji_key ORDER BY first, emoji_key`,
    )
    .all(viewerId, m.id) as { emoji_name: string | null; emoji_id: string | null; n: number; me: number }[];
  return {
    id: m.id,
    channel_id: m.channel_id,
    author: m.webhook_id
      ? { id: m.webhook_id, username: m.webhook_name ?? "Webhook", global_name: null, bot: true, presence: "offline" }
      : author
        ? userView(author)
        : null,
    content: m.content,
    ciphertext: m.ciphertext,
    embeds: JSON.parse(m.embeds) as unknown[],
    components: JSON.parse(m.components) as unknown[],
    flags: m.flags,
    ephemeral: m.ephemeral_user_id !== null,
    reply_to: m.reference_message_id,
    reactions: reactions.map((r) => ({ emoji: r.emoji_id ? `${r.emoji_name}:${r.emoji_id}` : r.emoji_name, count: r.n, me: !!r.me })),
    created_at: iso(m.created_at),
    edited_at: iso(m.edited_at),
  };
}

export function inviteView(core: Core, inv: InviteRow) {
  const g = core.guilds.get(inv.guild_id);
  const c = core.guilds.channel(inv.channel_id);
  return {
    code: inv.code,
    guild: g ? { id: g.id, name: g.name, member_count: core.guilds.memberCount(g.id) } : null,
    channel: c ? { id: c.id, name: c.name } : null,
    inviter_id: inv.inviter_id,
    max_age: inv.max_age,
    max_uses: inv.max_uses,
    uses: inv.uses,
    expires_at: iso(core.invites.expiresAt(inv)),
    created_at: iso(inv.created_at),
  };
}

export function applicationView(core: Core, a: ApplicationRow) {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    owner_id: a.owner_id,
    bot_user_id: a.bot_user_id,
    intents: intentNames(a.intents),
    granted_intents: intentNames(core.apps.grant(a)),
    token_intents: intentNames(a.token_intents),
    privileged_requested: intentNames(a.privileged_requested),
    privileged_approved: intentNames(a.privileged_approved),
    public_key: a.public_key,
    interactions_endpoint_url: a.interactions_endpoint_url,
    token_version: a.token_version,
    guild_ids: core.guilds.guildIdsOf(a.bot_user_id),
    created_at: iso(a.created_at),
  };
}
