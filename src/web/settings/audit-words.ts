/**
 * What an audit entry changed, in the words a moderator reads in the Audit log's
 * "Changes" column: "Slow mode: off → 30 seconds", "For @everyone: Send Messages denied",
 * "Added @Mods". An entry's `changes` and `options` hold raw fields (internal ids, bit
 * fields as strings); a row that said only "Channel updated #general" left the reader to
 * guess what was done. Ids are named from the server as it is now, else as recorded.
 */
import type { AuditEntry } from "../../contract";
import type { Guild } from "../types";
import { PERMISSIONS } from "../names";

type Change = AuditEntry["changes"][number];

const FIELD: Record<string, string> = {
  name: "Name",
  topic: "Topic",
  description: "Description",
  rate_limit_per_user: "Slow mode",
  nsfw: "Age-restricted",
  parent_id: "Category",
  position: "Position",
  type: "Type",
  user_limit: "User limit",
  bitrate: "Bitrate",
  system_channel_id: "System channel",
  permissions: "Permissions",
  color: "Color",
  hoist: "Shown apart",
  mentionable: "Mentionable",
  icon_hash: "Icon",
  unicode_emoji: "Emoji",
  nick: "Nickname",
  owner_id: "Owner",
  default_message_notifications: "Notifications",
  max_uses: "Max uses",
  max_age: "Expires after",
};

/** Seconds as people say them: "off", "30 seconds", "5 minutes", "6 hours". */
function duration(s: number): string {
  if (!s) return "off";
  const [n, unit] = s % 3600 === 0 ? [s / 3600, "hour"] : s % 60 === 0 ? [s / 60, "minute"] : [s, "second"];
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

function channelName(guild: Guild, id: unknown): string {
  const c = guild.channels.find((x) => x.id === id);
  return c ? (c.type === 4 ? (c.name ?? "") : `#${c.name}`) : "a channel since deleted";
}

/** A value of `key` as people read it; absent (null) is "none". */
function value(guild: Guild, key: string, v: unknown): string {
  if (v === undefined || v === null || v === "") return key === "rate_limit_per_user" ? "off" : "none";
  if (key === "rate_limit_per_user") return duration(Number(v));
  if (key === "parent_id" || key === "system_channel_id" || key === "channel_id") return channelName(guild, v);
  if (key === "color") return `#${Number(v).toString(16).padStart(6, "0")}`;
  if (key === "max_age") return duration(Number(v));
  if (typeof v === "boolean") return v ? "on" : "off";
  if (typeof v === "string") return `“${v}”`;
  return String(v);
}

/** A role's permissions that changed: "+Kick Members, −Ban Members". */
function permissionDelta(c: Change): string {
  const o = Number(c.old_value ?? 0);
  const n = Number(c.new_value ?? 0);
  const parts = PERMISSIONS.flatMap((p) => {
    if (n & p.bit && !(o & p.bit)) return [`+${p.label}`];
    if (o & p.bit && !(n & p.bit)) return [`−${p.label}`];
    return [];
  });
  return `Permissions: ${parts.join(", ") || "unchanged"}`;
}

/** One line per field an update (or a server's, a role's, an invite's) changed. */
function fieldChanges(guild: Guild, changes: Change[]): string[] {
  return changes.flatMap((c) => {
    if (c.key === "permissions") return [permissionDelta(c)];
    if (c.key === "icon_hash") return [c.new_value ? "Icon changed" : "Icon removed"];
    const label = FIELD[c.key];
    if (!label) return [];
    return [`${label}: ${value(guild, c.key, c.old_value)} → ${value(guild, c.key, c.new_value)}`];
  });
}

type BitState = "allowed" | "denied" | "inherited";

function stateOf(allow: unknown, deny: unknown, bit: number): BitState {
  if (Number(allow ?? 0) & bit) return "allowed";
  if (Number(deny ?? 0) & bit) return "denied";
  return "inherited";
}

/** Whom an overwrite entry is about: "@Mods", "@everyone" or a member's name. */
function overwriteTarget(guild: Guild, e: AuditEntry, nameOf: (userId: string) => string | null): string {
  const id = String(e.options?.id ?? "");
  if (e.options?.type === "1") return nameOf(id) ?? "a member";
  const role = guild.roles.find((r) => r.id === id);
  if (role?.everyone || id === guild.id) return "@everyone";
  return `@${role?.name ?? String(e.options?.role_name ?? "a role since deleted")}`;
}

/** An overwrite created, changed or removed: each bit whose state moved, "Send Messages: inherited → denied". */
function overwriteChanges(guild: Guild, e: AuditEntry, nameOf: (userId: string) => string | null): string[] {
  const at = (key: string, side: "old_value" | "new_value") => e.changes.find((c) => c.key === key)?.[side];
  // An update records only the field that changed; the other held none of the bits that moved.
  const [oldAllow, oldDeny, newAllow, newDeny] = [
    at("allow", "old_value"),
    at("deny", "old_value"),
    at("allow", "new_value"),
    at("deny", "new_value"),
  ];
  const moved = PERMISSIONS.flatMap((p) => {
    const was = stateOf(oldAllow, oldDeny, p.bit);
    const now = stateOf(newAllow, newDeny, p.bit);
    if (was === now) return [];
    return [e.action_type === 13 ? `${p.label} ${now}` : `${p.label}: ${was} → ${now}`];
  });
  const whom = `For ${overwriteTarget(guild, e, nameOf)}`;
  if (e.action_type === 15 && !moved.length) return [`${whom}: removed`];
  return [`${whom}: ${moved.join(", ") || "no permission set"}`];
}

/** What an entry changed, one line per change; nothing for an act its row already says in full. */
export function auditDetails(guild: Guild, e: AuditEntry, nameOf: (userId: string) => string | null): string[] {
  switch (e.action_type) {
    case 1:
    case 11:
    case 24:
    case 31:
    case 41:
    case 51:
    case 61:
      return fieldChanges(guild, e.changes);
    case 13:
    case 14:
    case 15:
      return overwriteChanges(guild, e, nameOf);
    case 25:
      return e.changes.flatMap((c) => {
        const roles = Array.isArray(c.new_value) ? (c.new_value as { name?: string }[]).map((r) => `@${r.name ?? "a role"}`) : [];
        if (c.key === "$add") return [`Added ${roles.join(", ")}`];
        if (c.key === "$remove") return [`Removed ${roles.join(", ")}`];
        return [];
      });
    case 72: {
      const n = Number(e.options?.count ?? 1);
      return [`${n} message${n === 1 ? "" : "s"} in ${channelName(guild, e.options?.channel_id)}`];
    }
    case 73: {
      const n = Number(e.options?.count ?? 0);
      return [`${n} message${n === 1 ? "" : "s"}`];
    }
    case 74:
    case 75:
      return [`In ${channelName(guild, e.options?.channel_id)}`];
    default:
      return [];
  }
}
