/**
 * Two caches of the fan-out, both dropped on the domain events that may change them.
 */
import type { DomainEvent } from "../core";
import { guildCreateJson, joinedAtJson } from "../wire/serializers/guild";
import { fastPathOn, type GatewayContext } from "./context";

/**
 * GUILD_CREATE bodies are the largest payloads (every channel, role and member), and
 * all bots see the same one but for their own `joined_at`. The body is serialized once
 * per guild and presence view, `joined_at` appended per bot. A body is kept while the
 * core says nothing it shows has changed (guildCreateStamp: servers, roles, channels,
 * members, users, by any writer, and presences for the view showing them) and no
 * message of its guild was posted, edited or deleted (channels show last_message_id).
 * Events that change none of it (presence for the other view, typing, reactions,
 * interactions, read states) leave it: bots coming online one after another must not
 * each rebuild the body of a big server, and each session's replay ring must not keep a
 * copy of its own.
 */
export class GuildCreateCache {
  private bodies = new Map<string, { stamp: number; head: string }>();

  constructor(private readonly ctx: GatewayContext) {}

  clear(): void {
    if (this.bodies.size) this.bodies.clear();
  }

  /** Drop what an event makes stale (what the core's stamp does not cover). */
  onEvent(e: DomainEvent): void {
    if (!this.bodies.size) return;
    if (e.type === "world.reset") return this.clear();
    if ((e.type === "message.created" || e.type === "message.updated" || e.type === "message.deleted") && e.guildId) {
      this.bodies.delete(`${e.guildId}:true`);
      this.bodies.delete(`${e.guildId}:false`);
    }
  }

  /**
   * `listed`: the guild was listed in the session's READY as unavailable, so this is it
   * becoming available and says `unavailable: false`. Otherwise it is a join, which the
   * reference sends without `unavailable`: discord.py dispatches guild_join only then
   * (guild_available on `false`), as the other libraries tell by READY's list.
   */
  payload(guildId: string, botUserId: string, presences: boolean, listed: boolean): string {
    const key = `${guildId}:${presences}`;
    const keep = fastPathOn(this.ctx, "guildCreateCache");
    const stamp = keep ? this.ctx.core.reads.guilds.guildCreateStamp(presences) : -1;
    let body = keep ? this.bodies.get(key) : undefined;
    if (body === undefined || body.stamp !== stamp) {
      const head = JSON.stringify(guildCreateJson(this.ctx.flakes, this.ctx.core.reads.guilds.guildCreate(guildId, presences))).slice(
        0,
        -1,
      );
      body = { stamp, head };
      if (keep) this.bodies.set(key, body);
    }
    const me = this.ctx.core.guilds.member(guildId, botUserId);
    return `${body.head},${listed ? '"unavailable":false,' : ""}"joined_at":${JSON.stringify(joinedAtJson(me ? me.joined_at : null))}}`;
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
    private readonly ctx: GatewayContext,
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
    if (!fastPathOn(this.ctx, "guildBots")) return this.ctx.core.guilds.memberIds(guildId).filter(this.hasSessions);
    let bots = this.byGuild.get(guildId);
    if (!bots) {
      bots = this.ctx.core.guilds.memberIds(guildId).filter(this.hasSessions);
      this.byGuild.set(guildId, bots);
    }
    return bots;
  }
}
