import type { CoreDeps } from "./deps";
import type { ChannelRow, MessageRow } from "./types";
import type { Guilds } from "./guilds";
import type { Users } from "./users";
import { DomainError } from "./errors";

export interface NewMessage {
  channelId: string;
  authorId: string;
  content?: string;
  /** A person's DM message: the opaque ciphertext their client produced. */
  ciphertext?: string | null;
  embeds?: unknown[];
  components?: unknown[];
  flags?: number;
  nonce?: string | null;
  tts?: boolean;
  type?: number;
  mentionEveryone?: boolean;
  reference?: { messageId: string; channelId: string; guildId: string | null } | null;
  webhook?: { id: string; name: string; avatar: string | null } | null;
  applicationId?: string | null;
  interactionId?: string | null;
  ephemeralUserId?: string | null;
}

export interface MessagePatch {
  content?: string;
  embeds?: unknown[];
  components?: unknown[];
  flags?: number;
  ciphertext?: string | null;
}

export interface Page {
  before?: string; // internal id bound (exclusive)
  after?: string;
  around?: string;
  limit: number;
}

export const EPHEMERAL = 1 << 6;

/**
 * Messages and direct-message channels. Store-level operations; the permission rules of
 * each surface (bot API, people's API) are applied by the callers through Guilds.
 * DMs between people are end-to-end encrypted: the server keeps only ciphertext.
 */
export class Messages {
  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly users: Users,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  get(id: string): MessageRow | null {
    return this.db.query("SELECT * FROM messages WHERE id = ?").get(id) as MessageRow | null;
  }

  /** The message, if it is in this channel and visible to `viewerId` (ephemeral ones only to their person). */
  require(channelId: string, id: string, viewerId?: string): MessageRow {
    const m = this.get(id);
    if (!m || m.channel_id !== channelId || (m.ephemeral_user_id && m.ephemeral_user_id !== viewerId)) throw DomainError.notFound("message");
    return m;
  }

  create(input: NewMessage): MessageRow {
    return this.d.store.write(() => {
      const ch = this.guilds.requireChannel(input.channelId);
      const now = this.d.clock.now();
      const m: MessageRow = {
        id: this.d.ids.next(),
        channel_id: ch.id,
        author_id: input.authorId,
        type: input.type ?? (input.reference ? 19 : 0),
        content: input.ciphertext ? "" : (input.content ?? ""),
        ciphertext: input.ciphertext ?? null,
        embeds: JSON.stringify(input.ciphertext ? [] : (input.embeds ?? [])),
        components: JSON.stringify(input.components ?? []),
        flags: input.flags ?? 0,
        nonce: input.nonce ?? null,
        tts: input.tts ? 1 : 0,
        mention_everyone: input.mentionEveryone ? 1 : 0,
        reference_message_id: input.reference?.messageId ?? null,
        reference_channel_id: input.reference?.channelId ?? null,
        reference_guild_id: input.reference?.guildId ?? null,
        webhook_id: input.webhook?.id ?? null,
        webhook_name: input.webhook?.name ?? null,
        webhook_avatar: input.webhook?.avatar ?? null,
        application_id: input.applicationId ?? null,
        interaction_id: input.interactionId ?? null,
        ephemeral_user_id: input.ephemeralUserId ?? null,
        pinned: 0,
        created_at: now,
        edited_at: null,
      };
      this.db
        .query(
          `INSERT INTO messages (id, channel_id, author_id, type, content, ciphertext, embeds, components, flags, nonce, tts, mention_everyone,
             reference_message_id, reference_channel_id, reference_guild_id, webhook_id, webhook_name, webhook_avatar, application_id,
             interaction_id, ephemeral_user_id, pinned, created_at, edited_at)
           VALUES ($id, $channel_id, $author_id, $type, $content, $ciphertext, $embeds, $components, $flags, $nonce, $tts, $mention_everyone,
             $reference_message_id, $reference_channel_id, $reference_guild_id, $webhook_id, $webhook_name, $webhook_avatar, $application_id,
             $interaction_id, $ephemeral_user_id, $pinned, $created_at, $edited_at)`,
        )
        .run(m as never);
      if (!m.ephemeral_user_id) this.db.query("UPDATE channels SET last_message_id = ? WHERE id = ?").run(m.id, ch.id);
      this.d.store.emit({ type: "message.created", messageId: m.id, channelId: ch.id, guildId: ch.guild_id });
      return m;
    });
  }

