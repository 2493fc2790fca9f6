/**
 * The people's API JSON: our own small shapes with internal ids and ISO times, not the
 * reference platform's (those are src/wire/serializers). Each `...Of` function is a pure
 * function of a core read model; the wrappers beside them read the model first. Each
 * returns its shape in the contract (src/contract), which the compiler holds it to.
 */
import {
  type Application,
  type Channel,
  type ChannelModel,
  type Core,
  type Device,
  type Guild,
  type GuildModel,
  intentNames,
  type Invite,
  type InviteModel,
  type MemberModel,
  type Message,
  type MessageInteractionModel,
  type MessageModel,
  type NotificationSetting,
  type Role,
  type User,
} from "../core";
import { isoUtc } from "../wire/time";
import { peopleEmbeds, type MediaLinks } from "../wire/media";
import type * as C from "../contract";
import type { FileLinks } from "../wire/files";
import { attachmentView, emojiView } from "./media-views";

export function userView(u: User): C.User {
  const out: C.User = { id: u.id, username: u.username, global_name: u.global_name, bot: u.kind === "bot", presence: u.presence };
  // Only when set, as the other files' fields: what has none shows as before (docs/people-api.md).
  if (u.avatar) out.avatar = u.avatar;
  return out;
}

export function meView(u: User): C.Me {
  return { ...userView(u), admin: !!u.is_admin, created_at: isoUtc(u.created_at) };
}

/** A device: its public keys (raw, base64url; null for a curve it lacks), whether it is a key backup, with `withUse` when it was last used; never anything secret. */
export function deviceView(d: Device, withUse = true): C.Device {
  const view: C.Device = {
    id: d.id,
    user_id: d.user_id,
    name: d.name,
    keys: { x25519: d.x25519, p256: d.p256 },
    created_at: isoUtc(d.created_at),
    removed_at: d.removed_at === null ? null : isoUtc(d.removed_at),
    backup: d.backup !== null,
  };
  // When a device was last used is its person's to know, not the other side of a DM's.
  if (withUse) view.last_used_at = d.last_used_at === null ? null : isoUtc(d.last_used_at);
  return view;
}

/** A key backup for its own person: the device and its sealed private keys (which only the passphrase opens). */
export function backupView(d: Device): C.KeyBackup {
  return { ...deviceView(d), sealed: d.backup };
}

export function memberViewOf(m: MemberModel & { user: User }): C.Member {
  return { user: userView(m.user), roles: m.roleIds as string[], nick: m.member.nick, joined_at: isoUtc(m.member.joined_at) };
}

export function roleView(r: Role): C.Role {
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

export function channelViewOf(m: ChannelModel, viewerId?: string): C.Channel {
  const c = m.channel;
  if (c.guild_id === null) {
    const recipients = m.recipients.filter((u) => u.id !== viewerId).map(userView);
    return {
      id: c.id,
      type: c.type,
      guild_id: null,
      recipients,
      e2e: true,
      last_message_id: c.last_message_id,
      created_at: isoUtc(c.created_at),
    };
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
    overwrites: m.overwrites.map((o) => ({
      target_id: o.target_id,
      type: o.target_type === 0 ? "role" : "member",
      allow: String(o.allow),
      deny: String(o.deny),
    })),
    e2e: false,
    last_message_id: c.last_message_id,
    created_at: isoUtc(c.created_at),
  };
}

export function channelView(core: Pick<Core, "reads">, c: Channel, viewerId?: string): C.Channel {
  return channelViewOf(core.reads.guilds.channelOf(c), viewerId);
}

export function guildViewOf(m: GuildModel, channels: ChannelModel[], myPermissions: number): C.Guild {
  const g = m.guild;
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    owner_id: g.owner_id,
    system_channel_id: g.system_channel_id,
    member_count: m.memberCount,
    my_permissions: String(myPermissions),
    default_message_notifications: g.default_message_notifications ?? 0,
    channels: channels.map((c) => channelViewOf(c)),
    roles: m.roles.map(roleView),
    created_at: isoUtc(g.created_at),
    ...(g.icon ? { icon: g.icon } : {}),
    ...(m.emojis.length ? { emojis: m.emojis.map(emojiView) } : {}),
  };
}

export function guildView(core: Pick<Core, "reads" | "guilds">, g: Guild, viewerId: string): C.Guild {
  return guildViewOf(core.reads.guilds.guild(g.id), core.reads.guilds.channels(g.id), core.guilds.permissions(g.id, viewerId));
}

