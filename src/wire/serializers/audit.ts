import type { AuditChange, AuditEntry, AuditLogModel } from "../../core";
import type { Ids } from "../snowflakes";
import { userJson } from "./user";
import { webhookJson } from "./webhook";

/** Keys whose values are internal ids, in `changes` and `options`. */
const ID_KEYS = new Set([
  "id",
  "channel_id",
  "parent_id",
  "application_id",
  "guild_id",
  "owner_id",
  "system_channel_id",
  "message_id",
  "inviter_id",
]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function mapIds(f: Ids, key: string, v: unknown): unknown {
  if (typeof v === "string" && ID_KEYS.has(key) && UUID.test(v)) return f.of(v);
  if (Array.isArray(v)) return v.map((x) => mapIds(f, key, x));
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, mapIds(f, k, x)]));
  return v;
}

/** AuditLogEntry (reference-gaps 3.13); `reason` is always present (null without one). */
export function auditEntryJson(f: Ids, row: AuditEntry) {
  const changes = (JSON.parse(row.changes) as AuditChange[]).map((c) => {
    const out: Record<string, unknown> = { key: c.key };
    if ("old_value" in c) out.old_value = mapIds(f, c.key, c.old_value);
    if ("new_value" in c) out.new_value = mapIds(f, c.key, c.new_value);
    return out;
  });
  const out: Record<string, unknown> = {
    id: f.of(row.id),
    user_id: f.ofNullable(row.actor_id),
    target_id: f.ofNullable(row.target_id),
    action_type: row.action_type,
    changes,
    reason: row.reason,
  };
  if (row.options) out.options = mapIds(f, "", JSON.parse(row.options));
  return out;
}

/** AuditLog: entries plus the users and webhooks they reference; every list always present. */
export function auditLogJson(f: Ids, m: AuditLogModel) {
  return {
    audit_log_entries: m.entries.map((r) => auditEntryJson(f, r)),
    users: m.users.map((u) => userJson(f, u)),
    webhooks: m.webhooks.map((w) => webhookJson(f, w, { withUser: true })),
    application_commands: [],
    auto_moderation_rules: [],
    guild_scheduled_events: [],
    integrations: [],
    threads: [],
  };
}
