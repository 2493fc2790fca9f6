/**
 * Two caches of the fan-out, both dropped on the domain events that may change them.
 */
import type { DomainEvent } from "../core/events";
import { guildCreateJson, joinedAtJson } from "../wire/serializers/guild";
import type { GatewayContext } from "./context";

/**
 * GUILD_CREATE bodies are the largest payloads (every channel, role and member), and
 * all bots see the same one but for their own `joined_at`. The body is serialized once
 * per guild and presence view, `joined_at` appended per bot, and the cache is dropped
 * on every domain event (any of them may change what the body shows).
 */
export class GuildCreateCache {
  private bodies = new Map<string, string>();

  constructor(private readonly ctx: GatewayContext) {}

  clear(): void {
    if (this.bodies.size) this.bodies.clear();
  }

  payload(guildId: string, botUserId: string, presences: boolean): string {
    const key = `${guildId}:${presences}`;
    let head = this.bodies.get(key);
    if (head === undefined) {
      head = JSON.stringify(guildCreateJson(this.ctx.flakes, this.ctx.core.reads.guilds.guildCreate(guildId, presences))).slice(0, -1);
      this.bodies.set(key, head);
    }
    const me = this.ctx.core.guilds.member(guildId, botUserId);
    return `${head},"joined_at":${JSON.stringify(joinedAtJson(me ? me.joined_at : null))}}`;
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
    let bots = this.byGuild.get(guildId);
    if (!bots) {
      bots = this.ctx.core.guilds.memberIds(guildId).filter(this.hasSessions);
      this.byGuild.set(guildId, bots);
    }
    return bots;
  }
}
