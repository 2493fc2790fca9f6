/**
 * Domain events -> dispatches (spec 6.2, reference-gaps 4). For each event this says
 * which bots hear it, under which intent, and with which payload. Payloads are built
 * lazily and at most once per distinct view (content or not, and the viewer only where
 * `reactions[].me` differs), never once per session.
 */
import type { BotApi } from "../botapi/context";
import type { DomainEvent } from "../core/events";
import type { ChannelRow, MessageRow } from "../core/types";
import { INTENTS } from "../core/permissions";
import { messageJson } from "../wire/serializers/message";
import { guildJson, guildCreateJson, presenceJson } from "../wire/serializers/guild";
import { channelJson, deletedChannelJson } from "../wire/serializers/channel";
import { roleJson } from "../wire/serializers/role";
import { memberJson } from "../wire/serializers/member";
import { userJson } from "../wire/serializers/user";
import { interactionCreateJson } from "../wire/serializers/interaction";
import type { Session } from "./session";

export interface Delivery {
  /** Bot user ids that may hear it (already narrowed to bots with sessions). */
  bots: readonly string[];
  t: string;
  /** Intent bit the session's IDENTIFY intents must hold; 0 = always delivered. */
  intent: number;
  /** The serialized `d` for this session's view. */
  payload(s: Session): string;
  /** Only to connected sessions, never recorded for a later RESUME (interactions, spec 3.1). */
  liveOnly?: boolean;
  /** The payload differs per bot: the fan-out need not look for sessions sharing it. */
  perBot?: boolean;
}

export interface Audience {
  hasSessions(botUserId: string): boolean;
  /** Member user ids of the guild that have sessions (the callers never mutate it). */
  guildBots(guildId: string): readonly string[];
}

const once = <T>(fn: () => T): (() => T) => {
  let done = false;
  let v: T;
  return () => {
    if (!done) {
      v = fn();
      done = true;
    }
    return v;
  };
};

const fixed = (v: unknown) => {
  const s = once(() => JSON.stringify(v));
  return () => s();
};

