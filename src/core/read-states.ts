import type { CoreDeps } from "./deps";
import { statement } from "./statement";
import type { Guilds } from "./guilds";
import type { Dms } from "./dms";
import type { Channel } from "./models";
import { canSee } from "./access";
import { TEXT_CHANNEL_TYPES } from "./channel-types";
import { DomainError } from "./errors";

/** How far a person has read a channel, and what is waiting there for them. */
export interface ReadState {
  channelId: string;
  /** The last message marked read; null when the person never marked this channel. */
  lastReadId: string | null;
  /** A message by someone else arrived after the last read one. */
  unread: boolean;
  /** Of those, how many mention the person (directly, by a role they hold, or @everyone; in a DM, every one). */
  mentionCount: number;
}

/** Mentions are counted over at most this many unread messages (a client shows "99+" anyway). */
const MENTION_SCAN = 1000;

/**
 * Read states (migration 005). Without a row, what arrived after the person joined the
 * server is unread (a DM: everything). Marking only moves forward, so a late request
 * from an old tab cannot bring back what a newer one read; only the person's own "Mark
 * unread" moves it back (markUnread).
 */
export class ReadStates {
  private readonly row;
  private readonly unreadAfter;
  private readonly mentionsAfter;
  private readonly joinedAt;
  private readonly upsert;

  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly dms: Dms,
  ) {
    // Prepared on first use, not while the server starts (core/statement.ts).
    const lazy = (sql: string) => statement(d.store, sql);
    this.row = lazy("SELECT last_read_id FROM read_states WHERE user_id = ? AND channel_id = ?");
    this.joinedAt = lazy("SELECT joined_at FROM members WHERE guild_id = ? AND user_id = ?");
    // ?1 channel, ?2 position, ?3 person, ?4 earliest time counted
    this.unreadAfter = lazy(
      `SELECT 1 FROM messages WHERE channel_id = ?1 AND id > ?2 AND author_id != ?3 AND ephemeral_user_id IS NULL AND created_at >= ?4 LIMIT 1`,
    );
    this.mentionsAfter = lazy(
      `SELECT count(*) AS n FROM (
         SELECT m.* FROM messages m WHERE m.channel_id = ?1 AND m.id > ?2 AND m.author_id != ?3 AND m.ephemeral_user_id IS NULL AND m.created_at >= ?4
         ORDER BY m.id DESC LIMIT ${MENTION_SCAN}
       ) m
       WHERE ?5 = 1 OR m.mention_everyone = 1
          OR EXISTS (SELECT 1 FROM json_each(m.mentions) j WHERE j.value = ?3)
          OR EXISTS (SELECT 1 FROM json_each(m.mention_roles) j JOIN member_roles r ON r.role_id = j.value AND r.user_id = ?3)`,
    );
    this.upsert = lazy(
      `INSERT INTO read_states (user_id, channel_id, last_read_id) VALUES (?, ?, ?)
       ON CONFLICT (user_id, channel_id) DO UPDATE SET last_read_id = max(last_read_id, excluded.last_read_id)`,
    );
  }

  /** The read state of one channel the person can see. */
  of(userId: string, channel: Channel): ReadState {
    const last = (this.row().get(userId, channel.id) as { last_read_id: string } | null)?.last_read_id ?? null;
    // Without a row, a server channel counts from the person's arrival in the server.
    const since =
      last === null && channel.guild_id
        ? ((this.joinedAt().get(channel.guild_id, userId) as { joined_at: number } | null)?.joined_at ?? 0)
        : 0;
    const after = last ?? "";
    const unread = this.unreadAfter().get(channel.id, after, userId, since) !== null;
    const dm = channel.guild_id === null ? 1 : 0;
    const mentionCount = unread ? (this.mentionsAfter().get(channel.id, after, userId, since, dm) as { n: number }).n : 0;
    return { channelId: channel.id, lastReadId: last, unread, mentionCount };
  }

  /** Every text channel of the person's servers and every DM of theirs. */
  all(userId: string): ReadState[] {
    const channels = [
      ...this.guilds.guildIdsOf(userId).flatMap((g) => this.guilds.channels(g).filter((c) => TEXT_CHANNEL_TYPES.has(c.type))),
      ...this.dms.of(userId),
    ];
    return channels.map((c) => this.of(userId, c));
  }

  /**
   * Mark a channel read up to a message of it (never backwards); fires read_state.updated.
   * A message deleted by the time the mark arrives (a page marks what it shows, and it
   * was just taken back) marks up to the one the person could see before it, if any.
   */
  mark(userId: string, channelId: string, messageId: string): ReadState {
    return this.d.store.write(() => {
      const channel = this.visible(userId, channelId);
      const there = this.messageThere(userId, channel, messageId);
      const upTo = there ? messageId : this.seenBefore(userId, channel.id, messageId);
      if (upTo === null) return this.of(userId, channel);
      this.upsert().run(userId, channel.id, upTo);
      this.d.store.emit({ type: "read_state.updated", userId, channelId: channel.id });
      return this.of(userId, channel);
    });
  }

  /**
   * "Mark unread": the channel read up to the message before `messageId` (one the person
   * may see), so it and everything after it by others is unread again; the one way a mark
   * moves back, asked for by the person. A message before anything else they may see
   * there leaves no mark (unread from their arrival, as before any mark). Fires
   * read_state.updated so their other tabs follow.
   */
  markUnread(userId: string, channelId: string, messageId: string): ReadState {
    return this.d.store.write(() => {
      const channel = this.visible(userId, channelId);
      if (!this.messageThere(userId, channel, messageId)) throw DomainError.notFound("message");
      const before = this.seenStrictlyBefore(userId, channel.id, messageId);
      const db = this.d.store.db;
      if (before === null) db.query("DELETE FROM read_states WHERE user_id = ? AND channel_id = ?").run(userId, channel.id);
      // Back where there is a mark; a first mark is the upsert's insert.
      else if (
        db.query("UPDATE read_states SET last_read_id = ? WHERE user_id = ? AND channel_id = ?").run(before, userId, channel.id).changes ===
        0
      )
        this.upsert().run(userId, channel.id, before);
      this.d.store.emit({ type: "read_state.updated", userId, channelId: channel.id });
      return this.of(userId, channel);
    });
  }

  /**
   * Mark every text channel of a server the person can see read up to its newest message
   * they may see (a server's "Mark as read"); each channel that moved fires
   * read_state.updated. A server they are not in is one that does not exist.
   */
  markServer(userId: string, guildId: string): ReadState[] {
    return this.d.store.write(() => {
      if (!this.guilds.isMember(guildId, userId)) throw DomainError.notFound("guild");
      const out: ReadState[] = [];
      for (const channel of this.guilds.channels(guildId)) {
        if (!TEXT_CHANNEL_TYPES.has(channel.type) || !canSee(this.d, this.guilds, channel, userId)) continue;
        const newest = this.newestSeen(userId, channel.id);
        const last = (this.row().get(userId, channel.id) as { last_read_id: string } | null)?.last_read_id ?? null;
        if (newest !== null && (last === null || newest > last)) {
          this.upsert().run(userId, channel.id, newest);
          this.d.store.emit({ type: "read_state.updated", userId, channelId: channel.id });
        }
        out.push(this.of(userId, channel));
      }
      return out;
    });
  }

  /** A channel the person can see, or 404. */
  private visible(userId: string, channelId: string): Channel {
    const channel = this.guilds.channel(channelId);
    if (!channel || !canSee(this.d, this.guilds, channel, userId)) throw DomainError.notFound("channel");
    return channel;
  }

  /**
   * Whether the message is there for the person in this channel: false when it is gone;
   * another channel's, or someone else's ephemeral answer, is 404.
   */
  private messageThere(userId: string, channel: Channel, messageId: string): boolean {
    const m = this.d.store.db.query("SELECT channel_id, ephemeral_user_id FROM messages WHERE id = ?").get(messageId) as {
      channel_id: string;
      ephemeral_user_id: string | null;
    } | null;
    if (m && (m.channel_id !== channel.id || (m.ephemeral_user_id !== null && m.ephemeral_user_id !== userId)))
      throw DomainError.notFound("message");
    return m !== null;
  }

  /** The newest message of the channel the person may see, or null. */
  private newestSeen(userId: string, channelId: string): string | null {
    const row = this.d.store.db
      .query(
        "SELECT id FROM messages WHERE channel_id = ? AND (ephemeral_user_id IS NULL OR ephemeral_user_id = ?) ORDER BY id DESC LIMIT 1",
      )
      .get(channelId, userId) as { id: string } | null;
    return row?.id ?? null;
  }

  /** The newest message of the channel at or before `id` that the person may see, or null. */
  private seenBefore(userId: string, channelId: string, id: string): string | null {
    const row = this.d.store.db
      .query(
        "SELECT id FROM messages WHERE channel_id = ? AND id <= ? AND (ephemeral_user_id IS NULL OR ephemeral_user_id = ?) ORDER BY id DESC LIMIT 1",
      )
      .get(channelId, id, userId) as { id: string } | null;
    return row?.id ?? null;
  }

  /** The newest message of the channel before `id` that the person may see, or null. */
  private seenStrictlyBefore(userId: string, channelId: string, id: string): string | null {
    const row = this.d.store.db
      .query(
        "SELECT id FROM messages WHERE channel_id = ? AND id < ? AND (ephemeral_user_id IS NULL OR ephemeral_user_id = ?) ORDER BY id DESC LIMIT 1",
      )
      .get(channelId, id, userId) as { id: string } | null;
    return row?.id ?? null;
  }
}
