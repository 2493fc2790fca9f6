/**
 * Domain events -> live events for people: for each event, who hears it and its data as
 * the people's API's own JSON (views.ts), built once per distinct view, never once per
 * person. Seeing a server channel means being a member of its server (core/access.ts),
 * so a server's audience is its members; a DM's, its two recipients; an ephemeral
 * message's, its one viewer.
 */
import type { Core, DomainEvent, MessageModel } from "../core";
import { channelView, deviceView, guildView, memberViewOf, messageViewOf, roleView, settingView } from "./views";
import { readStateView } from "./read-states";
import type { MediaLinks } from "../wire/media";
import type { FileLinks } from "../wire/files";

export interface LiveDelivery {
  /** Person ids that may hear it (those without a stream are skipped by the caller). */
  users: Iterable<string>;
  type: string;
  /** The serialized `data` for this person. */
  data(userId: string): string;
  /**
   * Set when `users` is exactly this server's members and `data` the same for all: the
   * frame can then be published once to the server's topic.
   */
  topic?: string;
}

type Ev<T extends DomainEvent["type"]> = Extract<DomainEvent, { type: T }>;

function fixed(v: unknown): () => string {
  let s: string | undefined;
  return () => (s ??= JSON.stringify(v));
}

function lazy(fn: () => unknown): () => string {
  let s: string | undefined;
  return () => (s ??= JSON.stringify(fn()));
}

export class LiveDispatcher {
  /** Member ids per server, read on first use and dropped when membership changes. */
  private readonly members = new Map<string, string[]>();

  constructor(
    private readonly core: Pick<
      Core,
      "devices" | "dms" | "guilds" | "interactions" | "messages" | "notifications" | "readStates" | "reads"
    >,
    /** The image proxy, when on: embeds' pictures link to it. */
    private readonly media: MediaLinks | null,
    /** Attachments' signed links (wire/files.ts). */
    private readonly files: FileLinks | null = null,
  ) {}

  guildAudience(guildId: string): string[] {
    let ids = this.members.get(guildId);
    if (!ids) this.members.set(guildId, (ids = this.core.guilds.memberIds(guildId)));
    return ids;
  }

  private channelAudience(channelId: string, guildId: string | null): string[] {
    return guildId ? this.guildAudience(guildId) : this.core.dms.recipients(channelId);
  }

  /** Keep the member cache true to the store; runs for every event, listened to or not. */
  observe(e: DomainEvent): void {
    if (e.type === "world.reset") this.members.clear();
    else if (e.type === "member.added" || e.type === "member.removed" || e.type === "guild.created" || e.type === "guild.deleted")
      this.members.delete(e.guildId);
  }

  deliveriesFor(e: DomainEvent): LiveDelivery[] {
    switch (e.type) {
      case "member.added":
      case "member.updated":
      case "member.removed":
        return this.member(e);
      case "guild.created":
      case "guild.updated":
      case "guild.deleted":
        return this.guild(e);
      case "message.created":
      case "message.updated":
        return this.message(e);
      case "message.deleted": {
        const data = fixed({ id: e.messageId, channel_id: e.channelId });
        if (e.ephemeralUserId) return [{ users: [e.ephemeralUserId], type: e.type, data }];
        return [{ users: this.channelAudience(e.channelId, e.guildId), type: e.type, data, topic: e.guildId ?? undefined }];
      }
      case "reaction.added":
      case "reaction.removed":
        return this.reaction(e);
      case "typing.started": {
        // The one typing gets it too, so a server's typing is one publish (clients skip their own).
        const data = fixed({ channel_id: e.channelId, user_id: e.userId, at: new Date(e.at).toISOString() });
        return [{ users: this.channelAudience(e.channelId, e.guildId), type: e.type, data, topic: e.guildId ?? undefined }];
      }
      case "presence.updated":
        return this.presence(e);
      case "channel.created":
      case "channel.updated":
      case "channel.deleted":
        return this.channel(e);
      // Only the one who closed it: their other browsers drop it from the list.
      case "dm.closed":
        return [{ users: [e.userId], type: e.type, data: fixed({ id: e.channelId }) }];
      // Back in the lists of those who had closed it: to them, it is a new conversation.
      case "dm.reopened": {
        const c = this.core.guilds.channel(e.channelId);
        return c ? [{ users: e.userIds, type: "channel.created", data: (u: string) => JSON.stringify(channelView(this.core, c, u)) }] : [];
      }
      case "role.created":
      case "role.updated":
      case "role.deleted":
        return this.role(e);
      case "interaction.created":
      case "interaction.updated":
        return this.interaction(e);
      case "device.added":
      case "device.removed": {
        const row = this.core.devices.get(e.deviceId);
        return row ? [{ users: this.core.devices.audience(e.userId), type: e.type, data: fixed(deviceView(row, false)) }] : [];
      }
      case "read_state.updated":
        return [{ users: [e.userId], type: e.type, data: lazy(() => this.readState(e.userId, e.channelId)) }];
      // One's other tabs follow a changed setting; never a bot (spec 6.2).
      case "notification_settings.updated":
        return [{ users: [e.userId], type: e.type, data: lazy(() => settingView(this.core.notifications.get(e.userId, e.scopeId))) }];
      default:
        return [];
    }
  }

  private message(e: Ev<"message.created" | "message.updated">): LiveDelivery[] {
    const row = this.core.messages.get(e.messageId);
    if (!row) return [];
    const model = this.core.reads.messages.message(row, { viewerId: null });
    const data = this.messageViews(model);
    if (row.ephemeral_user_id) return [{ users: [row.ephemeral_user_id], type: e.type, data }];
    const shared = e.guildId && !model.reactions?.length ? e.guildId : undefined;
    return [{ users: this.channelAudience(e.channelId, e.guildId), type: e.type, data, topic: shared }];
  }

