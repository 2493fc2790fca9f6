import type { CoreDeps } from "./deps";
import type { Channel, Message } from "./models";
import type { Webhook } from "./models";
import { modelOf, WEBHOOK_COLUMNS, type WebhookRow } from "./rows";
import type { Guilds } from "./guilds";
import type { AllowedMentions, Messages, MessagePatch } from "./messages";
import type { Audit } from "./audit";
import { AUDIT, diffChanges } from "./audit";
import { DomainError } from "./errors";
import { PERMISSIONS } from "./permissions";
import { constantTimeEqualHex, imageHash, randomSecret, sha256Hex } from "./crypto";

export interface NewWebhook {
  name: string;
  avatar?: string | null;
  hmacSecret?: string | null;
  v0Secret?: string | null;
}

export interface WebhookPatch {
  name?: string | null;
  avatar?: string | null;
  channelId?: string;
}

export interface WebhookPost {
  allowedMentions?: AllowedMentions | null;
  content?: string | null;
  embeds?: unknown[] | null;
  components?: unknown[] | null;
  username?: string | null;
  avatarUrl?: string | null;
  tts?: boolean;
  flags?: number | null;
}

export const MAX_WEBHOOKS_PER_CHANNEL = 15;
/** Message flags a webhook may set: SUPPRESS_EMBEDS and SUPPRESS_NOTIFICATIONS. */
export const WEBHOOK_MESSAGE_FLAGS = (1 << 2) | (1 << 12);

export function validateWebhookName(name: string | null | undefined, path = "name"): string {
  const n = (name ?? "").trim();
  if (n.length < 1 || n.length > 80) throw DomainError.invalid(path, "Must be between 1 and 80 in length.", "BASE_TYPE_BAD_LENGTH");
  if (/clyde|discord/i.test(n))
    throw DomainError.invalid(path, 'Username cannot contain "clyde" or "discord"', "USERNAME_INVALID_CONTAINS");
  return n;
}

/** An avatar is image data or a URL; Parley keeps a hash, as the reference shows one. */
function avatarHash(data: string | null | undefined): string | null {
  return data ? imageHash(data) : null;
}

export function webhookAuditView(w: Webhook): Record<string, unknown> {
  return { name: w.name, type: 1, channel_id: w.channel_id, avatar_hash: w.avatar, application_id: w.application_id };
}

/**
 * Incoming webhooks: a name, an avatar and a secret token that lets anyone holding it
 * post into one channel. The token is shown once, at creation, and kept only as its
 * SHA-256 digest; the optional hmac_secret and v0_secret are stored and never shown
 * again. MANAGE_WEBHOOKS is not one of Parley's 13 bits: managing webhooks needs
 * MANAGE_CHANNELS in the webhook's channel (overwrites apply), since a webhook is a
 * property of its channel (docs/administration.md).
 */
export class Webhooks {
  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly messages: Messages,
    private readonly audit: Audit,
    /** The application of a bot user, so a bot's webhooks die with its application. */
    private readonly appOf: (userId: string) => string | null,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  get(id: string): Webhook | null {
    return this.db.query(`SELECT ${WEBHOOK_COLUMNS()} FROM webhooks WHERE id = ?`).get(id) as Webhook | null;
  }

  require(id: string): Webhook {
    const w = this.get(id);
    if (!w) throw DomainError.notFound("webhook");
    return w;
  }

  /**
   * Inside a write: the webhook as committed, held until the write ends, so that an edit
   * of one field keeps what another node changed in the others a moment before.
   */
  private locked(id: string): Webhook {
    this.d.store.serialize(`webhook:${id}`);
    return this.require(id);
  }

  /** A guild channel the actor can see (else 404), on which it holds MANAGE_CHANNELS (else 403). */
  private requireManageIn(channelId: string, actorId: string): Channel {
    const ch = this.guilds.channel(channelId);
    if (!ch || !ch.guild_id || !this.guilds.isMember(ch.guild_id, actorId)) throw DomainError.notFound("channel");
    this.guilds.requirePermission(ch.guild_id, actorId, PERMISSIONS.MANAGE_CHANNELS, ch.id);
    return ch;
  }

