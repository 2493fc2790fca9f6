import type { BotApi } from "../../botapi/context";
import type { ChannelRow, MessageRow } from "../../core/types";
import { userJson } from "./user";
import { memberJson } from "./member";
import { iso, isoOrNull } from "../time";
import { interactionMetadataJson } from "./interaction";

export interface MessageView {
  /** false withholds content, embeds, components and attachments of server messages (MESSAGE_CONTENT). */
  content: boolean;
  /** The viewer, for `reactions[].me`. */
  viewerId?: string | null;
  /** Gateway dispatches add guild_id and the author's member (without user). */
  gateway?: boolean;
  /** The message's channel row when the caller already read it (saves the lookup). */
  channel?: ChannelRow;
  /** A message created by this very request: it has no reactions yet, so none are looked up. */
  fresh?: boolean;
}

const MENTION_USER = /<@!?(\d{17,20})>/g;
const MENTION_ROLE = /<@&(\d{17,20})>/g;

/**
 * Message (reference-gaps 3.6). Authors and mentions carry `bot: false`, even the bot's
 * own (spec 2.7). A person's DM message is an envelope: content "", embeds [] and
 * `service_e2e_encrypted: true` (spec 1.6).
 */
export function messageJson(api: BotApi, m: MessageRow, view: MessageView, depth = 0): Record<string, unknown> {
  const f = api.flakes;
  const ch = view.channel && view.channel.id === m.channel_id ? view.channel : api.core.guilds.channel(m.channel_id);
  const guildId = ch?.guild_id ?? null;
  const isDm = guildId === null;
  const encrypted = m.ciphertext !== null;
  const showContent = !encrypted && (isDm || view.content);

  const author = m.webhook_id
    ? { id: f.of(m.webhook_id), username: m.webhook_name ?? "Webhook", global_name: null, discriminator: "0000", avatar: m.webhook_avatar, bot: false }
    : userJson(f, api.core.users.require(m.author_id), "false");

  const content = showContent ? m.content : "";
  const mentions: unknown[] = [];
  const mentionRoles: string[] = [];
  // Every mention form starts with "<@": most messages have none and skip both scans.
  if (content && content.includes("<@")) {
    const seen = new Set<string>();
    for (const [, id] of content.matchAll(MENTION_USER)) {
      if (seen.has(id)) continue;
      seen.add(id);
      const uid = f.uuid(id);
      const u = uid ? api.core.users.get(uid) : null;
      if (u) mentions.push(userJson(f, u, "false"));
    }
    if (guildId)
      for (const [, id] of content.matchAll(MENTION_ROLE)) {
        const rid = f.uuid(id);
        if (rid && api.core.guilds.role(guildId, rid) && !mentionRoles.includes(id)) mentionRoles.push(id);
      }
  }

  const out: Record<string, unknown> = {
    id: f.of(m.id),
    type: m.type,
    channel_id: f.of(m.channel_id),
    author,
    content,
    timestamp: iso(m.created_at),
    edited_timestamp: isoOrNull(m.edited_at),
    tts: !!m.tts,
    mention_everyone: !!m.mention_everyone,
    mentions,
    mention_roles: mentionRoles,
    mention_channels: [],
    attachments: [],
    embeds: showContent ? JSON.parse(m.embeds) : [],
    components: showContent ? JSON.parse(m.components) : [],
    pinned: !!m.pinned,
    flags: m.flags,
  };
  if (m.nonce !== null) out.nonce = m.nonce;
  if (m.webhook_id) out.webhook_id = f.of(m.webhook_id);
  if (m.application_id) out.application_id = f.of(m.application_id);
  if (m.interaction_id) Object.assign(out, interactionMetadataJson(api, m));
  if (isDm) out.service_e2e_encrypted = encrypted;

  if (!view.fresh) {
    const reactions = reactionsJson(api, m.id, view.viewerId ?? null);
    if (reactions.length) out.reactions = reactions;
  }

  if (m.reference_message_id) {
    out.message_reference = {
      type: 0,
      message_id: f.of(m.reference_message_id),
      channel_id: f.of(m.reference_channel_id ?? m.channel_id),
      ...(m.reference_guild_id ? { guild_id: f.of(m.reference_guild_id) } : {}),
    };
    if (m.type === 19 && depth === 0) {
      const ref = api.core.messages.get(m.reference_message_id);
      out.referenced_message = ref ? messageJson(api, ref, { ...view, gateway: false, fresh: false }, 1) : null;
    }
  }

  if (view.gateway) {
    if (guildId) {
      out.guild_id = f.of(guildId);
      if (!m.webhook_id && !m.ephemeral_user_id) {
        const mem = api.core.guilds.member(guildId, m.author_id);
        if (mem) out.member = memberJson(api, mem, false);
      }
    }
    if (ch) out.channel_type = ch.type;
  }
  return out;
}

/** The `reactions` array: one entry per emoji, in order of first use. */
export function reactionsJson(api: BotApi, messageId: string, viewerId: string | null) {
  const rows = api.core.store.db
    .query(
      `SELECT emoji_key, emoji_name, emoji_id, emoji_animated, count(*) AS n, max(user_id = ?) AS me, min(created_at) AS first
       FROM reactions WHERE message_id = ? GROUP BY emoji_key ORDER BY first, emoji_key`,
    )
    .all(viewerId ?? "", messageId) as { emoji_name: string | null; emoji_id: string | null; emoji_animated: number; n: number; me: number }[];
  return rows.map((r) => ({
    emoji: { id: r.emoji_id, name: r.emoji_name, ...(r.emoji_animated ? { animated: true } : {}) },
    count: r.n,
    count_details: { burst: 0, normal: r.n },
    me: !!r.me,
    me_burst: false,
    burst_colors: [],
  }));
}
