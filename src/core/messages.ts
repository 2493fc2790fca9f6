// Longer than 400 lines because it is the one door for every message action (send, edit, delete, bulk delete, history) and their rules; the payload types live in message-types.ts and files in message-attachments.ts.
import type { CoreDeps } from "./deps";
import type { Channel, Message } from "./models";
import type { Guilds } from "./guilds";
import type { Users } from "./users";
import { AUDIT, type Audit } from "./audit";
import { DomainError } from "./errors";
import { positionOf, uuidBound } from "./ids";
import { accessChannel, holds, requireBits, type ChannelAccess } from "./access";
import { PERMISSIONS } from "./permissions";
import type { Dms } from "./dms";
import { Memo } from "./memo";
import { TEXT_CHANNEL_TYPES } from "./channel-types";
import { decideMentions, EVERYONE, mentionLookup, type AllowedMentions, type MentionLookup } from "./mentions";
import { MessageAttachments } from "./message-attachments";
import {
  MESSAGE_TYPE,
  SENDABLE_FLAGS,
  SUPPRESS_EMBEDS,
  type EditInput,
  type MessagePatch,
  type NewMessage,
  type Page,
  type SendInput,
} from "./message-types";

export * from "./message-types";

/** A post begun by Messages.begin(): the channel is visible to the actor. */
export interface Draft {
  readonly channel: Channel;
  send(input: SendInput): Message;
}
const NONCE_WINDOW_MS = 2 * 60_000;

/**
 * Messages: store-level operations (create, edit, delete, pages) and the actor-facing
 * ones with every permission rule (send, fetch, history, edit and delete as an actor).
 * DMs between people are end-to-end encrypted: the server keeps only ciphertext.
 * Longer than 400 lines because it is the one door for every message action of every
 * surface (bots, people, webhooks, the harness), whose rules read best side by side.
 */