  create(channelId: string, actorId: string, input: NewWebhook, reason: string | null = null): { webhook: Webhook; token: string } {
    const name = validateWebhookName(input.name);
    return this.d.store.write(() => {
      const ch = this.guilds.channel(channelId);
      if (ch && !ch.guild_id) throw DomainError.invalid("channel_id", "Webhooks live in server channels, not direct messages");
      const channel = this.requireManageIn(channelId, actorId);
      this.requireRoomIn(channelId);
      const token = randomSecret(48);
      const w: WebhookRow = {
        id: this.d.ids.next(),
        guild_id: channel.guild_id!,
        channel_id: channel.id,
        creator_id: actorId,
        application_id: this.appOf(actorId),
        name,
        avatar: avatarHash(input.avatar),
        token_hash: sha256Hex(token),
        token_sealed: this.d.sealer.seal(token),
        hmac_secret: input.hmacSecret ? this.d.sealer.seal(input.hmacSecret) : null,
        v0_secret: input.v0Secret ? this.d.sealer.seal(input.v0Secret) : null,
        created_at: this.d.clock.now(),
      };
      this.db
        .query(
          `INSERT INTO webhooks (id, guild_id, channel_id, creator_id, application_id, name, avatar, token_hash, token_sealed, hmac_secret, v0_secret, created_at)
           VALUES ($id, $guild_id, $channel_id, $creator_id, $application_id, $name, $avatar, $token_hash, $token_sealed, $hmac_secret, $v0_secret, $created_at)`,
        )
        .run(w as never);
      this.audit.record({
        guildId: w.guild_id,
        actorId,
        actionType: AUDIT.WEBHOOK_CREATE,
        targetId: w.id,
        changes: diffChanges(null, webhookAuditView(w)),
        reason,
      });
      return { webhook: modelOf<Webhook, WebhookRow>(w, WEBHOOK_COLUMNS), token };
    });
  }

  listChannel(channelId: string, actorId: string): Webhook[] {
    this.requireManageIn(channelId, actorId);
    return this.db.query(`SELECT ${WEBHOOK_COLUMNS()} FROM webhooks WHERE channel_id = ? ORDER BY id`).all(channelId) as Webhook[];
  }

  listGuild(guildId: string, actorId: string): Webhook[] {
    if (!this.guilds.get(guildId) || !this.guilds.isMember(guildId, actorId)) throw DomainError.notFound("guild");
    this.guilds.requirePermission(guildId, actorId, PERMISSIONS.MANAGE_CHANNELS);
    return this.db.query(`SELECT ${WEBHOOK_COLUMNS()} FROM webhooks WHERE guild_id = ? ORDER BY id`).all(guildId) as Webhook[];
  }

  /** Read by a member: MANAGE_CHANNELS in its channel, unless the actor's application owns it. */
  view(id: string, actorId: string): Webhook {
    const w = this.get(id);
    if (!w || !this.guilds.isMember(w.guild_id, actorId)) throw DomainError.notFound("webhook");
    const app = this.appOf(actorId);
    if (!(app && w.application_id === app)) this.requireManageIn(w.channel_id, actorId);
    return w;
  }

  /** The webhook's token, for those who may manage it (null when it was made before tokens were kept). */
  tokenOf(w: Pick<Webhook, "id">): string | null {
    const sealed = (this.db.query("SELECT token_sealed FROM webhooks WHERE id = ?").get(w.id) as { token_sealed: string | null } | null)
      ?.token_sealed;
    return sealed ? this.d.sealer.open(sealed) : null;
  }

  /** The webhook whose token this is; 401 for a wrong token. */
  authenticate(id: string, token: string): Webhook {
    const w = this.require(id);
    const stored = this.db.query("SELECT token_hash FROM webhooks WHERE id = ?").get(id) as Pick<WebhookRow, "token_hash">;
    if (!constantTimeEqualHex(sha256Hex(token), stored.token_hash)) throw DomainError.unauthorized("Invalid Webhook Token");
    return w;
  }

  /** At most 15 a channel, made or moved in: counted by one writer at a time per channel on every node. */
  private requireRoomIn(channelId: string): void {
    this.d.store.serialize(`webhooks:${channelId}`);
    const n = (this.db.query("SELECT count(*) AS n FROM webhooks WHERE channel_id = ?").get(channelId) as { n: number }).n;
    if (n >= MAX_WEBHOOKS_PER_CHANNEL) throw DomainError.maximum(30007, `Maximum number of webhooks reached (${MAX_WEBHOOKS_PER_CHANNEL})`);
  }

