import type { MessageInteractionModel, MessageModel, ReactionSummary } from "../../core";
import type { Ids } from "../snowflakes";
import { userJson } from "./user";
import { memberJson } from "./member";
import { iso, isoOrNull } from "../time";
import { embedsOut, textOut } from "../mentions";
import { attachmentJson } from "./attachment";

export interface MessageView {
  /** false withholds content, embeds, components and attachments of server messages (MESSAGE_CONTENT). */
  content: boolean;
  /**
   * The same for `referenced_message`, judged by the rule on that message itself: a
   * reply's exemption (the bot's own, or mentioning it) is not the replied-to one's.
   * Absent, it follows `content` (views whose content is never gated).
   */
  referencedContent?: boolean;
  /** Gateway dispatches add guild_id, channel_type, and the members (without user) of the author and the mentioned. */
  gateway?: boolean;
}

/**
 * Message (reference-gaps 3.6). Authors and mentions carry `bot: false`, even the bot's
 * own (spec 2.7). A person's DM message is an envelope: content "", embeds [] and
 * `service_e2e_encrypted: true` (spec 1.6).
 */
export function messageJson(f: Ids, model: MessageModel, view: MessageView, depth = 0): Record<string, unknown> {
  const m = model.message;
  const guildId = model.channel?.guild_id ?? null;
  const isDm = guildId === null;
  const encrypted = m.ciphertext !== null;
  const showContent = !encrypted && (isDm || view.content);
  const author =
    model.author.kind === "webhook"
      ? {
          id: f.of(model.author.id),
          username: model.author.name,
          global_name: null,
          discriminator: "0000",
          avatar: model.author.avatar,
          bot: false,
        }
      : userJson(f, model.author.user, "false");

  const out: Record<string, unknown> = {
    id: f.of(m.id),
    type: m.type,
    channel_id: f.of(m.channel_id),
    author,
    content: showContent ? textOut(m.content, f) : "",
    timestamp: iso(m.created_at),
    edited_timestamp: isoOrNull(m.edited_at),
    tts: !!m.tts,
    mention_everyone: !!m.mention_everyone,
    // The envelope: shown whatever the content's visibility (spec 5.9 gates content only).
    mentions: model.mentions.map((u) => userJson(f, u, "false")),
    mention_roles: model.mentionRoleIds.map((r) => f.of(r)),
    mention_channels: [],
    // Withheld with the content: a message whose content is hidden signs no link either.
    attachments: showContent && model.attachments.length ? model.attachments.map((a) => attachmentJson(f, a)) : [],
    embeds: showContent ? embedsOut(m.embeds, f) : [],
    components: showContent ? JSON.parse(m.components) : [],
    pinned: !!m.pinned,
    flags: m.flags,
  };
  if (m.nonce !== null) out.nonce = m.nonce;
  if (m.webhook_id) out.webhook_id = f.of(m.webhook_id);
  if (m.application_id) out.application_id = f.of(m.application_id);
  if (model.interaction) Object.assign(out, interactionMetadataJson(f, m.id, model.interaction));
  if (isDm) out.service_e2e_encrypted = encrypted;
  if (model.reactions?.length) out.reactions = reactionsJson(f, model.reactions);

  if (m.reference_message_id) {
    out.message_reference = {
      type: 0,
      message_id: f.of(m.reference_message_id),
      channel_id: f.of(m.reference_channel_id ?? m.channel_id),
      ...(m.reference_guild_id ? { guild_id: f.of(m.reference_guild_id) } : {}),
    };
    if (model.referenced !== undefined && depth === 0)
      out.referenced_message = model.referenced
        ? messageJson(f, model.referenced, { content: view.referencedContent ?? view.content }, 1)
        : null;
  }

  if (view.gateway) {
    if (guildId) {
      out.guild_id = f.of(guildId);
      if (model.member) out.member = memberJson(f, model.member, false);
      // As the reference's: discord.py makes Members of them, so a command's Member
      // converter finds a mentioned member without a member cache (or op 8, ignored).
      if (model.mentionMembers?.size) out.mentions = mentionsWithMembers(f, model);
    }
    if (model.channel) out.channel_type = model.channel.type;
  }
  return out;
}

/** The mentions of a server message, each member of the server with its `member` (without user). */
function mentionsWithMembers(f: Ids, model: MessageModel) {
  return model.mentions.map((u) => {
    const m = model.mentionMembers?.get(u.id);
    return m ? { ...userJson(f, u, "false"), member: memberJson(f, m, false) } : userJson(f, u, "false");
  });
}

/** The `reactions` array: one entry per emoji, in order of first use; a server's emoji by its snowflake. */
export function reactionsJson(f: Ids, rs: ReactionSummary[]) {
  return rs.map((r) => ({
    emoji: { id: f.ofNullable(r.emoji.id), name: r.emoji.name, ...(r.emoji.animated ? { animated: true } : {}) },
    count: r.count,
    count_details: { burst: 0, normal: r.count },
    me: r.me,
    me_burst: false,
    burst_colors: [],
  }));
}

/**
 * `interaction_metadata` (reference-gaps 3.8) and the deprecated `interaction` of a
 * message an interaction produced.
 */
export function interactionMetadataJson(f: Ids, messageId: string, i: MessageInteractionModel): Record<string, unknown> {
  const row = i.interaction;
  const meta: Record<string, unknown> = {
    id: f.of(row.id),
    type: row.type,
    user: userJson(f, i.user),
    authorizing_integration_owners: { "0": row.guild_id ? f.of(row.guild_id) : "0" },
  };
  if (row.response_message_id && row.response_message_id !== messageId) meta.original_response_message_id = f.of(row.response_message_id);
  if (row.message_id) meta.interacted_message_id = f.of(row.message_id);
  const out: Record<string, unknown> = { interaction_metadata: meta };
  if (i.data.kind === "command") out.interaction = { id: f.of(row.id), type: row.type, name: i.data.name, user: userJson(f, i.user) };
  return out;
}
