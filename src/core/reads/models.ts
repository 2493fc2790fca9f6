/**
 * Read models: what a surface needs to show an object, gathered by the core in one
 * place, so that serializers (src/wire/serializers, src/clientapi/views.ts) are pure
 * functions of these and run no queries. Ids are internal.
 */
import type { ApplicationRow, ChannelRow, GuildRow, MemberRow, MessageRow, OverwriteRow, RoleRow, UserRow } from "../types";
import type { InteractionData, InteractionRow } from "../interactions";
import type { Webhook } from "../models";
import type { AuditRow } from "../audit";
import type { InviteRow } from "../invites";

export interface MemberModel {
  member: MemberRow;
  /** @deprecated the same as `member` (core/models.ts) */
  row: MemberRow;
  roleIds: readonly string[];
  user: UserRow | null;
}

export interface ChannelModel {
  channel: ChannelRow;
  /** @deprecated the same as `channel` (core/models.ts) */
  row: ChannelRow;
  /** Server channels: the permission overwrites. */
  overwrites: OverwriteRow[];
  /** DM channels: both recipients (a serializer drops its viewer). */
  recipients: UserRow[];
}

export interface GuildModel {
  guild: GuildRow;
  /** @deprecated the same as `guild` (core/models.ts) */
  row: GuildRow;
  roles: RoleRow[];
  memberCount: number;
  /** Members whose presence is not offline (only when counts were asked for). */
  presenceCount?: number;
}

/** A guild as it appears in a user's guild list: with that user's permissions. */
export interface PartialGuildModel {
  guild: GuildRow;
  /** @deprecated the same as `guild` (core/models.ts) */
  row: GuildRow;
  permissions: number;
  memberCount?: number;
}

export interface PresenceModel {
  userId: string;
  status: string;
}

/** Everything GUILD_CREATE carries: the guild whole, as one bot sees it. */
export interface GuildCreateModel extends GuildModel {
  channels: ChannelModel[];
  members: MemberModel[];
  presences: PresenceModel[];
}

export interface ReactionSummary {
  emoji: { id: string | null; name: string | null; animated: boolean };
  count: number;
  /** Whether the viewer the summary was read for is among those who reacted. */
  me: boolean;
}

export type AuthorModel = { kind: "user"; user: UserRow } | { kind: "webhook"; id: string; name: string; avatar: string | null };

/** The interaction a message answers (its metadata), when it answers one. */
export interface MessageInteractionModel {
  interaction: InteractionRow;
  /** @deprecated the same as `interaction` (core/models.ts) */
  row: InteractionRow;
  user: UserRow;
  data: InteractionData;
}

export interface MessageModel {
  message: MessageRow;
  /** @deprecated the same as `message` (core/models.ts) */
  row: MessageRow;
  /** The message's channel (null only if it was deleted under the read). */
  channel: ChannelRow | null;
  author: AuthorModel;
  mentions: UserRow[];
  mentionRoleIds: string[];
  /** Read for one viewer; null when not read (a message this very request created has none). */
  reactions: ReactionSummary[] | null;
  /** A reply's referenced message (one level deep); null when it is gone; undefined when not a reply. */
  referenced?: MessageModel | null;
  interaction: MessageInteractionModel | null;
  /** The author's membership in the message's server, when asked for (gateway dispatches). */
  member?: MemberModel | null;
}

export interface MessageReadOptions {
  /** The viewer reactions' `me` is read for (null: nobody). */
  viewerId?: string | null;
  /** false: skip the reactions read (a message created by this very request has none). */
  reactions?: boolean;
  /** Read the author's member too (gateway dispatches carry it). */
  member?: boolean;
  /** The message's channel when the caller already holds it (saves the read). */
  channel?: ChannelRow;
}

export interface WebhookModel {
  webhook: Webhook;
  /** @deprecated the same as `webhook` (core/models.ts) */
  row: Webhook;
  creator: UserRow | null;
  /** The token, for answers to those who may manage the webhook; null when not kept. */
  token: string | null;
}

export interface InviteModel {
  invite: InviteRow;
  /** @deprecated the same as `invite` (core/models.ts) */
  row: InviteRow;
  guild: GuildRow | null;
  channel: ChannelRow | null;
  inviter: UserRow | null;
  expiresAt: number | null;
  memberCount: number;
}

export interface AuditLogModel {
  entries: AuditRow[];
  users: UserRow[];
  webhooks: WebhookModel[];
}

/** A user, member, role or channel an interaction's options (or target) name. */
export interface ResolvedModel {
  users: UserRow[];
  members: { member: MemberModel; permissions: number }[];
  roles: RoleRow[];
  channels: { channel: ChannelModel; permissions: number; appPermissions: number }[];
  messages: MessageModel[];
}

/** Everything INTERACTION_CREATE carries (spec 6.3, reference-gaps 4.1). */
export interface InteractionModel {
  interaction: InteractionRow;
  /** @deprecated the same as `interaction` (core/models.ts) */
  row: InteractionRow;
  token: string;
  app: ApplicationRow;
  channel: ChannelModel;
  user: UserRow;
  data: InteractionData;
  /** 0 guild, 1 the bot's DM, 2 another private channel. */
  context: 0 | 1 | 2;
  invokerPermissions: number;
  appPermissions: number;
  guild: GuildRow | null;
  member: MemberModel | null;
  resolved: ResolvedModel;
  /** Component interactions: the message the component sits on. */
  message: MessageModel | null;
}
