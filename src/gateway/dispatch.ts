/**
 * Domain events -> dispatches (spec 6.2, reference-gaps 4): for each event, which bots
 * hear it, under which intent, and with which payload. Messages, reactions and typing
 * are in dispatch-messages.ts.
 */
import type { DomainEvent } from "../core";
import { guildJson, presenceJson } from "../wire/serializers/guild";
import { channelJson } from "../wire/serializers/channel";
import { roleJson } from "../wire/serializers/role";
import { memberJson } from "../wire/serializers/member";
import { userJson } from "../wire/serializers/user";
import { interactionCreateJson } from "../wire/serializers/interaction";
import type { GatewayContext } from "./context";
import type { GuildCreateCache } from "./caches";
import { fixed, lazy, once, type Audience, type Delivery } from "./deliveries";
import { GATES, seesPresences } from "./intents";
import { messageDeliveries, reactionDeliveries, typingDeliveries } from "./dispatch-messages";

export class Dispatcher {
  constructor(
    private readonly ctx: GatewayContext,
    private readonly aud: Audience,
    private readonly guildCreates: GuildCreateCache,
  ) {}

  deliveriesFor(e: DomainEvent): Delivery[] {
    switch (e.type) {
      case "guild.created":
      case "guild.updated":
      case "guild.deleted":
        return this.guild(e);
      case "member.added":
      case "member.updated":
      case "member.removed":
        return this.member(e);
      case "channel.created":
      case "channel.updated":
      case "channel.deleted":
        return this.channel(e);
      case "role.created":
      case "role.updated":
      case "role.deleted":
        return this.role(e);
      case "message.created":
      case "message.updated":
      case "message.deleted":
        return messageDeliveries(this.ctx, this.aud, e);
      case "reaction.added":
      case "reaction.removed":
        return reactionDeliveries(this.ctx, this.aud, e);
      case "typing.started":
        return typingDeliveries(this.ctx, this.aud, e);
      case "presence.updated":
        return this.presence(e);
      case "interaction.created":
        return this.interaction(e);
      default:
        // application.* and world.reset change sessions, not frames: the gateway handles them.
        return [];
    }
  }

  /** GUILD_CREATE for bots that joined the guild (a join: no `unavailable`); presences only with GUILD_PRESENCES. */
  guildCreate(guildId: string, bots: readonly string[]): Delivery {
    const gc = this.guildCreates;
    return {
      bots,
      t: "GUILD_CREATE",
      intent: GATES.guilds,
      payload: (s) => gc.payload(guildId, s.owner.botUserId, seesPresences(s), false),
      perBot: true,
    };
  }

  private guild(e: Extract<DomainEvent, { type: "guild.created" | "guild.updated" | "guild.deleted" }>): Delivery[] {
    const { ctx, aud } = this;
    if (e.type === "guild.created") return [this.guildCreate(e.guildId, aud.guildBots(e.guildId))];
    if (e.type === "guild.updated") {
      const d = lazy(() => guildJson(ctx.flakes, ctx.core.reads.guilds.guild(e.guildId)));
      return [{ bots: aud.guildBots(e.guildId), t: "GUILD_UPDATE", intent: GATES.guilds, payload: d }];
    }
    const bots = e.memberIds.filter((id) => aud.hasSessions(id));
    return [{ bots, t: "GUILD_DELETE", intent: GATES.guilds, payload: fixed({ id: ctx.flakes.of(e.guildId) }) }];
  }

  private member(e: Extract<DomainEvent, { type: "member.added" | "member.updated" | "member.removed" }>): Delivery[] {
    const { ctx, aud } = this;
    const f = ctx.flakes;
    const self = aud.hasSessions(e.userId) && e.type !== "member.updated";
    const others = aud.guildBots(e.guildId).filter((b) => b !== e.userId);
    const out: Delivery[] = [];
    // A member gone already (see channel()): no one to announce.
    const m = e.type === "member.removed" ? null : ctx.core.reads.guilds.member(e.guildId, e.userId);
    if (e.type !== "member.removed" && !m) return [];
    const memberPayload = once(() => JSON.stringify(m ? { ...memberJson(f, m), guild_id: f.of(e.guildId) } : null));
    if (e.type === "member.added") {
      if (self) out.push(this.guildCreate(e.guildId, [e.userId]));
      if (others.length) out.push({ bots: others, t: "GUILD_MEMBER_ADD", intent: GATES.members, payload: memberPayload });
    } else if (e.type === "member.updated") {
      // The bot's own member updates are always sent (reference-gaps 4); others need GUILD_MEMBERS.
      if (aud.guildBots(e.guildId).includes(e.userId))
        out.push({ bots: [e.userId], t: "GUILD_MEMBER_UPDATE", intent: GATES.always, payload: memberPayload });
      if (others.length) out.push({ bots: others, t: "GUILD_MEMBER_UPDATE", intent: GATES.members, payload: memberPayload });
    } else {
      // `unavailable` absent: the bot was removed, not an outage (reference-gaps 4).
      if (self) out.push({ bots: [e.userId], t: "GUILD_DELETE", intent: GATES.guilds, payload: fixed({ id: f.of(e.guildId) }) });
      if (others.length) {
        const d = lazy(() => {
          const u = ctx.core.users.get(e.userId);
          return { guild_id: f.of(e.guildId), user: u ? userJson(f, u) : { id: f.of(e.userId) } };
        });
        out.push({ bots: others, t: "GUILD_MEMBER_REMOVE", intent: GATES.members, payload: d });
      }
    }
    return out;
  }