export function deliveriesFor(api: BotApi, e: DomainEvent, aud: Audience, gc: GuildCreateCache): Delivery[] {
  const core = api.core;
  const f = api.flakes;
  const guildBots = (guildId: string) => aud.guildBots(guildId);
  const channelBots = (channelId: string, guildId: string | null) =>
    guildId ? guildBots(guildId) : core.messages.dmRecipients(channelId).filter((id) => aud.hasSessions(id));

  switch (e.type) {
    case "guild.created":
      return [guildCreate(gc, e.guildId, guildBots(e.guildId))];
    case "guild.updated":
      return [{ bots: guildBots(e.guildId), t: "GUILD_UPDATE", intent: INTENTS.GUILDS, payload: fixed(lazyObj(() => guildJson(api, e.guildId))) }];
    case "guild.deleted":
      return [
        { bots: e.memberIds.filter((id) => aud.hasSessions(id)), t: "GUILD_DELETE", intent: INTENTS.GUILDS, payload: fixed({ id: f.of(e.guildId) }) },
      ];

    case "member.added": {
      const out: Delivery[] = [];
      const bots = guildBots(e.guildId);
      if (aud.hasSessions(e.userId)) out.push(guildCreate(gc, e.guildId, [e.userId]));
      const others = bots.filter((b) => b !== e.userId);
      if (others.length) {
        const d = once(() => {
          const m = core.guilds.member(e.guildId, e.userId);
          return JSON.stringify(m ? { ...memberJson(api, m), guild_id: f.of(e.guildId) } : null);
        });
        out.push({ bots: others, t: "GUILD_MEMBER_ADD", intent: INTENTS.GUILD_MEMBERS, payload: d });
      }
      return out;
    }
    case "member.updated": {
      const bots = guildBots(e.guildId);
      if (!bots.length) return [];
      const d = once(() => {
        const m = core.guilds.member(e.guildId, e.userId);
        return JSON.stringify(m ? { ...memberJson(api, m), guild_id: f.of(e.guildId) } : null);
      });
      // The bot's own member updates are always sent (reference-gaps 4); others need GUILD_MEMBERS.
      const out: Delivery[] = [];
      if (bots.includes(e.userId)) out.push({ bots: [e.userId], t: "GUILD_MEMBER_UPDATE", intent: 0, payload: d });
      const others = bots.filter((b) => b !== e.userId);
      if (others.length) out.push({ bots: others, t: "GUILD_MEMBER_UPDATE", intent: INTENTS.GUILD_MEMBERS, payload: d });
      return out;
    }
    case "member.removed": {
      const out: Delivery[] = [];
      // `unavailable` absent: the bot was removed, not an outage (reference-gaps 4).
      if (aud.hasSessions(e.userId))
        out.push({ bots: [e.userId], t: "GUILD_DELETE", intent: INTENTS.GUILDS, payload: fixed({ id: f.of(e.guildId) }) });
      const others = guildBots(e.guildId).filter((b) => b !== e.userId);
      if (others.length) {
        const d = once(() => {
          const u = core.users.get(e.userId);
          return JSON.stringify({ guild_id: f.of(e.guildId), user: u ? userJson(f, u) : { id: f.of(e.userId) } });
        });
        out.push({ bots: others, t: "GUILD_MEMBER_REMOVE", intent: INTENTS.GUILD_MEMBERS, payload: d });
      }
      return out;
    }

    case "channel.created":
    case "channel.updated": {
      if (!e.guildId) return []; // DM channels have no CHANNEL_* dispatch in v10
      const t = e.type === "channel.created" ? "CHANNEL_CREATE" : "CHANNEL_UPDATE";
      const d = once(() => {
        const c = core.guilds.channel(e.channelId);
        return c ? JSON.stringify(channelJson(api, c)) : null;
      });
      return [{ bots: guildBots(e.guildId), t, intent: INTENTS.GUILDS, payload: () => d() ?? "null" }];
    }
    case "channel.deleted": {
      if (!e.guildId) return [];
      // The channel row is gone by now: serialize the snapshot the deletion carried.
      const d = once(() => JSON.stringify(deletedChannelJson(api, e.snapshot)));
      return [{ bots: guildBots(e.guildId), t: "CHANNEL_DELETE", intent: INTENTS.GUILDS, payload: d }];
    }

    case "role.created":
    case "role.updated": {
      const t = e.type === "role.created" ? "GUILD_ROLE_CREATE" : "GUILD_ROLE_UPDATE";
      const d = once(() => {
        const r = core.guilds.role(e.guildId, e.roleId);
        return JSON.stringify({ guild_id: f.of(e.guildId), role: r ? roleJson(f, r) : null });
      });
      return [{ bots: guildBots(e.guildId), t, intent: INTENTS.GUILDS, payload: d }];
    }
    case "role.deleted":
      return [
        {
          bots: guildBots(e.guildId),
          t: "GUILD_ROLE_DELETE",
          intent: INTENTS.GUILDS,
          payload: fixed({ guild_id: f.of(e.guildId), role_id: f.of(e.roleId) }),
        },
      ];

    case "message.created":
    case "message.updated": {
      const m = core.messages.get(e.messageId);
      // Ephemeral messages belong to one person's client; bots never hear of them.
      if (!m || m.ephemeral_user_id) return [];
      const bots = channelBots(e.channelId, e.guildId);
      if (!bots.length) return [];
      const t = e.type === "message.created" ? "MESSAGE_CREATE" : "MESSAGE_UPDATE";
      return [{ bots, t, intent: e.guildId ? INTENTS.GUILD_MESSAGES : INTENTS.DIRECT_MESSAGES, payload: messageViews(api, m, e.guildId !== null) }];
    }
    case "message.deleted": {
      if (e.ephemeralUserId) return [];
      const d: Record<string, unknown> = { id: f.of(e.messageId), channel_id: f.of(e.channelId) };
      if (e.guildId) d.guild_id = f.of(e.guildId);
      return [
        {
          bots: channelBots(e.channelId, e.guildId),
          t: "MESSAGE_DELETE",
          intent: e.guildId ? INTENTS.GUILD_MESSAGES : INTENTS.DIRECT_MESSAGES,
          payload: fixed(d),
        },
      ];
    }

    case "reaction.added":
    case "reaction.removed": {
      const bots = channelBots(e.channelId, e.guildId);
      if (!bots.length) return [];
      const add = e.type === "reaction.added";
      const d = once(() => {
        const emoji: Record<string, unknown> = { id: e.emoji.id, name: e.emoji.name };
        if (e.emoji.animated) emoji.animated = true;
        const out: Record<string, unknown> = { user_id: f.of(e.userId), channel_id: f.of(e.channelId), message_id: f.of(e.messageId) };
        if (e.guildId) out.guild_id = f.of(e.guildId);
        if (add && e.guildId) {
          const mem = core.guilds.member(e.guildId, e.userId);
          if (mem) out.member = memberJson(api, mem);
        }
        out.emoji = emoji;
        if (add) out.message_author_id = f.of(e.messageAuthorId);
        out.burst = false;
        if (add) out.burst_colors = [];
        out.type = 0;
        return JSON.stringify(out);
      });
      return [
        {
          bots,
          t: add ? "MESSAGE_REACTION_ADD" : "MESSAGE_REACTION_REMOVE",
          intent: e.guildId ? INTENTS.GUILD_MESSAGE_REACTIONS : INTENTS.DIRECT_MESSAGE_REACTIONS,
          payload: d,
        },
      ];
    }

    case "typing.started": {
      const bots = channelBots(e.channelId, e.guildId);
      if (!bots.length) return [];
      const d = once(() => {
        const out: Record<string, unknown> = { channel_id: f.of(e.channelId) };
        if (e.guildId) out.guild_id = f.of(e.guildId);
        out.user_id = f.of(e.userId);
        out.timestamp = Math.floor(e.at / 1000);
        if (e.guildId) {
          const mem = core.guilds.member(e.guildId, e.userId);
          if (mem) out.member = memberJson(api, mem);
        }
        return JSON.stringify(out);
      });
      return [
        { bots, t: "TYPING_START", intent: e.guildId ? INTENTS.GUILD_MESSAGE_TYPING : INTENTS.DIRECT_MESSAGE_TYPING, payload: d },
      ];
    }

    case "presence.updated":
      // One PRESENCE_UPDATE per guild the user shares with the bot.
      return core.guilds.guildIdsOf(e.userId).flatMap((gid) => {
        const bots = guildBots(gid);
        if (!bots.length) return [];
        return [{ bots, t: "PRESENCE_UPDATE", intent: INTENTS.GUILD_PRESENCES, payload: fixed(lazyObj(() => presenceJson(api, gid, e.userId, e.status))) }];
      });

    case "interaction.created": {
      const app = core.apps.get(e.applicationId);
      if (!app || !aud.hasSessions(app.bot_user_id)) return [];
      const d = once(() => JSON.stringify(interactionCreateJson(api, e.interactionId)));
      return [{ bots: [app.bot_user_id], t: "INTERACTION_CREATE", intent: 0, payload: d, liveOnly: true }];
    }

    default:
      // application.* and world.reset change sessions, not frames: handled by the gateway itself.
      return [];
  }
}

