import type { CoreDeps } from "./deps";
import type { Channel, Guild, Message } from "./models";
import type { Guilds } from "./guilds";
import type { Users } from "./users";
import { MAX_CONTENT, type Messages, type Page } from "./messages";
import type { AttachmentEdit, AttachmentInput } from "./message-types";
import type { Dms } from "./dms";
import type { Servers } from "./servers";
import { accessTo, canSee } from "./access";
import { DomainError } from "./errors";
import { envelopeProblem, MAX_ENVELOPE } from "../e2e/format";

export { MAX_CONTENT } from "./message-types";

export interface PersonMessage {
  content?: string;
  embeds?: unknown[];
  ciphertext?: string;
  replyTo?: string | null;
  /** Filled upload slots of the sender's for this channel (core/message-attachments.ts). */
  attachments?: AttachmentInput[];
}

/**
 * What only people do, and the checks that go with it: make and leave servers, open DMs,
 * and write the messages of end-to-end encrypted DMs (ciphertext their clients sealed,
 * from a current device). Everything else a person does with messages is the bots' own
 * door (messages.ts: post, edit, delete, history), and moderation (roles, channels,
 * overwrites, kicks, bans) is roles.ts, channels.ts and moderation.ts, so the rights,
 * events and audit entries are one. The people's API and the harness both act through
 * here. Each operation checks and writes in one transaction. A guild or channel the
 * person cannot see is "unknown" (404), never "forbidden".
 */
export class People {
  constructor(
    private readonly d: CoreDeps,
    private readonly users: Users,
    private readonly guilds: Guilds,
    private readonly messages: Messages,
    private readonly dmChannels: Dms,
    private readonly servers: Servers,
  ) {}

  // ---- visibility ----

  /** A guild the person belongs to. */
  guild(userId: string, guildId: string): Guild {
    const g = this.guilds.get(guildId);
    if (!g || !this.guilds.isMember(guildId, userId)) throw DomainError.notFound("guild");
    return g;
  }

  /** Whether a user may see a channel: a member of its server, or a DM recipient. */
  canSee(channel: Channel, userId: string): boolean {
    return canSee(this.d, this.guilds, channel, userId);
  }

  /** A channel the person can see: a channel of one of their guilds, or one of their DMs. */
  channel(userId: string, channelId: string): Channel {
    const c = this.guilds.channel(channelId);
    if (!c || !canSee(this.d, this.guilds, c, userId)) throw DomainError.notFound("channel");
    return c;
  }

  // ---- servers ----

  /** A server the person makes and owns, if the instance lets them (core/servers.ts). */
  createGuild(userId: string, name: string): Guild {
    return this.servers.create(userId, name);
  }

  /** The person edits a server's settings (MANAGE_GUILD, audited: core/servers.ts). */
  updateGuild(userId: string, guildId: string, patch: { name?: string; description?: string | null }): Guild {
    return this.servers.update(userId, guildId, patch);
  }

  /** The person leaves a server; its owner cannot (give it to someone first: Servers.transfer, or delete it). */
  leave(userId: string, guildId: string): void {
    this.d.store.write(() => {
      this.guild(userId, guildId);
      this.guilds.removeMember(guildId, userId);
    });
  }

  // ---- messages ----

  /** A page of a channel's history the person can see (the same read as a bot's). */
  list(userId: string, channelId: string, page: Page): Message[] {
    return this.messages.history(userId, channelId, page);
  }

  /**
   * Send a message as a person. A channel whose messages are end-to-end encrypted (a DM
   * between people) takes only the ciphertext the person's client produced: the server
   * never sees its text, and that is the people's own. Every other post is the one a bot
   * makes (core/messages.ts: the channel's type, SEND_MESSAGES, slowmode, the reply, who
   * is mentioned, @everyone), once the people's body rules (content, not ciphertext) hold.
   */
  send(userId: string, channelId: string, msg: PersonMessage): Message {
    return this.d.store.write(() => {
      const c = this.channel(userId, channelId);
      if (c.e2e) return this.sendSealed(userId, c, msg);
      checkPlainBody({ ...msg, files: msg.attachments?.length ?? 0 });
      const reference = msg.replyTo ? { messageId: msg.replyTo, failIfNotExists: true } : null;
      return this.messages.send(userId, c.id, {
        content: msg.content ?? "",
        embeds: msg.embeds ?? [],
        reference,
        attachments: msg.attachments,
      });
    });
  }

