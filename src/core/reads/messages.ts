import { DomainError } from "../errors";
import type { CoreDeps } from "../deps";
import { statement } from "../statement";
import type { Guilds } from "../guilds";
import type { Users } from "../users";
import type { Messages } from "../messages";
import type { Interactions } from "../interactions";
import type { Message, User } from "../models";
import { MESSAGE_TYPE } from "../messages";
import type { GuildReads } from "./guilds";
import type { AuthorModel, MemberModel, MessageInteractionModel, MessageModel, MessageReadOptions, ReactionSummary } from "../composites";

/** Read models of messages: author, mentions, reactions, the replied-to message, the interaction. */
export class MessageReads {
  private readonly reactionRows;
  private readonly reactorRows;

  constructor(
    d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly users: Users,
    private readonly messages: Messages,
    private readonly interactions: Interactions,
    private readonly guildReads: GuildReads,
  ) {
    this.reactionRows = statement(
      d.store,
      `SELECT emoji_key, emoji_name, emoji_id, emoji_animated, count(*) AS n, max(user_id = ?) AS me, min(created_at) AS first
       FROM reactions WHERE message_id = ? GROUP BY emoji_key ORDER BY first, emoji_key`,
    );
    this.reactorRows = d.store.db.query("SELECT DISTINCT user_id FROM reactions WHERE message_id = ?");
  }

  /** The model of a message by id, or null when it does not exist. */
  byId(id: string, opts: MessageReadOptions = {}): MessageModel | null {
    const row = this.messages.get(id);
    return row ? this.message(row, opts) : null;
  }

  message(row: Message, opts: MessageReadOptions = {}, depth = 0): MessageModel {
    const channel = opts.channel && opts.channel.id === row.channel_id ? opts.channel : this.guilds.channel(row.channel_id);
    const out: MessageModel = {
      message: row,
      channel,
      author: this.author(row),
      mentions: this.mentionedUsers(row),
      mentionRoleIds: row.mention_roles === "[]" ? [] : (JSON.parse(row.mention_roles) as string[]),
      attachments: this.messages.files.of(row.id),
      reactions: opts.reactions === false ? null : this.reactions(row.id, opts.viewerId ?? null),
      interaction: row.interaction_id ? this.interactionOf(row.interaction_id) : null,
    };
    if (row.reference_message_id && row.type === MESSAGE_TYPE.REPLY && depth === 0) {
      const ref = this.messages.get(row.reference_message_id);
      out.referenced = ref ? this.message(ref, { viewerId: opts.viewerId }, 1) : null;
    }
    if (opts.member) {
      const guildId = channel?.guild_id;
      out.member = guildId && !row.webhook_id && !row.ephemeral_user_id ? this.guildReads.member(guildId, row.author_id, false) : null;
      if (guildId && out.mentions.length) out.mentionMembers = this.mentionMembers(guildId, out.mentions);
    }
    return out;
  }

  /** One entry per emoji, in order of first use, with `me` for the viewer. */
  reactions(messageId: string, viewerId: string | null): ReactionSummary[] {
    if (!this.messages.mayHaveReactions(messageId)) return [];
    const rows = this.reactionRows().all(viewerId ?? "", messageId) as {
      emoji_name: string | null;
      emoji_id: string | null;
      emoji_animated: number;
      n: number;
      me: number;
    }[];
    return rows.map((r) => ({ emoji: { id: r.emoji_id, name: r.emoji_name, animated: !!r.emoji_animated }, count: r.n, me: !!r.me }));
  }

  /** Who reacted to a message, each once: the only viewers whose `me` flags differ. */
  reactorIds(messageId: string): string[] {
    return (this.reactorRows.all(messageId) as { user_id: string }[]).map((r) => r.user_id);
  }

  private author(row: Message): AuthorModel {
    if (row.webhook_id) return { kind: "webhook", id: row.webhook_id, name: row.webhook_name ?? "Webhook", avatar: row.webhook_avatar };
    // A deleted author (a person, an application's bot) still wrote what they wrote: their row stays for it.
    const user = this.users.get(row.author_id);
    if (!user) throw DomainError.notFound("user");
    return { kind: "user", user };
  }

  private mentionedUsers(row: Message): User[] {
    if (row.mentions === "[]") return [];
    return (JSON.parse(row.mentions) as string[]).map((id) => this.users.get(id)).filter((u): u is User => u !== null);
  }

  /** The mentioned users who are members of the server, with their memberships. */
  private mentionMembers(guildId: string, mentions: readonly User[]): Map<string, MemberModel> {
    const out = new Map<string, MemberModel>();
    for (const u of mentions) {
      const m = this.guildReads.member(guildId, u.id, false);
      if (m) out.set(u.id, m);
    }
    return out;
  }

  private interactionOf(id: string): MessageInteractionModel | null {
    const row = this.interactions.get(id);
    const user = row ? this.users.get(row.user_id) : null;
    return row && user ? { interaction: row, user, data: this.interactions.data(row) } : null;
  }
}