/**
 * GUILD_CREATE bodies are the largest payloads (every channel, role and member), and
 * all bots see the same one but for their own `joined_at`. The body is serialized once
 * per guild and presence view, `joined_at` appended per bot, and the cache is dropped
 * on every domain event (any of them may change what the body shows).
 */
export class GuildCreateCache {
  private bodies = new Map<string, string>();

  constructor(private readonly api: BotApi) {}

  clear(): void {
    if (this.bodies.size) this.bodies.clear();
  }

  payload(guildId: string, botUserId: string, presences: boolean): string {
    const key = `${guildId}:${presences}`;
    let head = this.bodies.get(key);
    if (head === undefined) {
      const body: Record<string, unknown> = guildCreateJson(this.api, guildId, botUserId, presences);
      delete body.joined_at;
      head = JSON.stringify(body).slice(0, -1);
      this.bodies.set(key, head);
    }
    const me = this.api.core.guilds.member(guildId, botUserId);
    const joined = me ? JSON.stringify(new Date(me.joined_at).toISOString().replace("Z", "+00:00")) : "null";
    return `${head},"joined_at":${joined}}`;
  }
}

/**
 * Which members of a guild have sessions, per guild. Listing a big guild's members is
 * the costliest step of a message's fan-out, and the answer changes only when membership
 * does (every change emits member.*, guild.* or application.deleted, on which the gateway
 * clears this) or when a bot gains its first or loses its last session.
 */
export class GuildBots {
  private byGuild = new Map<string, string[]>();

  constructor(
    private readonly api: BotApi,
    private readonly hasSessions: (botUserId: string) => boolean,
  ) {}

  clear(): void {
    if (this.byGuild.size) this.byGuild.clear();
  }

  /** Whether an event may change guild membership. */
  static changes(e: DomainEvent): boolean {
    switch (e.type) {
      case "guild.created":
      case "guild.deleted":
      case "member.added":
      case "member.removed":
      case "application.deleted":
      case "world.reset":
        return true;
      default:
        return false;
    }
  }

  of(guildId: string): readonly string[] {
    let bots = this.byGuild.get(guildId);
    if (!bots) {
      bots = this.api.core.guilds.memberIds(guildId).filter(this.hasSessions);
      this.byGuild.set(guildId, bots);
    }
    return bots;
  }
}

/** GUILD_CREATE for bots that (now) belong to the guild; presences only with GUILD_PRESENCES. */
export function guildCreate(cache: GuildCreateCache, guildId: string, bots: readonly string[]): Delivery {
  return {
    bots,
    t: "GUILD_CREATE",
    intent: INTENTS.GUILDS,
    payload: (s) => cache.payload(guildId, s.owner.botUserId, (s.intents & INTENTS.GUILD_PRESENCES) !== 0),
    perBot: true,
  };
}

/**
 * MESSAGE_CREATE/UPDATE views: with or without content, and per viewer only when
 * reactions exist. A bot always sees its own messages' content (see contentVisible in
 * botapi/routes/messages.ts for why).
 */
function messageViews(api: BotApi, m: MessageRow, inGuild: boolean): (s: Session) => string {
  const cache = new Map<string, string>();
  let perViewer: boolean | null = null;
  return (s) => {
    const own = m.author_id === s.owner.botUserId && !m.webhook_id;
    const content = !inGuild || own || (s.intents & INTENTS.MESSAGE_CONTENT) !== 0;
    if (perViewer === null) {
      const probe = messageJson(api, m, { content, gateway: true, viewerId: null });
      perViewer = Array.isArray(probe.reactions);
      if (!perViewer) cache.set(String(content), JSON.stringify(probe));
    }
    const key = perViewer ? `${content}:${s.owner.botUserId}` : String(content);
    let d = cache.get(key);
    if (d === undefined) {
      d = JSON.stringify(messageJson(api, m, { content, gateway: true, viewerId: perViewer ? s.owner.botUserId : null }));
      cache.set(key, d);
    }
    return d;
  };
}

function lazyObj(fn: () => unknown) {
  return { toJSON: fn };
}
