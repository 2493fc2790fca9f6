import type { CoreDeps } from "./deps";
import type { Channel } from "./models";
import type { Users } from "./users";
import { DomainError } from "./errors";
import { dmRecipientIds } from "./access";

/**
 * Direct-message channels: one per pair of users, created on first use. Who may open one
 * is each door's rule (a bot: a person it shares a server with; a person: anyone they
 * share a server with); the channel itself is the same whoever opened it.
 */
export class Dms {
  /**
   * A test world's departure from spec 1.6 (harness seed, off by default): DMs between a
   * person and a bot carry plaintext, as on the reference platform, so a bot's DM
   * commands can be tested. DMs between people stay end-to-end encrypted.
   */
  private referenceDms = false;

  constructor(
    private readonly d: CoreDeps,
    private readonly users: Users,
  ) {
    d.bus.subscribe((e) => {
      if (e.type === "world.reset") this.referenceDms = false;
    });
  }

  /** A test world's choice (harness seed): plaintext DMs between people and bots, or none. */
  setReferenceDms(on: boolean): void {
    this.referenceDms = on;
  }

  private get db() {
    return this.d.store.db;
  }

  recipients(channelId: string): string[] {
    return dmRecipientIds(this.d, channelId);
  }

  /** Whether two users share at least one server. */
  sharesGuild(a: string, b: string): boolean {
    return !!this.db
      .query("SELECT 1 FROM members x JOIN members y ON y.guild_id = x.guild_id AND y.user_id = ? WHERE x.user_id = ? LIMIT 1")
      .get(b, a);
  }

  /** A user's DM channels they have not closed, oldest first. */
  of(userId: string): Channel[] {
    return this.db
      .query(
        "SELECT c.* FROM channel_rows c JOIN dm_recipients r ON r.channel_id = c.id WHERE r.user_id = ? AND r.closed = 0 AND c.type = 1 ORDER BY c.id",
      )
      .all(userId) as Channel[];
  }

  /**
   * A recipient closes a DM (DELETE /channels/{id}): it leaves their list, their other
   * browsers hear so, and nothing else changes: the other recipient keeps it, and the
   * history stays. A new message in it, or opening it again, brings it back (reopen).
   */
  close(userId: string, channelId: string): void {
    this.d.store.write(() => {
      const closed = this.db
        .query("UPDATE dm_recipients SET closed = 1 WHERE channel_id = ? AND user_id = ? AND closed = 0")
        .run(channelId, userId).changes;
      if (closed) this.d.store.emit({ type: "dm.closed", channelId, userId });
    });
  }

  /**
   * Inside a write: the DM is back in the lists of the recipients who had closed it (only
   * `who`'s, when given): a message was posted in it, or `who` opened it again.
   */
  reopen(channelId: string, who: string | null = null): void {
    const closed = (
      this.db.query("SELECT user_id FROM dm_recipients WHERE channel_id = ? AND closed = 1").all(channelId) as { user_id: string }[]
    )
      .map((r) => r.user_id)
      .filter((u) => who === null || u === who);
    if (!closed.length) return;
    for (const u of closed) this.db.query("UPDATE dm_recipients SET closed = 0 WHERE channel_id = ? AND user_id = ?").run(channelId, u);
    this.d.store.emit({ type: "dm.reopened", channelId, userIds: closed });
  }

  /** The DM channel between two users, or null. */
  between(a: string, b: string): Channel | null {
    return this.db
      .query(
        "SELECT c.* FROM channel_rows c JOIN dm_recipients x ON x.channel_id = c.id AND x.user_id = ? JOIN dm_recipients y ON y.channel_id = c.id AND y.user_id = ? WHERE c.type = 1",
      )
      .get(a, b) as Channel | null;
  }

  /**
   * A bot opens a DM with a person it shares a server with (reference-gaps 2.11: an
   * existing DM is returned). Other bots and strangers: 403 50001.
   */
  openAsBot(botUserId: string, recipientId: string): Channel {
    const other = this.users.get(recipientId);
    if (!other || other.deleted_at) throw DomainError.notFound("user");
    if (recipientId === botUserId)
      throw DomainError.invalid("recipient_id", "Cannot open a direct message with yourself", "INVALID_RECIPIENT");
    if (other.kind === "bot" || !this.sharesGuild(botUserId, recipientId)) throw DomainError.forbidden("Cannot send messages to this user");
    return this.open(botUserId, recipientId);
  }

  /** The DM channel between two users, created on first use (an existing one is returned). */
  open(a: string, b: string): Channel {
    if (a === b) throw DomainError.invalid("recipient_id", "Cannot open a direct message with yourself", "INVALID_RECIPIENT");
    return this.d.store.write(() => {
      const ua = this.users.require(a);
      const ub = this.users.require(b);
      // One DM channel a pair: looked for and made by one writer at a time on every node.
      this.d.store.serialize(`dm:${a < b ? `${a}:${b}` : `${b}:${a}`}`);
      const existing = this.between(a, b);
      if (existing) {
        this.reopen(existing.id, a);
        return existing;
      }
      const plaintext = this.referenceDms && (ua.kind === "bot" || ub.kind === "bot");
      const c: Channel = {
        id: this.d.ids.next(),
        guild_id: null,
        type: 1,
        name: null,
        topic: null,
        position: 0,
        parent_id: null,
        nsfw: 0,
        rate_limit_per_user: 0,
        user_limit: null,
        bitrate: null,
        e2e: plaintext ? 0 : 1,
        last_message_id: null,
        created_at: this.d.clock.now(),
      };
      this.db
        .query(
          `INSERT INTO channels (id, guild_id, type, name, topic, position, parent_id, nsfw, rate_limit_per_user, user_limit, bitrate, e2e, created_at)
           VALUES ($id, $guild_id, $type, $name, $topic, $position, $parent_id, $nsfw, $rate_limit_per_user, $user_limit, $bitrate, $e2e, $created_at)`,
        )
        .run(c as never);
      this.db.query("INSERT INTO dm_recipients (channel_id, user_id) VALUES (?, ?), (?, ?)").run(c.id, a, c.id, b);
      // People's clients list the new DM at once; bots get no CHANNEL_CREATE for DMs in v10.
      this.d.store.emit({ type: "channel.created", channelId: c.id, guildId: null });
      return c;
    });
  }
}
