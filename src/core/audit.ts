import type { CoreDeps } from "./deps";
import { DomainError } from "./errors";
import type { AuditEntry } from "./models";
import type { Guilds } from "./guilds";
import { PERMISSIONS } from "./permissions";

/**
 * The audit log: one entry per moderation or management action, with the actor, the
 * target, what changed and the reason the actor gave (X-Audit-Log-Reason). Action type
 * numbers are the reference platform's (reference-gaps 2.5). Ids inside `changes` and
 * `options` are internal; the bot API boundary maps them.
 */
export const AUDIT = {
  GUILD_UPDATE: 1,
  CHANNEL_CREATE: 10,
  CHANNEL_UPDATE: 11,
  CHANNEL_DELETE: 12,
  CHANNEL_OVERWRITE_CREATE: 13,
  CHANNEL_OVERWRITE_UPDATE: 14,
  CHANNEL_OVERWRITE_DELETE: 15,
  MEMBER_KICK: 20,
  MEMBER_BAN_ADD: 22,
  MEMBER_BAN_REMOVE: 23,
  MEMBER_UPDATE: 24,
  MEMBER_ROLE_UPDATE: 25,
  BOT_ADD: 28,
  ROLE_CREATE: 30,
  ROLE_UPDATE: 31,
  ROLE_DELETE: 32,
  INVITE_CREATE: 40,
  INVITE_UPDATE: 41,
  INVITE_DELETE: 42,
  WEBHOOK_CREATE: 50,
  WEBHOOK_UPDATE: 51,
  WEBHOOK_DELETE: 52,
  EMOJI_CREATE: 60,
  EMOJI_UPDATE: 61,
  EMOJI_DELETE: 62,
  MESSAGE_DELETE: 72,
  MESSAGE_BULK_DELETE: 73,
  MESSAGE_PIN: 74,
  MESSAGE_UNPIN: 75,
} as const;

export type AuditActionType = (typeof AUDIT)[keyof typeof AUDIT];

export interface AuditChange {
  key: string;
  old_value?: unknown;
  new_value?: unknown;
}

export interface AuditInput {
  guildId: string;
  actorId: string | null;
  actionType: number;
  targetId?: string | null;
  changes?: AuditChange[];
  options?: Record<string, unknown> | null;
  /** From X-Audit-Log-Reason; at most 512 characters are kept. */
  reason?: string | null;
}

export interface AuditQuery {
  actorId?: string;
  actionType?: number;
  /** Internal id bounds (exclusive). */
  before?: string;
  after?: string;
  limit: number;
}

/**
 * Build `changes` from two snapshots: one entry per key whose value differs. Reference
 * semantics: a key that became null has only old_value; one that was null has only new_value.
 */
export function diffChanges(before: Record<string, unknown> | null, after: Record<string, unknown> | null): AuditChange[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const out: AuditChange[] = [];
  for (const key of keys) {
    const o = before?.[key] ?? null;
    const n = after?.[key] ?? null;
    if (JSON.stringify(o) === JSON.stringify(n)) continue;
    const c: AuditChange = { key };
    if (o !== null) c.old_value = o;
    if (n !== null) c.new_value = n;
    out.push(c);
  }
  return out;
}

export class Audit {
  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  /**
   * Write one entry. Joins the caller's transaction when there is one, so the entry
   * commits (or rolls back) with the action it describes.
   */
  record(input: AuditInput): AuditEntry {
    return this.d.store.write(() => {
      const row: AuditEntry = {
        id: this.d.ids.next(),
        guild_id: input.guildId,
        actor_id: input.actorId,
        action_type: input.actionType,
        target_id: input.targetId ?? null,
        changes: JSON.stringify(input.changes ?? []),
        options: input.options ? JSON.stringify(input.options) : null,
        reason: input.reason ? input.reason.slice(0, 512) : null,
        created_at: this.d.clock.now(),
      };
      this.db
        .query(
          `INSERT INTO audit_log (id, guild_id, actor_id, action_type, target_id, changes, options, reason, created_at)
           VALUES ($id, $guild_id, $actor_id, $action_type, $target_id, $changes, $options, $reason, $created_at)`,
        )
        .run(row as never);
      return row;
    });
  }

  /**
   * The log as a member reads it (bots and people alike): a member with VIEW_AUDIT_LOG
   * (404 for anyone not in the server, 403 for a member without it), filtered by action
   * and by who acted, paged as `list` pages.
   */
  forMember(actorId: string, guildId: string, q: AuditQuery): AuditEntry[] {
    if (!this.guilds.get(guildId) || !this.guilds.isMember(guildId, actorId)) throw DomainError.notFound("guild");
    this.guilds.requirePermission(guildId, actorId, PERMISSIONS.VIEW_AUDIT_LOG);
    return this.list(guildId, q);
  }

  /**
   * Entries of a guild. With `after` only: ascending from it; otherwise newest first
   * (reference-gaps 2.5: neither bound means "before now").
   */
  list(guildId: string, q: AuditQuery): AuditEntry[] {
    if (!Number.isInteger(q.limit) || q.limit < 1 || q.limit > 100) throw DomainError.invalid("limit", "Must be between 1 and 100.");
    const where = ["guild_id = ?"];
    const args: (string | number)[] = [guildId];
    if (q.actorId !== undefined) {
      where.push("actor_id = ?");
      args.push(q.actorId);
    }
    if (q.actionType !== undefined) {
      where.push("action_type = ?");
      args.push(q.actionType);
    }
    if (q.before !== undefined) {
      where.push("id < ?");
      args.push(q.before);
    }
    if (q.after !== undefined) {
      where.push("id > ?");
      args.push(q.after);
    }
    const ascending = q.after !== undefined && q.before === undefined;
    return this.db
      .query(`SELECT * FROM audit_log WHERE ${where.join(" AND ")} ORDER BY id ${ascending ? "ASC" : "DESC"} LIMIT ?`)
      .all(...args, q.limit) as AuditEntry[];
  }
}