  /** One view for everyone, except for the people who reacted (their `me` flags differ). */
  private messageViews(model: MessageModel): (userId: string) => string {
    const shared = fixed(messageViewOf(model, this.media, this.files));
    if (!model.reactions?.length) return shared;
    const reactors = new Set(this.core.reads.messages.reactorIds(model.message.id));
    return (userId) => {
      if (!reactors.has(userId)) return shared();
      return JSON.stringify(
        messageViewOf({ ...model, reactions: this.core.reads.messages.reactions(model.message.id, userId) }, this.media, this.files),
      );
    };
  }

  private reaction(e: Ev<"reaction.added" | "reaction.removed">): LiveDelivery[] {
    const emoji = e.emoji.id ? `${e.emoji.name}:${e.emoji.id}` : (e.emoji.name ?? "");
    const data = lazy(() => {
      const summary = this.core.reads.messages
        .reactions(e.messageId, null)
        .find((r) => (r.emoji.id ?? r.emoji.name) === (e.emoji.id ?? e.emoji.name));
      return { message_id: e.messageId, channel_id: e.channelId, user_id: e.userId, emoji, count: summary?.count ?? 0 };
    });
    return [{ users: this.channelAudience(e.channelId, e.guildId), type: e.type, data, topic: e.guildId ?? undefined }];
  }

  /** Everyone who shares a server with the person, and the person's own other connections. */
  private presence(e: Ev<"presence.updated">): LiveDelivery[] {
    const users = new Set<string>([e.userId]);
    for (const g of this.core.guilds.guildIdsOf(e.userId)) for (const u of this.guildAudience(g)) users.add(u);
    return [{ users, type: e.type, data: fixed({ user_id: e.userId, status: e.status }) }];
  }

  private guild(e: Ev<"guild.created" | "guild.updated" | "guild.deleted">): LiveDelivery[] {
    if (e.type === "guild.deleted") return [{ users: e.memberIds, type: e.type, data: fixed({ id: e.guildId, cause: "deleted" }) }];
    const g = this.core.guilds.get(e.guildId);
    if (!g) return [];
    // my_permissions differs per person: one view each (servers change rarely).
    return [{ users: this.guildAudience(e.guildId), type: e.type, data: (u) => JSON.stringify(guildView(this.core, g, u)) }];
  }

  private member(e: Ev<"member.added" | "member.updated" | "member.removed">): LiveDelivery[] {
    const others = this.guildAudience(e.guildId).filter((u) => u !== e.userId);
    if (e.type === "member.removed") {
      // For the person who left, the server is gone; for the others, a member is.
      return [
        { users: [e.userId], type: "guild.deleted", data: fixed({ id: e.guildId, cause: e.cause ?? "left" }) },
        { users: others, type: e.type, data: fixed({ guild_id: e.guildId, user_id: e.userId }) },
      ];
    }
    const member = lazy(() => {
      const m = this.core.reads.guilds.member(e.guildId, e.userId);
      return { guild_id: e.guildId, member: m?.user ? memberViewOf({ ...m, user: m.user }) : null };
    });
    const self: LiveDelivery =
      e.type === "member.added"
        ? {
            users: [e.userId],
            type: "guild.created",
            data: (u) => JSON.stringify(guildView(this.core, this.core.guilds.require(e.guildId), u)),
          }
        : { users: [e.userId], type: e.type, data: member };
    return [self, { users: others, type: e.type, data: member }];
  }

  private channel(e: Ev<"channel.created" | "channel.updated" | "channel.deleted">): LiveDelivery[] {
    const users = this.channelAudience(e.channelId, e.guildId);
    const topic = e.guildId ?? undefined;
    if (e.type === "channel.deleted") return [{ users, type: e.type, data: fixed({ id: e.channelId, guild_id: e.guildId }), topic }];
    const c = this.core.guilds.channel(e.channelId);
    if (!c) return [];
    // A DM's view names the other recipient, so it differs per person.
    if (!e.guildId) return [{ users, type: e.type, data: (u: string) => JSON.stringify(channelView(this.core, c, u)) }];
    return [{ users, type: e.type, data: fixed(channelView(this.core, c)), topic }];
  }

  private role(e: Ev<"role.created" | "role.updated" | "role.deleted">): LiveDelivery[] {
    const users = this.guildAudience(e.guildId);
    const topic = e.guildId;
    if (e.type === "role.deleted") return [{ users, type: e.type, data: fixed({ guild_id: e.guildId, role_id: e.roleId }), topic }];
    const r = this.core.guilds.role(e.guildId, e.roleId);
    return r ? [{ users, type: e.type, data: fixed({ guild_id: e.guildId, role: roleView(r) }), topic }] : [];
  }

  /** Only the person who ran the command or clicked sees its progress ("thinking", answered). */
  private interaction(e: Ev<"interaction.created" | "interaction.updated">): LiveDelivery[] {
    const row = this.core.interactions.get(e.interactionId);
    if (!row) return [];
    const state = e.type === "interaction.created" ? "pending" : e.state;
    const data = fixed({ id: row.id, application_id: row.application_id, channel_id: row.channel_id, message_id: row.message_id, state });
    return [{ users: [row.user_id], type: e.type, data }];
  }

  private readState(userId: string, channelId: string) {
    const c = this.core.guilds.channel(channelId);
    return c ? readStateView(this.core.readStates.of(userId, c)) : null;
  }
}
