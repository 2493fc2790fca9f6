/**
 * How each person wants to hear of messages (migration 017): per server, per channel and
 * per DM, a level (every message, only @mentions, nothing; or as the scope above says) and
 * a mute until a time; the server's own default for its members is the reference's
 * `default_message_notifications` (spec 2.6: 0 all, 1 only mentions), set by those who
 * may manage the server. Whether a message notifies is one pure rule the web client runs
 * on each message it hears of (src/text/notify.ts); `decide` runs it here the same way.
 * A person's change reaches their other sessions (`notification_settings.updated`) and no
 * bot (spec 6.2: notification preferences are never dispatched).
 */
import type { CoreDeps } from "./deps";
import type { Guilds } from "./guilds";
import type { Guild, Message, NotificationSetting } from "./models";
import { AUDIT, type Audit } from "./audit";
import { accessChannel } from "./access";
import { DomainError } from "./errors";
import { hasPermission, PERMISSIONS } from "./permissions";
import { decideNotification, MUTED_FOREVER, NOTIFY, type NotifyDecision, type NotifyLevel } from "../text/notify";

export interface NotificationPatch {
  /** Absent: kept; null: as the scope above says. */
  level?: NotifyLevel | null;
  /** Absent: kept; null or a past time: not muted. */
  mutedUntil?: number | null;
}

const LEVELS: readonly unknown[] = [NOTIFY.ALL, NOTIFY.MENTIONS, NOTIFY.NOTHING];

export class Notifications {
  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly audit: Audit,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  /** Every setting the person has made (their client loads them once, then follows the event). */
  list(personId: string): NotificationSetting[] {
    return this.db.query("SELECT * FROM notification_settings WHERE user_id = ? ORDER BY scope_id").all(personId) as NotificationSetting[];
  }

  /** The person's setting for a server they are in, or a channel or DM they can see (404 otherwise); unset: nulls. */
  get(personId: string, scopeId: string): NotificationSetting {
    const scope = this.scope(personId, scopeId);
    const row = this.db
      .query("SELECT * FROM notification_settings WHERE user_id = ? AND scope_id = ?")
      .get(personId, scopeId) as NotificationSetting | null;
    return row ?? { user_id: personId, scope_id: scopeId, ...scope, level: null, muted_until: null };
  }

  put(personId: string, scopeId: string, patch: NotificationPatch): NotificationSetting {
    if (patch.level !== undefined && patch.level !== null && !LEVELS.includes(patch.level))
      throw DomainError.invalid("level", "Must be 0, 1, 2 or null.", "BASE_TYPE_CHOICES");
    const until = patch.mutedUntil;
    if (until !== undefined && until !== null && (!Number.isInteger(until) || until < 0 || until > MUTED_FOREVER))
      throw DomainError.invalid("muted_until", "Must be a time, or null.", "NUMBER_TYPE_MAX");
    return this.d.store.write(() => {
      // Level and mute are written together: read as committed, one change at a time.
      this.d.store.serialize(`notifications:${personId}:${scopeId}`);
      const old = this.get(personId, scopeId);
      const next: NotificationSetting = {
        ...old,
        level: patch.level !== undefined ? patch.level : old.level,
        muted_until: until !== undefined ? (until !== null && until > this.d.clock.now() ? until : null) : old.muted_until,
      };
      if (next.level === null && next.muted_until === null)
        this.db.query("DELETE FROM notification_settings WHERE user_id = ? AND scope_id = ?").run(personId, scopeId);
      else
        this.db
          .query(
            `INSERT INTO notification_settings (user_id, scope_id, guild_id, channel_id, level, muted_until) VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT (user_id, scope_id) DO UPDATE SET level = excluded.level, muted_until = excluded.muted_until`,
          )
          .run(personId, scopeId, next.guild_id, next.channel_id, next.level, next.muted_until);
      this.d.store.emit({ type: "notification_settings.updated", userId: personId, scopeId });
      return next;
    });
  }

  /** A server's default for its members: MANAGE_GUILD (403), members only (404); GUILD_UPDATE, audited (1). */
  setServerDefault(actorId: string, guildId: string, level: number, reason: string | null = null): Guild {
    if (level !== NOTIFY.ALL && level !== NOTIFY.MENTIONS)
      throw DomainError.invalid("default_message_notifications", "Must be 0 or 1.", "BASE_TYPE_CHOICES");
    return this.d.store.write(() => {
      const perms = this.guilds.memberPermissions(guildId, actorId);
      if (perms === null) throw DomainError.notFound("guild");
      if (!hasPermission(perms, PERMISSIONS.MANAGE_GUILD)) throw DomainError.forbidden();
      const g = this.guilds.require(guildId);
      if (g.default_message_notifications === level) return g;
      this.db.query("UPDATE guilds SET default_message_notifications = ? WHERE id = ?").run(level, guildId);
      const changes = [{ key: "default_message_notifications", old_value: g.default_message_notifications, new_value: level }];
      this.audit.record({ guildId, actorId, actionType: AUDIT.GUILD_UPDATE, targetId: guildId, changes, reason });
      this.d.store.emit({ type: "guild.updated", guildId });
      return { ...g, default_message_notifications: level };
    });
  }

  /** Whether this message notifies this person, and whether it mentions them (the rule of src/text/notify.ts). */
  decide(personId: string, m: Message): NotifyDecision {
    const ch = this.guilds.requireChannel(m.channel_id);
    const own = (scopeId: string) =>
      this.db
        .query("SELECT level, muted_until FROM notification_settings WHERE user_id = ? AND scope_id = ?")
        .get(personId, scopeId) as Pick<NotificationSetting, "level" | "muted_until"> | null;
    return decideNotification(
      {
        author_id: m.author_id,
        guild_id: ch.guild_id,
        flags: m.flags,
        mention_everyone: m.mention_everyone === 1,
        mentions: JSON.parse(m.mentions) as string[],
        mention_roles: JSON.parse(m.mention_roles) as string[],
      },
      {
        me: personId,
        myRoles: ch.guild_id ? this.guilds.memberRoleIds(ch.guild_id, personId) : [],
        channel: own(ch.id) as never,
        guild: ch.guild_id ? (own(ch.guild_id) as never) : null,
        serverDefault: ch.guild_id ? (this.guilds.get(ch.guild_id)?.default_message_notifications ?? 0) : 0,
        now: this.d.clock.now(),
      },
    );
  }

  /** What a scope id names for this person: a server they are in, or a channel (a DM) they see. */
  private scope(personId: string, scopeId: string): { guild_id: string | null; channel_id: string | null } {
    if (this.guilds.get(scopeId)) {
      if (!this.guilds.isMember(scopeId, personId)) throw DomainError.notFound("guild");
      return { guild_id: scopeId, channel_id: null };
    }
    const a = accessChannel(this.d, this.guilds, personId, scopeId);
    return { guild_id: a.channel.guild_id, channel_id: a.channel.id };
  }
}
