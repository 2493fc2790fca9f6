import type { BotApi } from "../../botapi/context";
import type { AuditChange, AuditRow } from "../../core/audit";
import { AUDIT } from "../../core/audit";
import { userJson } from "./user";
import { webhookJson } from "./webhook";

/** Keys whose values are internal ids, in `changes` and `options`. */
const ID_KEYS = new Set(["id", "channel_id", "parent_id", "application_id", "guild_id", "owner_id", "system_channel_id", "message_id"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function mapIds(api: BotApi, key: string, v: unknown): unknown {
  if (typeof v === "string" && ID_KEYS.has(key) && UUID.test(v)) return api.flakes.of(v);
  if (Array.isArray(v)) return v.map((x) => mapIds(api, key, x));
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, mapIds(api, k, x)]));
  return v;
}

/** AuditLogEntry (reference-gaps 3.13); `reason` is always present (null without one). */
export function auditEntryJson(api: BotApi, row: AuditRow) {
  const changes = (JSON.parse(row.changes) as AuditChange[]).map((c) => {
    const out: Record<string, unknown> = { key: c.key };
    if ("old_value" in c) out.old_value = mapIds(api, c.key, c.old_value);
    if ("new_value" in c) out.new_value = mapIds(api, c.key, c.new_value);
    return out;
  });
  const out: Record<string, unknown> = {
    id: api.flakes.of(row.id),
    user_id: api.flakes.ofNullable(row.actor_id),
    target_id: api.flakes.ofNullable(row.target_id),
    action_type: row.action_type,
    changes,
    reason: row.reason,
  };
  if (row.options) out.options = mapIds(api, "", JSON.parse(row.options));
  return out;
}

const USER_TARGETS: number[] = [
  AUDIT.MEMBER_KICK,
  AUDIT.MEMBER_BAN_ADD,
  AUDIT.MEMBER_BAN_REMOVE,
  AUDIT.MEMBER_UPDATE,
  AUDIT.MEMBER_ROLE_UPDATE,
  AUDIT.MESSAGE_DELETE,
];
const WEBHOOK_TARGETS: number[] = [AUDIT.WEBHOOK_CREATE, AUDIT.WEBHOOK_UPDATE, AUDIT.WEBHOOK_DELETE];

/** AuditLog: entries plus the users and webhooks they reference; every list always present. */
export function auditLogJson(api: BotApi, rows: AuditRow[]) {
  const userIds = new Set<string>();
  const webhookIds = new Set<string>();
  for (const r of rows) {
    if (r.actor_id) userIds.add(r.actor_id);
    if (r.target_id && USER_TARGETS.includes(r.action_type)) userIds.add(r.target_id);
    if (r.target_id && WEBHOOK_TARGETS.includes(r.action_type)) webhookIds.add(r.target_id);
  }
  const users = [...userIds].flatMap((id) => {
    const u = api.core.users.get(id);
    return u ? [userJson(api.flakes, u)] : [];
  });
  const webhooks = [...webhookIds].flatMap((id) => {
    const w = api.core.webhooks.get(id);
    return w ? [webhookJson(api, w, { withUser: true })] : [];
  });
  return {
    audit_log_entries: rows.map((r) => auditEntryJson(api, r)),
    users,
    webhooks,
    application_commands: [],
    auto_moderation_rules: [],
    guild_scheduled_events: [],
    integrations: [],
    threads: [],
  };
}