export class Messages {
  private readonly mentionLookup: MentionLookup;
  /**
   * Recent messages by id, kept while no existing message changes (inserts do not count:
   * a post keeps its own row here as it writes it, so its dispatch and later reads need
   * no statement). Bounded: rows are the largest values kept (core/memo.ts).
   */
  private readonly rows: Memo<Message | null>;
  /** Whether a message may carry reactions; a new one carries none until the reactions table changes. */
  private readonly reacted: Memo<boolean>;
  readonly files: MessageAttachments;
  /**
   * Whether a new message takes its position (migration 023): on SQLite, where writers
   * take turns. Postgres's nodes post at once, and a unique index would make one wait
   * for another's commit.
   */
  private readonly positions: boolean;

  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly users: Users,
    private readonly audit: Audit,
    private readonly dms: Dms,
  ) {
    this.rows = new Memo(d.store, ["messages!"], { max: 2000, keepNull: false, enabled: d.fastPaths.memo });
    this.reacted = new Memo(d.store, ["reactions"], { max: 5000, enabled: d.fastPaths.memo });
    this.mentionLookup = mentionLookup(guilds, users);
    this.files = new MessageAttachments(d, users);
    this.positions = d.store.engine.kind === "sqlite";
  }

  private get db() {
    return this.d.store.db;
  }

  get(id: string): Message | null {
    return this.rows.get(id, () => this.stmts().get.get(id) as Message | null);
  }

  /** False when the message is known to carry no reaction (the read model then skips the summary's query). */
  mayHaveReactions(id: string): boolean {
    return this.reacted.get(id, () => this.stmts().anyReaction.get(id) !== null);
  }

  /** The message, if it is in this channel and visible to `viewerId` (ephemeral ones only to their person). */
  require(channelId: string, id: string, viewerId?: string): Message {
    const m = this.get(id);
    if (!m || m.channel_id !== channelId || (m.ephemeral_user_id && m.ephemeral_user_id !== viewerId))
      throw DomainError.notFound("message");
    return m;
  }

  create(input: NewMessage): Message {
    return this.d.store.write(() => this.insert(this.guilds.requireChannel(input.channelId), input));
  }

  /** Insert into a channel row read in the same transaction (create() and send() share it). */
  private insert(ch: Channel, input: NewMessage): Message {
    const now = this.d.clock.now();
    const content = input.ciphertext ? "" : (input.content ?? "");
    const repliedAuthor = input.reference ? (this.get(input.reference.messageId)?.author_id ?? null) : null;
    const author = { id: input.authorId, channelId: ch.id, webhook: !!input.webhook };
    const mentioned = decideMentions(content, ch.guild_id, this.mentionLookup, input.allowedMentions ?? null, repliedAuthor, author);
    const id = this.d.ids.next();
    const m: Message = {
      id,
      channel_id: ch.id,
      author_id: input.authorId,
      type: input.type ?? (input.reference ? MESSAGE_TYPE.REPLY : MESSAGE_TYPE.DEFAULT),
      content,
      ciphertext: input.ciphertext ?? null,
      embeds: JSON.stringify(input.ciphertext ? [] : (input.embeds ?? [])),
      components: JSON.stringify(input.components ?? []),
      flags: input.flags ?? 0,
      nonce: input.nonce ?? null,
      tts: input.tts ? 1 : 0,
      mention_everyone: input.mentionEveryone ? 1 : 0,
      mentions: JSON.stringify(mentioned.users),
      mention_roles: JSON.stringify(mentioned.roles),
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
      position: this.positions ? positionOf(id) : null,
    };
    const q = this.stmts();
    // Its position taken (another process's id, a clock set back): the message goes without one.
    if (q.insert.run(m as never).changes === 0) {
      m.position = null;
      q.insert.run(m as never);
    }
    this.d.numberNew(m.id, m.position ?? null);
    this.d.search.added(m, ch);
    this.rows.put(m.id, m);
    this.reacted.put(m.id, false);
    this.files.none(m.id);
    // Before the message: a client that had closed the DM lists it again, then shows the message.
    if (ch.guild_id === null) this.dms.reopen(ch.id);
    this.d.store.emit({ type: "message.created", messageId: m.id, channelId: ch.id, guildId: ch.guild_id });
    return m;
  }

  private prepared: ReturnType<Messages["prepare"]> | null = null;

  /** The hot statements, prepared once rather than looked up by their text on every post. */
  private stmts() {
    return (this.prepared ??= this.prepare());
  }

  private prepare() {
    return {
      insert: this.db.query(
        `INSERT INTO messages (id, channel_id, author_id, type, content, ciphertext, embeds, components, flags, nonce, tts, mention_everyone,
           mentions, mention_roles, reference_message_id, reference_channel_id, reference_guild_id, webhook_id, webhook_name, webhook_avatar,
           application_id, interaction_id, ephemeral_user_id, pinned, created_at, edited_at, position)
         VALUES ($id, $channel_id, $author_id, $type, $content, $ciphertext, $embeds, $components, $flags, $nonce, $tts, $mention_everyone,
           $mentions, $mention_roles, $reference_message_id, $reference_channel_id, $reference_guild_id, $webhook_id, $webhook_name, $webhook_avatar,
           $application_id, $interaction_id, $ephemeral_user_id, $pinned, $created_at, $edited_at, $position)
         ON CONFLICT (position) DO NOTHING`,
      ),
      get: this.db.query("SELECT * FROM messages WHERE id = ?"),
      anyReaction: this.db.query("SELECT 1 FROM reactions WHERE message_id = ? LIMIT 1"),
    };
  }

  /**
   * Inside a write: hold one message until the write ends. An edit writes the row whole,
   * so it reads it as committed, one edit at a time on every node (Store.serialize): the
   * author's new text and a moderator's suppressed embeds at once both stay.
   */
  private lockMessage(id: string): void {
    this.d.store.serialize(`message:${id}`);
  }

  /**
   * Replace the given parts; absent keys are kept, `[]` clears (spec 4 rule 4).
   * `everyone`: whether new content from its author pings everyone, as editAs decided.
   */
  edit(id: string, patch: MessagePatch, everyone?: boolean): Message {
    return this.d.store.write(() => {
      this.lockMessage(id);
      const m = this.get(id);
      if (!m) throw DomainError.notFound("message");
      const ch = this.guilds.requireChannel(m.channel_id);
      const next: Message = {
        ...m,
        content: patch.content ?? m.content,
        ciphertext: patch.ciphertext !== undefined ? patch.ciphertext : m.ciphertext,
        embeds: patch.embeds !== undefined ? JSON.stringify(patch.embeds) : m.embeds,
        components: patch.components !== undefined ? JSON.stringify(patch.components) : m.components,
        flags: patch.flags ?? m.flags,
        mention_everyone: everyone === undefined ? m.mention_everyone : everyone ? 1 : 0,
        edited_at: this.d.clock.now(),
      };
      if (patch.content !== undefined) {
        const author = { id: m.author_id, channelId: ch.id, webhook: m.webhook_id !== null };
        const mentioned = decideMentions(
          next.content,
          ch.guild_id,
          this.mentionLookup,
          patch.allowedMentions ?? null,
          this.stillPingsReplied(m, patch),
          author,
        );
        next.mentions = JSON.stringify(mentioned.users);
        next.mention_roles = JSON.stringify(mentioned.roles);
      }
      this.db
        .query(
          "UPDATE messages SET content = ?, ciphertext = ?, embeds = ?, components = ?, flags = ?, mentions = ?, mention_roles = ?, mention_everyone = ?, edited_at = ? WHERE id = ?",
        )
        .run(
          next.content,
          next.ciphertext,
          next.embeds,
          next.components,
          next.flags,
          next.mentions,
          next.mention_roles,
          next.mention_everyone,
          next.edited_at,
          id,
        );
      this.d.search.changed(next, ch);
      this.d.store.emit({ type: "message.updated", messageId: id, channelId: m.channel_id, guildId: ch.guild_id });
      return next;
    });
  }

  /**
   * A reply keeps mentioning its replied-to author through an edit of its text, unless
   * the edit's allowed_mentions says otherwise: the author of the reply is who it is for.
   */
  private stillPingsReplied(m: Message, patch: MessagePatch): string | null {
    if (!m.reference_message_id) return null;
    const author = this.get(m.reference_message_id)?.author_id ?? null;
    if (!author || !(JSON.parse(m.mentions) as string[]).includes(author)) return null;
    return patch.allowedMentions && !patch.allowedMentions.repliedUser ? null : author;
  }

  delete(id: string): void {
    this.d.store.write(() => {
      const m = this.get(id);
      if (!m) throw DomainError.notFound("message");
      const ch = this.guilds.requireChannel(m.channel_id);
      this.db.query("DELETE FROM messages WHERE id = ?").run(id);
      this.d.store.emit({
        type: "message.deleted",
        messageId: id,
        channelId: m.channel_id,
        guildId: ch.guild_id,
        ephemeralUserId: m.ephemeral_user_id,
      });
    });
  }

  /**
   * A page of a channel's history, newest first. Ephemeral messages are included only
   * for their own person (`viewerId`).
   */
  list(channelId: string, page: Page, viewerId: string | null): Message[] {
    const vis = "(ephemeral_user_id IS NULL OR ephemeral_user_id = ?)";
    const viewer = viewerId ?? "";
    if (page.around) {
      const half = Math.floor(page.limit / 2);
      const older = this.db
        .query(`SELECT * FROM messages WHERE channel_id = ? AND id <= ? AND ${vis} ORDER BY id DESC LIMIT ?`)
        .all(channelId, page.around, viewer, page.limit - half) as Message[];
      const newer = this.db
        .query(`SELECT * FROM messages WHERE channel_id = ? AND id > ? AND ${vis} ORDER BY id ASC LIMIT ?`)
        .all(channelId, page.around, viewer, half) as Message[];
      return [...newer.reverse(), ...older];
    }
    if (page.after) {
      const rows = this.db
        .query(`SELECT * FROM messages WHERE channel_id = ? AND id > ? AND ${vis} ORDER BY id ASC LIMIT ?`)
        .all(channelId, page.after, viewer, page.limit) as Message[];
      return rows.reverse();
    }
    return this.db
      .query(`SELECT * FROM messages WHERE channel_id = ? AND id < ? AND ${vis} ORDER BY id DESC LIMIT ?`)
      .all(channelId, page.before ?? "\uffff", viewer, page.limit) as Message[];
  }

  // ---- actor-facing operations: every permission rule lives here, not in handlers ----

  access(actorId: string, channelId: string): ChannelAccess {
    return accessChannel(this.d, this.guilds, actorId, channelId);
  }

  /**
   * Post as an actor (a bot through the bot API, a person through the people's API):
   * SEND_MESSAGES, slowmode for people without MANAGE_MESSAGES or MANAGE_CHANNELS (the
   * reference holds no bot to it: a bot answering many people in a slow channel must not
   * be made to wait between answers), replies that must
   * point at a message of this channel, and an @everyone ping only for actors holding
   * ADMINISTRATOR (or the owner): MENTION_EVERYONE is not one of the 13 bits, so the
   * only holders of "every permission" are the ones who may ping everyone.
   */
  send(actorId: string, channelId: string, input: SendInput): Message {
    return this.d.store.write(() => this.begin(actorId, channelId).send(input));
  }

  /**
   * A post in two steps, for a surface that must answer an invisible channel (404) before
   * a bad body (400) and that before a missing permission (403): begin() reads the access
   * once, send() decides the rest with it. Use the draft in the same synchronous step (no
   * await between), so the access it holds is still what the store says.
   */
  begin(actorId: string, channelId: string): Draft {
    const a = this.access(actorId, channelId);
    return { channel: a.channel, send: (input) => this.d.store.write(() => this.sendWith(actorId, a, input)) };
  }

  private sendWith(actorId: string, a: ChannelAccess, input: SendInput): Message {
    const channelId = a.channel.id;
    if (!TEXT_CHANNEL_TYPES.has(a.channel.type))
      throw DomainError.invalid("", "Cannot send messages in a non-text channel", "CHANNEL_TYPE_INVALID");
    if (a.isDm) this.requireDmPartnerReachable(actorId, a.channel.id);
    else requireBits(a, PERMISSIONS.SEND_MESSAGES);
    const slowed = a.channel.rate_limit_per_user > 0 && !exemptFromSlowmode(a) && this.users.require(actorId).kind !== "bot";
    // A post that reads the author's earlier posts first (a nonce to enforce, slowmode) is
    // decided one at a time per author and channel on every node; any other takes no lock.
    if (slowed || (input.enforceNonce && input.nonce)) this.d.store.serialize(`posts:${channelId}:${actorId}`);
    if (input.enforceNonce && input.nonce) {
      const earlier = this.db
        .query(
          "SELECT * FROM messages WHERE channel_id = ? AND id >= ? AND author_id = ? AND nonce = ? AND created_at >= ? ORDER BY id DESC LIMIT 1",
        )
        .get(
          channelId,
          uuidBound(this.d.clock.now() - NONCE_WINDOW_MS, false),
          actorId,
          input.nonce,
          this.d.clock.now() - NONCE_WINDOW_MS,
        ) as Message | null;
      if (earlier) return earlier;
    }
    if (slowed) this.requireSlowmodeOver(a.channel, actorId);
    let reference: NewMessage["reference"] = null;
    if (input.reference) {
      const ref = input.reference.messageId ? this.get(input.reference.messageId) : null;
      if (ref && ref.channel_id === channelId && !ref.ephemeral_user_id)
        reference = { messageId: ref.id, channelId, guildId: a.channel.guild_id };
      else if (input.reference.failIfNotExists)
        throw DomainError.invalid("message_reference", "Unknown message", "REPLIES_UNKNOWN_MESSAGE");
    }
    const content = input.content ?? "";
    return this.files.attach(
      actorId,
      a,
      input.attachments,
      this.insert(a.channel, {
        channelId,
        authorId: actorId,
        content,
        embeds: input.embeds ?? [],
        components: input.components ?? [],
        flags: (input.flags ?? 0) & SENDABLE_FLAGS,
        nonce: input.nonce ?? null,
        tts: input.tts ?? false,
        type: reference ? MESSAGE_TYPE.REPLY : MESSAGE_TYPE.DEFAULT,
        reference,
        allowedMentions: input.allowedMentions,
        mentionEveryone: this.mayPingEveryone(a, content, input.allowedMentions),
      }),
    );
  }

  /** One message the actor can see in this channel (404 otherwise). */
  fetch(actorId: string, channelId: string, messageId: string): Message {
    this.access(actorId, channelId);
    return this.require(channelId, messageId, actorId);
  }

  history(actorId: string, channelId: string, page: Page): Message[] {
    this.access(actorId, channelId);
    return this.list(channelId, page, actorId);
  }

  /**
   * The author may change content, embeds, components and SUPPRESS_EMBEDS; anyone else
   * only SUPPRESS_EMBEDS, and only with MANAGE_MESSAGES (reference-gaps 2.7).
   */
  editAs(actorId: string, channelId: string, messageId: string, patch: EditInput): Message {
    return this.d.store.write(() => {
      const a = this.access(actorId, channelId);
      this.lockMessage(messageId);
      const m = this.require(channelId, messageId, actorId);
      const own = m.author_id === actorId && !m.webhook_id;
      const touchesBody = patch.content != null || patch.embeds != null || patch.components != null || patch.attachments !== undefined;
      if (!own) {
        if (touchesBody || a.isDm) throw DomainError.forbidden("Cannot edit a message authored by another user");
        requireBits(a, PERMISSIONS.MANAGE_MESSAGES);
      }
      if (m.ciphertext !== null) throw DomainError.forbidden("End-to-end encrypted messages cannot be edited here");
      const flags = patch.flags == null ? m.flags : (m.flags & ~SUPPRESS_EMBEDS) | (patch.flags & SUPPRESS_EMBEDS);
      const next: MessagePatch = { flags };
      if (patch.content !== undefined) {
        next.content = patch.content ?? "";
        next.allowedMentions = patch.allowedMentions;
      }
      if (patch.embeds !== undefined) next.embeds = patch.embeds ?? [];
      if (patch.components !== undefined) next.components = patch.components ?? [];
      const content = next.content ?? m.content;
      const embeds = next.embeds ?? JSON.parse(m.embeds);
      const components = next.components ?? JSON.parse(m.components);
      const files = patch.attachments !== undefined ? this.files.edit(actorId, a, m, patch.attachments) : this.files.of(m.id).length;
      if (!content && embeds.length === 0 && components.length === 0 && files === 0)
        throw DomainError.invalid("", "Cannot send an empty message", "MESSAGE_EMPTY");
      const everyone = own && next.content !== undefined ? this.mayPingEveryone(a, content, patch.allowedMentions) : undefined;
      return this.edit(m.id, next, everyone);
    });
  }

  /** Own messages always; another's only with MANAGE_MESSAGES in a guild channel. */
  deleteAs(actorId: string, channelId: string, messageId: string, reason: string | null = null): void {
    this.d.store.write(() => {
      const a = this.access(actorId, channelId);
      const m = this.require(channelId, messageId, actorId);
      if (m.author_id !== actorId || m.webhook_id) {
        if (a.isDm) throw DomainError.forbidden("Cannot delete a message authored by another user");
        requireBits(a, PERMISSIONS.MANAGE_MESSAGES);
        // A moderator deleting someone else's message is audited (reference action 72).
        this.audit.record({
          guildId: a.channel.guild_id!,
          actorId,
          actionType: AUDIT.MESSAGE_DELETE,
          targetId: m.author_id,
          options: { channel_id: channelId, count: "1" },
          reason,
        });
      }
      this.delete(m.id);
    });
  }

  /**
   * Slowmode (rate_limit_per_user): refuse while the author's last message in the
   * channel is younger than the channel's interval. The caller decides who is exempt.
   * Ids are time-ordered, so the (channel_id, id) index bounds the look-back.
   */
  requireSlowmodeOver(channel: Channel, authorId: string): void {
    const every = channel.rate_limit_per_user * 1000;
    if (!every) return;
    const since = this.d.clock.now() - every;
    const last = this.db
      .query("SELECT max(created_at) AS t FROM messages WHERE channel_id = ? AND id >= ? AND author_id = ? AND ephemeral_user_id IS NULL")
      .get(channel.id, uuidBound(since, false), authorId) as { t: number | null };
    if (last.t === null) return;
    const wait = last.t + every - this.d.clock.now();
    if (wait > 0) throw DomainError.slowmode(wait);
  }

  private mayPingEveryone(a: ChannelAccess, content: string, allowed: AllowedMentions | null | undefined): boolean {
    return (allowed?.everyone ?? true) && !a.isDm && EVERYONE.test(content) && holds(a, PERMISSIONS.ADMINISTRATOR);
  }

  /**
   * A bot may write into a DM only while its person still shares a server with it
   * (the reference's 50007, collapsed into 403 50001 by spec 7).
   */
  private requireDmPartnerReachable(actorId: string, channelId: string): void {
    const actor = this.users.require(actorId);
    if (actor.kind !== "bot") return;
    const other = this.dms.recipients(channelId).find((u) => u !== actorId);
    if (!other || !this.dms.sharesGuild(actorId, other)) throw DomainError.forbidden("Cannot send messages to this user");
  }
}

/** Who slowmode does not hold back (bots aside): those who may manage the channel's messages or the channel. */
function exemptFromSlowmode(a: ChannelAccess): boolean {
  return holds(a, PERMISSIONS.MANAGE_MESSAGES) || holds(a, PERMISSIONS.MANAGE_CHANNELS);
}
