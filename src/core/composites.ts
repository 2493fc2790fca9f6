/**
 * Composite read models: what an answer shows, gathered in one place (core/reads) so
 * that serializers run no queries. They hold the entity models of core/models.ts, never
 * rows.
 */
import type {
  Application,
  Attachment,
  AuditEntry,
  Channel,
  Command,
  CustomEmoji,
  Guild,
  Interaction,
  InteractionData,
  Invite,
  Member,
  Message,
  Overwrite,
  Role,
  User,
  Webhook,
} from "./models";

export interface MemberModel {
  member: Member;
  roleIds: readonly string[];
  user: User | null;
}

export interface ChannelModel {
  channel: Channel;
  /** Server channels: the permission overwrites. */
  overwrites: Overwrite[];
  /** DM channels: both recipients (a serializer drops its viewer). */
  recipients: User[];
}

export interface GuildModel {
  guild: Guild;
  roles: Role[];
  /** The server's own emoji (core/emojis.ts). */
  emojis: readonly CustomEmoji[];
  memberCount: number;
  /** Members whose presence is not offline (only when counts were asked for). */
  presenceCount?: number;
}

/** A guild as it appears in a user's guild list: with that user's permissions. */
export interface PartialGuildModel {
  guild: Guild;
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

export type AuthorModel = { kind: "user"; user: User } | { kind: "webhook"; id: string; name: string; avatar: string | null };

/** The interaction a message answers (its metadata), when it answers one. */
export interface MessageInteractionModel {
  interaction: Interaction;
  user: User;
  data: InteractionData;
}

export interface MessageModel {
  message: Message;
  /** The message's channel (null only if it was deleted under the read). */
  channel: Channel | null;
  author: AuthorModel;
  mentions: User[];
  mentionRoleIds: string[];
  /** A person's files, in order (core/message-attachments.ts). */
  attachments: readonly Attachment[];
  /** Read for one viewer; null when not read (a message this very request created has none). */
  reactions: ReactionSummary[] | null;
  /** A reply's referenced message (one level deep); null when it is gone; undefined when not a reply. */
  referenced?: MessageModel | null;
  interaction: MessageInteractionModel | null;
  /** The author's membership in the message's server, when asked for (gateway dispatches). */
  member?: MemberModel | null;
  /** The memberships of the mentioned users who are in the message's server, by user id, asked for with `member`. */
  mentionMembers?: ReadonlyMap<string, MemberModel>;
}

export interface MessageReadOptions {
  /** The viewer reactions' `me` is read for (null: nobody). */
  viewerId?: string | null;
  /** false: skip the reactions read (a message created by this very request has none). */
  reactions?: boolean;
  /** Read the author's member, and the mentioned users' members, too (gateway dispatches carry them). */
  member?: boolean;
  /** The message's channel when the caller already holds it (saves the read). */
  channel?: Channel;
}

export interface WebhookModel {
  webhook: Webhook;
  creator: User | null;
  /** The token, for answers to those who may manage the webhook; null when not kept. */
  token: string | null;
}

export interface InviteModel {
  invite: Invite;
  guild: Guild | null;
  channel: Channel | null;
  inviter: User | null;
  expiresAt: number | null;
  memberCount: number;
}

export interface AuditLogModel {
  entries: AuditEntry[];
  users: User[];
  webhooks: WebhookModel[];
  /** Channels and roles the entries name that still exist (targets, options, changes), so a view can show their names. */
  channels: Channel[];
  roles: Role[];
}

/** A user, member, role or channel an interaction's options (or target) name. */
export interface ResolvedModel {
  users: User[];
  members: { member: MemberModel; permissions: number }[];
  roles: Role[];
  channels: { channel: ChannelModel; permissions: number; appPermissions: number }[];
  messages: MessageModel[];
  /** Files given through ATTACHMENT options (core/interaction-files.ts). */
  attachments: Attachment[];
}

/** Everything INTERACTION_CREATE carries (spec 6.3, reference-gaps 4.1). */
export interface InteractionModel {
  interaction: Interaction;
  token: string;
  app: Application;
  channel: ChannelModel;
  user: User;
  data: InteractionData;
  /** 0 guild, 1 the bot's DM, 2 another private channel. */
  context: 0 | 1 | 2;
  invokerPermissions: number;
  appPermissions: number;
  /** The largest file a person may give the bot (an ATTACHMENT option): the server's own limit. */
  attachmentSizeLimit: number;
  guild: Guild | null;
  member: MemberModel | null;
  resolved: ResolvedModel;
  /** Component interactions: the message the component sits on. */
  message: MessageModel | null;
}

/** A deleted channel as it was, with its overwrites (channel.deleted carries it, so a channel that is gone can be shown). */
export interface ChannelSnapshot {
  channel: Channel;
  overwrites: Overwrite[];
}

/** A server's emoji as the emoji routes show it: with its creator for those who may manage emoji. */
export interface EmojiModel {
  emoji: CustomEmoji;
  /** Null when the viewer may not see who made it, or they are gone. */
  user: User | null;
}

/** A command a person may run, and its application. */
export interface AvailableCommand {
  app: Application;
  command: Command;
}
