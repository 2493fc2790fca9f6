import type { CoreDeps } from "./deps";
import type { Guilds } from "./guilds";
import type { Messages } from "./messages";
import type { Message, User } from "./models";
import { DomainError } from "./errors";
import { accessChannel, requireBits } from "./access";
import { PERMISSIONS } from "./permissions";
import { USER_COLUMNS } from "./rows";
import { UUID } from "./mentions";
import type { Emojis } from "./emojis";

export interface Emoji {
  name: string | null;
  /** Custom emoji: a server's emoji's internal id (the wire layer maps a bot's snowflake; one it cannot stays as written, and is unknown). */
  id: string | null;
  animated?: boolean;
}

const UNICODE_EMOJI =
  /^(?:\p{Extended_Pictographic}|\p{Emoji_Presentation}|\p{Regional_Indicator}|\p{Emoji_Modifier}|[#*0-9]|\u20e3|\ufe0f|\u200d|[\u{E0020}-\u{E007F}])+$/u;
const HAS_PICTURE = /\p{Extended_Pictographic}|\p{Emoji_Presentation}|\p{Regional_Indicator}|\u20e3/u;
const CUSTOM_NAME = /^[A-Za-z0-9_]{2,32}$/;
const CUSTOM_ID = new RegExp(`^(?:0|[1-9][0-9]{0,19}|${UUID})$`);

/** Whether an emoji is well formed: one unicode emoji sequence, or a custom name with an id. */
export function validEmoji(e: Emoji): boolean {
  // An internal id, or decimal without leading zeros: one emoji, one spelling (a reaction's key is its id).
  if (e.id !== null) return CUSTOM_ID.test(e.id) && (e.name === null || CUSTOM_NAME.test(e.name));
  if (!e.name || e.name.length > 64) return false;
  return UNICODE_EMOJI.test(e.name) && HAS_PICTURE.test(e.name);
}

/** Different emoji one message may carry (reference-gaps 30010). */
export const MAX_REACTION_EMOJI = 20;

function key(e: Emoji): string {
  return e.id ?? e.name ?? "";
}

/**
 * Reactions. Parley has no ADD_REACTIONS bit (not one of the 13), so whoever can see a
 * message can react to it; removing someone else's reaction needs MANAGE_MESSAGES.
 * The "remove all" operations fire one reaction.removed per removed reaction, because
 * MESSAGE_REACTION_REMOVE_ALL and _REMOVE_EMOJI are never dispatched (spec 6.2).
 */
export class Reactions {
  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly messages: Messages,
    private readonly emojis: Pick<Emojis, "inGuild">,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  /** The message, if `userId` can see it (and, when given, it is in `channelId`). */
  private visible(userId: string, messageId: string, channelId?: string): Message {
    const m = this.messages.get(messageId);
    if (!m || (channelId && m.channel_id !== channelId)) throw DomainError.notFound("message");
    accessChannel(this.d, this.guilds, userId, m.channel_id);
    if (m.ephemeral_user_id && m.ephemeral_user_id !== userId) throw DomainError.notFound("message");
    return m;
  }

  private check(emoji: Emoji): void {
    if (!validEmoji(emoji)) throw DomainError.notFound("emoji");
  }

  /**
   * React. A custom emoji (`name:id`) must be one of the message's server (its name is
   * taken from the server's emoji, whatever name the caller wrote); any other is unknown
   * (400 10014, as the reference answers), DMs included.
   */
  add(userId: string, messageId: string, given: Emoji, opts: { channelId?: string } = {}): void {
    this.check(given);
    this.d.store.write(() => {
      const m = this.visible(userId, messageId, opts.channelId);
      const emoji = given.id === null ? given : this.custom(m, given.id);
      this.requireRoomFor(m, key(emoji));
      const res = this.db
        .query(
          "INSERT OR IGNORE INTO reactions (message_id, emoji_key, emoji_name, emoji_id, emoji_animated, user_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .run(m.id, key(emoji), emoji.name, emoji.id, emoji.animated ? 1 : 0, userId, this.d.clock.now());
      if (res.changes) this.emit("reaction.added", m, userId, emoji);
    });
  }

  /**
   * At most 20 different emoji on a message (reference-gaps 30010): every reaction rides
   * in every view of its message, so without a cap one member could bloat any message
   * they can see. Counted by one writer at a time per message on every node.
   */
  private requireRoomFor(m: Message, emojiKey: string): void {
    this.d.store.serialize(`reactions:${m.id}`);
    const keys = this.db.query("SELECT DISTINCT emoji_key AS k FROM reactions WHERE message_id = ?").all(m.id) as { k: string }[];
    if (keys.length >= MAX_REACTION_EMOJI && !keys.some((r) => r.k === emojiKey))
      throw DomainError.maximum(30010, `Maximum number of reactions reached (${MAX_REACTION_EMOJI})`);
  }

  private custom(m: Message, id: string): Emoji {
    const e = this.emojis.inGuild(this.guilds.channel(m.channel_id)?.guild_id ?? null, id);
    if (!e) throw new DomainError("unknown_emoji", "Unknown Emoji");
    return { name: e.name, id: e.id, animated: !!e.animated };
  }

  /** Remove one's own reaction; removing one that is not there is a quiet no-op (204). */
  remove(userId: string, messageId: string, emoji: Emoji, opts: { channelId?: string } = {}): void {
    this.check(emoji);
    this.d.store.write(() => {
      const m = this.visible(userId, messageId, opts.channelId);
      this.removeRow(m, userId, emoji);
    });
  }

  /** Remove another user's reaction (MANAGE_MESSAGES in a guild channel). */
  removeUser(actorId: string, messageId: string, emoji: Emoji, targetUserId: string, opts: { channelId?: string } = {}): void {
    this.check(emoji);
    this.d.store.write(() => {
      const m = this.visible(actorId, messageId, opts.channelId);
      if (targetUserId !== actorId) this.requireManage(actorId, m);
      this.removeRow(m, targetUserId, emoji);
    });
  }

  /** Remove every reaction of one emoji, or every reaction when emoji is null (MANAGE_MESSAGES). */
  removeAll(actorId: string, messageId: string, emoji: Emoji | null, opts: { channelId?: string } = {}): number {
    if (emoji) this.check(emoji);
    return this.d.store.write(() => {
      const m = this.visible(actorId, messageId, opts.channelId);
      this.requireManage(actorId, m);
      const rows = this.db
        .query(
          `SELECT user_id, emoji_name, emoji_id, emoji_animated FROM reactions WHERE message_id = ? ${emoji ? "AND emoji_key = ?" : ""} ORDER BY created_at, user_id`,
        )
        .all(...(emoji ? [m.id, key(emoji)] : [m.id])) as {
        user_id: string;
        emoji_name: string | null;
        emoji_id: string | null;
        emoji_animated: number;
      }[];
      for (const r of rows) this.removeRow(m, r.user_id, { name: r.emoji_name, id: r.emoji_id, animated: !!r.emoji_animated });
      return rows.length;
    });
  }

  /** Users who reacted with an emoji, ordered by user id, after `after`, at most `limit`. */
  private users(messageId: string, emoji: Emoji, page: { after?: string; limit?: number } = {}): User[] {
    return this.db
      .query(
        `SELECT ${USER_COLUMNS("u")} FROM reactions r JOIN users u ON u.id = r.user_id WHERE r.message_id = ? AND r.emoji_key = ? AND r.user_id > ? ORDER BY r.user_id LIMIT ?`,
      )
      .all(messageId, key(emoji), page.after ?? "", page.limit ?? 25) as User[];
  }

  /**
   * Who reacted, for someone who may see the message (a member of its server, or one of a
   * DM's two people; a bot or a person): the one door, after the same access check as reacting.
   */
  usersSeenBy(
    viewerId: string,
    messageId: string,
    emoji: Emoji,
    page: { after?: string; limit?: number; channelId?: string } = {},
  ): User[] {
    this.check(emoji);
    const m = this.visible(viewerId, messageId, page.channelId);
    return this.users(m.id, emoji, page);
  }

  private requireManage(actorId: string, m: Message): void {
    const a = accessChannel(this.d, this.guilds, actorId, m.channel_id);
    if (a.isDm) throw DomainError.forbidden("Cannot execute action on a DM channel");
    requireBits(a, PERMISSIONS.MANAGE_MESSAGES);
  }

  private removeRow(m: Message, userId: string, emoji: Emoji): void {
    const row = this.db
      .query("SELECT emoji_name, emoji_id, emoji_animated FROM reactions WHERE message_id = ? AND emoji_key = ? AND user_id = ?")
      .get(m.id, key(emoji), userId) as { emoji_name: string | null; emoji_id: string | null; emoji_animated: number } | null;
    if (!row) return;
    this.db.query("DELETE FROM reactions WHERE message_id = ? AND emoji_key = ? AND user_id = ?").run(m.id, key(emoji), userId);
    this.emit("reaction.removed", m, userId, { name: row.emoji_name, id: row.emoji_id, animated: !!row.emoji_animated });
  }

  private emit(type: "reaction.added" | "reaction.removed", m: Message, userId: string, emoji: Emoji): void {
    const ch = this.guilds.channel(m.channel_id);
    this.d.store.emit({
      type,
      messageId: m.id,
      channelId: m.channel_id,
      guildId: ch?.guild_id ?? null,
      userId,
      emoji: { name: emoji.name, id: emoji.id, animated: !!emoji.animated },
      messageAuthorId: m.author_id,
    });
  }
}
