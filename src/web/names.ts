/**
 * The names the pages show for permissions and intents: the 13 permissions Parley
 * honours (spec 2.9) at the reference platform's bits, labelled as its client does, and
 * the gateway intents by their constant names (the privileged three need approval).
 */
import type { Guild } from "./types";

export interface PermissionInfo {
  /** The people's API name. */
  name: string;
  label: string;
  bit: number;
}

export const PERMISSIONS: PermissionInfo[] = [
  { name: "ADMINISTRATOR", label: "Administrator", bit: 1 << 3 },
  { name: "MANAGE_GUILD", label: "Manage Server", bit: 1 << 5 },
  { name: "MANAGE_ROLES", label: "Manage Roles", bit: 1 << 28 },
  { name: "MANAGE_CHANNELS", label: "Manage Channels", bit: 1 << 4 },
  { name: "KICK_MEMBERS", label: "Kick Members", bit: 1 << 1 },
  { name: "BAN_MEMBERS", label: "Ban Members", bit: 1 << 2 },
  { name: "CREATE_INSTANT_INVITE", label: "Create Invite", bit: 1 << 0 },
  { name: "VIEW_AUDIT_LOG", label: "View Audit Log", bit: 1 << 7 },
  { name: "MANAGE_MESSAGES", label: "Manage Messages", bit: 1 << 13 },
  { name: "MUTE_MEMBERS", label: "Mute Members", bit: 1 << 22 },
  { name: "MANAGE_EXPRESSIONS", label: "Manage Expressions", bit: 1 << 30 },
  { name: "SEND_MESSAGES", label: "Send Messages", bit: 1 << 11 },
  { name: "ATTACH_FILES", label: "Attach Files", bit: 1 << 15 },
];

export const BIT = Object.fromEntries(PERMISSIONS.map((p) => [p.name, p.bit])) as Record<string, number>;

/** Whether the person holds a permission on a server (Administrator and ownership hold all). */
export function holds(g: Pick<Guild, "my_permissions">, bit: number): boolean {
  const mine = Number(g.my_permissions);
  return (mine & BIT.ADMINISTRATOR) !== 0 || (mine & bit) === bit;
}

/** A bitfield's permission labels, in the order above. */
export function permissionLabels(bits: string | number): string[] {
  const n = Number(bits);
  return PERMISSIONS.filter((p) => (n & p.bit) !== 0).map((p) => p.label);
}

export const INTENTS = [
  "GUILDS",
  "GUILD_MEMBERS",
  "GUILD_MODERATION",
  "GUILD_EXPRESSIONS",
  "GUILD_INTEGRATIONS",
  "GUILD_WEBHOOKS",
  "GUILD_INVITES",
  "GUILD_VOICE_STATES",
  "GUILD_PRESENCES",
  "GUILD_MESSAGES",
  "GUILD_MESSAGE_REACTIONS",
  "GUILD_MESSAGE_TYPING",
  "DIRECT_MESSAGES",
  "DIRECT_MESSAGE_REACTIONS",
  "DIRECT_MESSAGE_TYPING",
  "MESSAGE_CONTENT",
  "GUILD_SCHEDULED_EVENTS",
  "AUTO_MODERATION_CONFIGURATION",
  "AUTO_MODERATION_EXECUTION",
  "GUILD_MESSAGE_POLLS",
  "DIRECT_MESSAGE_POLLS",
];

export const PRIVILEGED = new Set(["GUILD_MEMBERS", "GUILD_PRESENCES", "MESSAGE_CONTENT"]);