  /** `actorId` null: the caller authenticated with the webhook's token (no channel move then). */
  edit(id: string, actorId: string | null, patch: WebhookPatch, reason: string | null = null): Webhook {
    const name = patch.name === undefined || patch.name === null ? undefined : validateWebhookName(patch.name);
    return this.d.store.write(() => {
      const w = this.locked(id);
      if (actorId !== null) {
        if (!this.guilds.isMember(w.guild_id, actorId)) throw DomainError.notFound("webhook");
        this.requireManageIn(w.channel_id, actorId);
      }
      let channelId = w.channel_id;
      if (patch.channelId !== undefined && patch.channelId !== w.channel_id) {
        if (actorId === null) throw DomainError.invalid("channel_id", "A webhook token cannot move its webhook");
        const to = this.guilds.channel(patch.channelId);
        if (!to || to.guild_id !== w.guild_id)
          throw DomainError.invalid("channel_id", "The channel must be in the webhook's server", "CHANNEL_INVALID");
        this.requireManageIn(to.id, actorId);
        this.requireRoomIn(to.id);
        channelId = to.id;
      }
      const next: Webhook = {
        ...w,
        name: name ?? w.name,
        avatar: patch.avatar === undefined ? w.avatar : avatarHash(patch.avatar),
        channel_id: channelId,
      };
      const changes = diffChanges(webhookAuditView(w), webhookAuditView(next));
      if (!changes.length) return w;
      this.db
        .query("UPDATE webhooks SET name = ?, avatar = ?, channel_id = ? WHERE id = ?")
        .run(next.name, next.avatar, next.channel_id, id);
      this.audit.record({ guildId: w.guild_id, actorId, actionType: AUDIT.WEBHOOK_UPDATE, targetId: id, changes, reason });
      return next;
    });
  }

  delete(id: string, actorId: string | null, reason: string | null = null): void {
    this.d.store.write(() => {
      const w = this.locked(id);
      if (actorId !== null) {
        if (!this.guilds.isMember(w.guild_id, actorId)) throw DomainError.notFound("webhook");
        this.requireManageIn(w.channel_id, actorId);
      }
      this.db.query("DELETE FROM webhooks WHERE id = ?").run(id);
      this.audit.record({
        guildId: w.guild_id,
        actorId,
        actionType: AUDIT.WEBHOOK_DELETE,
        targetId: id,
        changes: diffChanges(webhookAuditView(w), null),
        reason,
      });
    });
  }

  /** Post as the webhook. Needs something to show: content, embeds or components. */
  execute(w: Webhook, post: WebhookPost): Message {
    const content = post.content ?? "";
    const embeds = post.embeds ?? [];
    const components = post.components ?? [];
    if (!content && !embeds.length && !components.length) throw DomainError.invalid("", "Cannot send an empty message", "MESSAGE_EMPTY");
    const flags = post.flags ?? 0;
    if (flags & ~WEBHOOK_MESSAGE_FLAGS)
      throw DomainError.invalid("flags", "Only SUPPRESS_EMBEDS and SUPPRESS_NOTIFICATIONS can be set", "MESSAGE_FLAGS_INVALID");
    const username = post.username != null && post.username !== "" ? validateWebhookName(post.username, "username") : w.name;
    return this.messages.create({
      channelId: w.channel_id,
      // The row needs a real author; readers see the webhook's pseudo-user (webhook_id set).
      authorId: w.creator_id ?? this.guilds.require(w.guild_id).owner_id,
      content,
      embeds,
      components,
      flags,
      tts: !!post.tts,
      webhook: { id: w.id, name: username, avatar: post.avatarUrl ? avatarHash(post.avatarUrl) : w.avatar },
      applicationId: w.application_id,
      allowedMentions: post.allowedMentions,
    });
  }

  /** A message this webhook posted; any other id is unknown to it. */
  message(w: Webhook, messageId: string | null): Message {
    const m = messageId ? this.messages.get(messageId) : null;
    if (!m || m.webhook_id !== w.id) throw DomainError.notFound("message");
    return m;
  }

  editMessage(w: Webhook, messageId: string | null, patch: MessagePatch): Message {
    this.message(w, messageId);
    if (patch.flags !== undefined && patch.flags & ~WEBHOOK_MESSAGE_FLAGS)
      throw DomainError.invalid("flags", "Only SUPPRESS_EMBEDS and SUPPRESS_NOTIFICATIONS can be set", "MESSAGE_FLAGS_INVALID");
    return this.messages.edit(messageId!, patch);
  }

  deleteMessage(w: Webhook, messageId: string | null): void {
    this.message(w, messageId);
    this.messages.delete(messageId!);
  }
}