/** A message as the web client shows it; `media` is the image proxy when it is on (embeds' pictures then link to it). */
export function messageViewOf(m: MessageModel, media: MediaLinks | null, files: FileLinks | null = null): C.Message {
  const r = m.message;
  return {
    id: r.id,
    channel_id: r.channel_id,
    author:
      m.author.kind === "webhook"
        ? { id: m.author.id, username: m.author.name, global_name: null, bot: true, presence: "offline" }
        : userView(m.author.user),
    content: r.content,
    ciphertext: r.ciphertext,
    // As the bot API's validator let them in (its schemas are looser about nothing the contract names).
    embeds: peopleEmbeds(JSON.parse(r.embeds) as unknown[], media) as C.Embed[],
    components: JSON.parse(r.components) as C.Component[],
    flags: r.flags,
    ephemeral: r.ephemeral_user_id !== null,
    reply_to: r.reference_message_id,
    type: r.type,
    pinned: !!r.pinned,
    mentions: m.mentions.map(userView),
    mention_roles: m.mentionRoleIds,
    mention_everyone: !!r.mention_everyone,
    interaction: m.interaction ? interactionOf(m.interaction) : null,
    reactions: (m.reactions ?? []).map((x) => ({
      emoji: x.emoji.id ? `${x.emoji.name}:${x.emoji.id}` : (x.emoji.name ?? ""),
      count: x.count,
      me: x.me,
    })),
    created_at: isoUtc(r.created_at),
    edited_at: r.edited_at === null ? null : isoUtc(r.edited_at),
    ...(m.attachments.length ? { attachments: m.attachments.map((a) => attachmentView(a, files)) } : {}),
  };
}

/** The command a message answers ("alice used /roll"); components name none. */
function interactionOf(i: MessageInteractionModel): C.Message["interaction"] {
  const d = i.data;
  return {
    id: i.interaction.id,
    name: d.kind === "command" ? d.name : null,
    type: d.kind === "command" ? d.type : null,
    user: userView(i.user),
  };
}

export function messageView(
  core: Pick<Core, "reads">,
  m: Message,
  viewerId: string,
  media: MediaLinks | null,
  files: FileLinks | null = null,
): C.Message {
  return messageViewOf(core.reads.messages.message(m, { viewerId }), media, files);
}

export function inviteViewOf(m: InviteModel): C.Invite {
  const inv = m.invite;
  return {
    code: inv.code,
    guild: m.guild ? { id: m.guild.id, name: m.guild.name, icon: m.guild.icon, member_count: m.memberCount } : null,
    channel: m.channel ? { id: m.channel.id, name: m.channel.name } : null,
    inviter_id: inv.inviter_id,
    max_age: inv.max_age,
    max_uses: inv.max_uses,
    uses: inv.uses,
    expires_at: m.expiresAt === null ? null : isoUtc(m.expiresAt),
    created_at: isoUtc(inv.created_at),
  };
}

export function inviteView(core: Pick<Core, "reads">, inv: Invite): C.Invite {
  return inviteViewOf(core.reads.invite(inv));
}

/**
 * An application as its owner sees it in the portal. `install_url` is the page that
 * installs its bot (`{portal_url}/install/<application_id>`, spec 5.10); `guilds` are the
 * servers its bot is in, so the owner can tell which to remove it from.
 */
export function applicationView(core: Pick<Core, "guilds" | "apps">, a: Application, portalUrl: string): C.Application {
  const guildIds = core.guilds.guildIdsOf(a.bot_user_id);
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
    privileged_denied: intentNames(a.privileged_denied),
    public_key: a.public_key,
    interactions_endpoint_url: a.interactions_endpoint_url,
    install_url: `${portalUrl}/install/${a.id}`,
    token_version: a.token_version,
    guild_ids: guildIds,
    guilds: guildIds.flatMap((id) => {
      const g = core.guilds.get(id);
      return g ? [{ id: g.id, name: g.name }] : [];
    }),
    created_at: isoUtc(a.created_at),
  };
}

/** A person's notification setting for a server, channel or DM. */
export function settingView(s: NotificationSetting): C.NotificationSetting {
  return {
    scope_id: s.scope_id,
    guild_id: s.guild_id,
    channel_id: s.channel_id,
    level: s.level,
    muted_until: s.muted_until === null ? null : isoUtc(s.muted_until),
  };
}