  private channel(e: Extract<DomainEvent, { type: "channel.created" | "channel.updated" | "channel.deleted" }>): Delivery[] {
    if (!e.guildId) return []; // DM channels have no CHANNEL_* dispatch in v10
    const { ctx, aud } = this;
    const reads = ctx.core.reads.guilds;
    const bots = aud.guildBots(e.guildId);
    if (e.type === "channel.deleted") {
      // The channel row is gone by now: serialize the snapshot the deletion carried.
      const d = lazy(() => channelJson(ctx.flakes, reads.channelOf(e.snapshot.channel, e.snapshot.overwrites)));
      return [{ bots, t: "CHANNEL_DELETE", intent: GATES.guilds, payload: d }];
    }
    // Gone already: a node hearing another's commits late can find a channel made and
    // deleted before it published the creation. A `d` of null crashes discord.js; the
    // CHANNEL_DELETE that follows carries its snapshot.
    const c = bots.length ? reads.channel(e.channelId) : null;
    if (!c) return [];
    const d = once(() => JSON.stringify(channelJson(ctx.flakes, c)));
    return [{ bots, t: e.type === "channel.created" ? "CHANNEL_CREATE" : "CHANNEL_UPDATE", intent: GATES.guilds, payload: d }];
  }

  private role(e: Extract<DomainEvent, { type: "role.created" | "role.updated" | "role.deleted" }>): Delivery[] {
    const { ctx, aud } = this;
    const f = ctx.flakes;
    const bots = aud.guildBots(e.guildId);
    if (e.type === "role.deleted")
      return [
        { bots, t: "GUILD_ROLE_DELETE", intent: GATES.guilds, payload: fixed({ guild_id: f.of(e.guildId), role_id: f.of(e.roleId) }) },
      ];
    // Gone already (see channel()): nothing to create or update.
    const r = bots.length ? ctx.core.guilds.role(e.guildId, e.roleId) : null;
    if (!r) return [];
    const d = lazy(() => ({ guild_id: f.of(e.guildId), role: roleJson(f, r) }));
    return [{ bots, t: e.type === "role.created" ? "GUILD_ROLE_CREATE" : "GUILD_ROLE_UPDATE", intent: GATES.guilds, payload: d }];
  }

  /** One PRESENCE_UPDATE per guild the user shares with the bot. */
  private presence(e: Extract<DomainEvent, { type: "presence.updated" }>): Delivery[] {
    const { ctx, aud } = this;
    return ctx.core.guilds.guildIdsOf(e.userId).flatMap((gid) => {
      const bots = aud.guildBots(gid);
      if (!bots.length) return [];
      return [
        {
          bots,
          t: "PRESENCE_UPDATE",
          intent: GATES.presences,
          payload: fixed(presenceJson(ctx.flakes, gid, e.userId, e.status)),
          uniform: true,
        },
      ];
    });
  }

  private interaction(e: Extract<DomainEvent, { type: "interaction.created" }>): Delivery[] {
    const { ctx, aud } = this;
    const app = ctx.core.apps.get(e.applicationId);
    if (!app || !aud.hasSessions(app.bot_user_id)) return [];
    const d = once(() => {
      const model = ctx.core.reads.interactions.create(e.interactionId, e.token);
      return JSON.stringify(model ? interactionCreateJson(ctx.flakes, model) : null);
    });
    return [{ bots: [app.bot_user_id], t: "INTERACTION_CREATE", intent: GATES.always, payload: d, liveOnly: true }];
  }
}