  /** Replace the given parts; absent keys are kept, `[]` clears (spec 4 rule 4). */
  edit(id: string, patch: MessagePatch): MessageRow {
    return this.d.store.write(() => {
      const m = this.get(id);
      if (!m) throw DomainError.notFound("message");
      const next: MessageRow = {
        ...m,
        content: patch.content ?? m.content,
        ciphertext: patch.ciphertext !== undefined ? patch.ciphertext : m.ciphertext,
        embeds: patch.embeds !== undefined ? JSON.stringify(patch.embeds) : m.embeds,
        components: patch.components !== undefined ? JSON.stringify(patch.components) : m.components,
        flags: patch.flags ?? m.flags,
        edited_at: this.d.clock.now(),
      };
      this.db
        .query("UPDATE messages SET content = ?, ciphertext = ?, embeds = ?, components = ?, flags = ?, edited_at = ? WHERE id = ?")
        .run(next.content, next.ciphertext, next.embeds, next.components, next.flags, next.edited_at, id);
      const ch = this.guilds.requireChannel(m.channel_id);
      this.d.store.emit({ type: "message.updated", messageId: id, channelId: m.channel_id, guildId: ch.guild_id });
      return next;
    });
  }

  delete(id: string): void {
    this.d.store.write(() => {
      const m = this.get(id);
      if (!m) throw DomainError.notFound("message");
      const ch = this.guilds.requireChannel(m.channel_id);
      this.db.query("DELETE FROM messages WHERE id = ?").run(id);
      this.d.store.emit({ type: "message.deleted", messageId: id, channelId: m.channel_id, guildId: ch.guild_id, ephemeralUserId: m.ephemeral_user_id });
    });
  }

  /**
   * A page of a channel's history, newest first. Ephemeral messages are included only
   * for their own person (`viewerId`).
   */
  list(channelId: string, page: Page, viewerId: string | null): MessageRow[] {
    const vis = "(ephemeral_user_id IS NULL OR ephemeral_user_id = ?)";
    const viewer = viewerId ?? "";
    if (page.around) {
      const half = Math.floor(page.limit / 2);
      const older = this.db
        .query(`SELECT * FROM messages WHERE channel_id = ? AND id <= ? AND ${vis} ORDER BY id DESC LIMIT ?`)
        .all(channelId, page.around, viewer, page.limit - half) as MessageRow[];
      const newer = this.db
        .query(`SELECT * FROM messages WHERE channel_id = ? AND id > ? AND ${vis} ORDER BY id ASC LIMIT ?`)
        .all(channelId, page.around, viewer, half) as MessageRow[];
      return [...newer.reverse(), ...older];
    }
    if (page.after) {
      const rows = this.db
        .query(`SELECT * FROM messages WHERE channel_id = ? AND id > ? AND ${vis} ORDER BY id ASC LIMIT ?`)
        .all(channelId, page.after, viewer, page.limit) as MessageRow[];
      return rows.reverse();
    }
    return this.db
      .query(`SELECT * FROM messages WHERE channel_id = ? AND id < ? AND ${vis} ORDER BY id DESC LIMIT ?`)
      .all(channelId, page.before ?? "\uffff", viewer, page.limit) as MessageRow[];
  }

  // ---- direct messages ----

  dmRecipients(channelId: string): string[] {
    return (this.db.query("SELECT user_id FROM dm_recipients WHERE channel_id = ? ORDER BY user_id").all(channelId) as { user_id: string }[]).map(
      (r) => r.user_id,
    );
  }

  /** The DM channel between two users, created on first use (an existing one is returned). */
  openDm(a: string, b: string): ChannelRow {
    if (a === b) throw DomainError.invalid("recipient_id", "Cannot open a direct message with yourself", "INVALID_RECIPIENT");
    return this.d.store.write(() => {
      this.users.require(a);
      this.users.require(b);
      const existing = this.db
        .query(
          "SELECT c.* FROM channels c JOIN dm_recipients x ON x.channel_id = c.id AND x.user_id = ? JOIN dm_recipients y ON y.channel_id = c.id AND y.user_id = ? WHERE c.type = 1",
        )
        .get(a, b) as ChannelRow | null;
      if (existing) return existing;
      const c: ChannelRow = {
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
        e2e: 1,
        last_message_id: null,
        created_at: this.d.clock.now(),
      };
      this.db
        .query(
          `INSERT INTO channels (id, guild_id, type, name, topic, position, parent_id, nsfw, rate_limit_per_user, user_limit, bitrate, e2e, last_message_id, created_at)
           VALUES ($id, $guild_id, $type, $name, $topic, $position, $parent_id, $nsfw, $rate_limit_per_user, $user_limit, $bitrate, $e2e, $last_message_id, $created_at)`,
        )
        .run(c as never);
      this.db.query("INSERT INTO dm_recipients (channel_id, user_id) VALUES (?, ?), (?, ?)").run(c.id, a, c.id, b);
      return c;
    });
  }

  /** Whether a user may see a channel: a member of its guild, or a DM recipient. */
  canSee(channel: ChannelRow, userId: string): boolean {
    if (channel.guild_id) return this.guilds.isMember(channel.guild_id, userId);
    return this.dmRecipients(channel.id).includes(userId);
  }
}
