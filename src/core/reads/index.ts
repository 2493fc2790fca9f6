/**
 * The core's read side: read models (reads/models.ts) for every surface's serializers.
 */
import type { CoreDeps } from "../deps";
import type { Guilds } from "../guilds";
import type { Users } from "../users";
import type { Applications } from "../applications";
import type { Messages } from "../messages";
import type { Interactions } from "../interactions";
import type { Webhooks } from "../webhooks";
import type { Invites } from "../invites";
import type { Emojis } from "../emojis";
import { AUDIT } from "../audit";
import type { AuditEntry, Channel, CustomEmoji, Invite, Role, User, Webhook } from "../models";
import { GuildReads } from "./guilds";
import { MessageReads } from "./messages";
import { InteractionReads } from "./interactions";
import type { AuditLogModel, EmojiModel, InviteModel, WebhookModel } from "../composites";

export type * from "../composites";

const USER_TARGETS: number[] = [
  AUDIT.BOT_ADD,
  AUDIT.MEMBER_KICK,
  AUDIT.MEMBER_BAN_ADD,
  AUDIT.MEMBER_BAN_REMOVE,
  AUDIT.MEMBER_UPDATE,
  AUDIT.MEMBER_ROLE_UPDATE,
  AUDIT.MESSAGE_DELETE,
];
const WEBHOOK_TARGETS: number[] = [AUDIT.WEBHOOK_CREATE, AUDIT.WEBHOOK_UPDATE, AUDIT.WEBHOOK_DELETE];
const CHANNEL_TARGETS: number[] = [
  AUDIT.CHANNEL_CREATE,
  AUDIT.CHANNEL_UPDATE,
  AUDIT.CHANNEL_DELETE,
  AUDIT.CHANNEL_OVERWRITE_CREATE,
  AUDIT.CHANNEL_OVERWRITE_UPDATE,
  AUDIT.CHANNEL_OVERWRITE_DELETE,
  AUDIT.MESSAGE_BULK_DELETE,
];
const ROLE_TARGETS: number[] = [AUDIT.ROLE_CREATE, AUDIT.ROLE_UPDATE, AUDIT.ROLE_DELETE];

export class Reads {
  readonly guilds: GuildReads;
  readonly messages: MessageReads;
  readonly interactions: InteractionReads;

  constructor(
    d: CoreDeps,
    deps: {
      guilds: Guilds;
      users: Users;
      apps: Applications;
      messages: Messages;
      interactions: Interactions;
      webhooks: Webhooks;
      invites: Invites;
      emojis: Emojis;
    },
  ) {
    this.guilds = new GuildReads(d, deps.guilds, deps.users, deps.emojis);
    this.messages = new MessageReads(d, deps.guilds, deps.users, deps.messages, deps.interactions, this.guilds);
    this.interactions = new InteractionReads(
      d,
      deps.guilds,
      deps.users,
      deps.apps,
      deps.messages,
      deps.interactions,
      this.guilds,
      this.messages,
    );
    this.users = deps.users;
    this.webhookService = deps.webhooks;
    this.guildService = deps.guilds;
    this.inviteService = deps.invites;
    this.emojiService = deps.emojis;
  }

  private readonly emojiService: Emojis;

  private readonly users: Users;
  private readonly webhookService: Webhooks;
  private readonly guildService: Guilds;
  private readonly inviteService: Invites;

  invite(row: Invite): InviteModel {
    return {
      invite: row,
      guild: this.guildService.get(row.guild_id),
      channel: this.guildService.channel(row.channel_id),
      inviter: row.inviter_id ? this.users.get(row.inviter_id) : null,
      expiresAt: this.inviteService.expiresAt(row),
      memberCount: this.guildService.memberCount(row.guild_id),
    };
  }

  webhook(row: Webhook): WebhookModel {
    return { webhook: row, creator: row.creator_id ? this.users.get(row.creator_id) : null, token: this.webhookService.tokenOf(row) };
  }

  /** A server's emoji as `viewerId` may see them: the creator only for those who may manage emoji (the reference's rule). */
  emojis(viewerId: string, guildId: string, list: readonly CustomEmoji[]): EmojiModel[] {
    const shown = this.emojiService.mayManage(viewerId, guildId);
    return list.map((emoji) => ({ emoji, user: shown && emoji.creator_id ? this.users.get(emoji.creator_id) : null }));
  }

  /**
   * Audit entries with the users and webhooks they name (the reference's AuditLog), and
   * the channels and roles they name that still exist, for a view that shows names.
   */
  auditLog(entries: AuditEntry[]): AuditLogModel {
    const userIds = new Set<string>();
    const webhookIds = new Set<string>();
    const channelIds = new Set<string>();
    const roleIds = new Set<string>();
    for (const r of entries) {
      if (r.actor_id) userIds.add(r.actor_id);
      if (r.target_id && USER_TARGETS.includes(r.action_type)) userIds.add(r.target_id);
      if (r.target_id && WEBHOOK_TARGETS.includes(r.action_type)) webhookIds.add(r.target_id);
      if (r.target_id && CHANNEL_TARGETS.includes(r.action_type)) channelIds.add(r.target_id);
      if (r.target_id && ROLE_TARGETS.includes(r.action_type)) roleIds.add(r.target_id);
      const options = r.options ? (JSON.parse(r.options) as Record<string, unknown>) : {};
      if (typeof options.channel_id === "string") channelIds.add(options.channel_id);
      // A member's overwrite names the member in options (13, 14, 15): discord.py finds
      // `entry.extra` among the users listed when its member cache lacks them.
      if (options.type === "1" && typeof options.id === "string") userIds.add(options.id);
      for (const c of JSON.parse(r.changes) as { key: string; old_value?: unknown; new_value?: unknown }[])
        for (const v of [c.old_value, c.new_value])
          if (typeof v === "string") {
            if (c.key === "channel_id") channelIds.add(v);
            if (c.key === "inviter_id" || c.key === "owner_id") userIds.add(v);
          }
    }
    const users = [...userIds].map((id) => this.users.get(id)).filter((u): u is User => u !== null);
    const webhooks = [...webhookIds]
      .map((id) => this.webhookService.get(id))
      .filter((w): w is Webhook => w !== null)
      .map((w) => this.webhook(w));
    const channels = [...channelIds].map((id) => this.guildService.channel(id)).filter((c): c is Channel => c !== null);
    const guildId = entries[0]?.guild_id;
    const roles = guildId ? [...roleIds].map((id) => this.guildService.role(guildId, id)).filter((x): x is Role => x !== null) : [];
    return { entries, users, webhooks, channels, roles };
  }
}