  /** A person edits their own message: ciphertext in an encrypted DM, otherwise as a bot edits (core/messages.ts). */
  edit(
    userId: string,
    channelId: string,
    messageId: string,
    patch: { content?: string; ciphertext?: string; attachments?: AttachmentEdit[] | null },
  ): Message {
    return this.d.store.write(() => {
      const c = this.channel(userId, channelId);
      const m = this.messages.require(c.id, messageId, userId);
      if (c.e2e) {
        if (m.author_id !== userId) throw DomainError.forbidden("You can only edit your own messages");
        // Its sealed text names its files by position: the edit seals them again, as they are.
        if (patch.attachments !== undefined)
          throw DomainError.invalid(
            "attachments",
            "An encrypted message keeps its files when edited: send only ciphertext",
            "BASE_TYPE_INVALID",
          );
        checkSealedBody(patch);
        this.requireSendingDevice(userId, patch.ciphertext!);
        return this.messages.edit(m.id, { ciphertext: patch.ciphertext });
      }
      const files = patch.attachments === undefined ? this.messages.files.of(m.id).length : (patch.attachments ?? []).length;
      checkPlainBody(
        { content: patch.content, embeds: JSON.parse(m.embeds), ciphertext: patch.ciphertext, files },
        patch.content === undefined,
      );
      return this.messages.editAs(userId, c.id, m.id, { content: patch.content, attachments: patch.attachments });
    });
  }

  /**
   * A sealed DM message: its envelope's shape, from a current device of its author, with
   * the files the author's client encrypted and uploaded to their own slots for this DM
   * (the same rules and limits as any message's files, core/message-attachments.ts).
   */
  private sendSealed(userId: string, c: Channel, msg: PersonMessage): Message {
    checkSealedBody(msg);
    this.requireSendingDevice(userId, msg.ciphertext!);
    const m = this.messages.create({
      channelId: c.id,
      authorId: userId,
      ciphertext: msg.ciphertext!,
      reference: this.sealedReference(c, msg.replyTo),
    });
    return this.messages.files.attach(userId, accessTo(this.d, this.guilds, userId, c), msg.attachments, m);
  }

  private sealedReference(c: Channel, replyTo: string | null | undefined) {
    if (!replyTo) return null;
    const target = this.messages.get(replyTo);
    if (!target || target.channel_id !== c.id || target.ephemeral_user_id)
      throw DomainError.invalid("message_reference", "Unknown message to reply to", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE");
    return { messageId: target.id, channelId: c.id, guildId: c.guild_id };
  }

  // ---- direct messages ----

  /**
   * A DM envelope (its shape already checked) must come from one of its author's current
   * devices: a removed device sends nothing more, and nobody sends as another's device
   * (docs/security.md, Finding 7). The readers check the same against what they pinned.
   */
  private requireSendingDevice(userId: string, ciphertext: string): void {
    const from = ciphertext.split(".")[1];
    const row = this.d.store.db.query("SELECT user_id, removed_at FROM devices WHERE id = ?").get(from) as {
      user_id: string;
      removed_at: number | null;
    } | null;
    if (!row || row.user_id !== userId || row.removed_at !== null)
      throw DomainError.invalid("ciphertext", "Must be sealed by one of your current devices", "DEVICE_NOT_CURRENT");
  }

  /** Open (or reopen) the DM with a person or bot who shares a server with the person. */
  openDm(userId: string, recipientId: string): Channel {
    return this.d.store.write(() => {
      const other = this.users.get(recipientId);
      if (!other || other.deleted_at) throw DomainError.notFound("user");
      if (other.id === userId) throw DomainError.invalid("recipient_id", "Cannot open a direct message with yourself", "INVALID_RECIPIENT");
      if (!this.dmChannels.sharesGuild(userId, other.id)) throw DomainError.forbidden("You share no server with this user");
      return this.dmChannels.open(userId, other.id);
    });
  }

  dms(userId: string): Channel[] {
    return this.dmChannels.of(userId);
  }
}

/** The people's body for a channel that is not end-to-end encrypted: content (at most MAX_CONTENT), never ciphertext. */
function checkPlainBody(msg: { content?: string; embeds?: unknown[]; ciphertext?: string; files?: number }, contentKept = false): void {
  if (msg.ciphertext !== undefined)
    throw DomainError.invalid("ciphertext", "This channel is not end-to-end encrypted: send content", "BASE_TYPE_INVALID");
  const content = msg.content ?? "";
  if (content.length > MAX_CONTENT)
    throw DomainError.invalid("content", `Must be ${MAX_CONTENT} or fewer in length.`, "BASE_TYPE_MAX_LENGTH");
  // Files alone make a message (the reference: content, embeds or files).
  if (!contentKept && content.trim() === "" && !(msg.embeds && msg.embeds.length) && !msg.files)
    throw DomainError.invalid("content", "Cannot send an empty message", "BASE_TYPE_REQUIRED");
}

function checkSealedBody(msg: { content?: string; ciphertext?: string }): void {
  // The server must never hold a direct message's text, so plaintext is refused outright.
  if (msg.content !== undefined)
    throw DomainError.invalid("content", "Direct messages are end-to-end encrypted: send only ciphertext", "BASE_TYPE_INVALID");
  if (msg.ciphertext === undefined) throw DomainError.invalid("ciphertext", "This field is required", "BASE_TYPE_REQUIRED");
  // The envelope's shape only (src/e2e/format.ts): its meaning is for the clients alone.
  const problem = envelopeProblem(msg.ciphertext);
  if (problem)
    throw DomainError.invalid(
      "ciphertext",
      `Must be a dm1 envelope of at most ${MAX_ENVELOPE} characters: ${problem}`,
      "BASE_TYPE_INVALID",
    );
}
