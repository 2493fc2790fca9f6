/**
 * The 13 permissions Parley sets and honours (spec 2.9), at the reference platform's
 * bit positions (reference-gaps 1.1). Anything else written is dropped; anything read
 * shows 0 for other bits. Bits fit in a JS number (highest is 1 << 30), but the API
 * carries them as decimal strings; parsing goes through BigInt so that a 64-bit value
 * with unknown high bits is accepted and masked, never rejected or rounded.
 */
import { DomainError } from "./errors";

export const PERMISSIONS = {
  CREATE_INSTANT_INVITE: 1 << 0,
  KICK_MEMBERS: 1 << 1,
  BAN_MEMBERS: 1 << 2,
  ADMINISTRATOR: 1 << 3,
  MANAGE_CHANNELS: 1 << 4,
  MANAGE_GUILD: 1 << 5,
  VIEW_AUDIT_LOG: 1 << 7,
  SEND_MESSAGES: 1 << 11,
  MANAGE_MESSAGES: 1 << 13,
  ATTACH_FILES: 1 << 15,
  MUTE_MEMBERS: 1 << 22,
  MANAGE_ROLES: 1 << 28,
  MANAGE_EXPRESSIONS: 1 << 30,
} as const;

export type PermissionName = keyof typeof PERMISSIONS;

export const ALL_PERMISSIONS = Object.values(PERMISSIONS).reduce((a, b) => a | b, 0) >>> 0;

/** @everyone's default: the honoured bits of the reference platform's default. */
export const DEFAULT_EVERYONE = PERMISSIONS.SEND_MESSAGES | PERMISSIONS.CREATE_INSTANT_INVITE | PERMISSIONS.ATTACH_FILES;

const NAME_ALIASES: Record<string, PermissionName> = {
  MANAGE_GUILD_EXPRESSIONS: "MANAGE_EXPRESSIONS",
  MANAGE_EMOJIS_AND_STICKERS: "MANAGE_EXPRESSIONS",
  MANAGE_SERVER: "MANAGE_GUILD",
};

/** Mask any 64-bit bitfield (string, number or bigint) to the 13 honoured bits. */
export function maskPermissions(value: string | number | bigint): number {
  const big = typeof value === "bigint" ? value : BigInt(value);
  return Number(big & BigInt(ALL_PERMISSIONS)) >>> 0;
}

/** Name of a permission, or undefined if it is not one of the reference's names we know. */
export function permissionBit(name: string): number | undefined {
  const n = name.toUpperCase();
  if (n in PERMISSIONS) return PERMISSIONS[n as PermissionName];
  if (n in NAME_ALIASES) return PERMISSIONS[NAME_ALIASES[n]];
  return undefined;
}

export function hasPermission(perms: number, bit: number): boolean {
  return (perms & PERMISSIONS.ADMINISTRATOR) !== 0 || (perms & bit) === bit;
}

export interface PermissionOverwrite {
  targetId: string;
  targetType: 0 | 1;
  allow: number;
  deny: number;
}

export interface PermissionInputs {
  isOwner: boolean;
  everyonePerms: number;
  memberRolePerms: number[]; // permissions of the member's roles (not @everyone)
  memberRoleIds: string[];
  everyoneRoleId: string;
  userId: string;
  overwrites?: PermissionOverwrite[]; // channel layer, if computing for a channel
}

/** Reference-gaps 1.3, steps A and B. */
export function computePermissions(i: PermissionInputs): number {
  if (i.isOwner) return ALL_PERMISSIONS;
  let p = i.everyonePerms;
  for (const r of i.memberRolePerms) p |= r;
  if (p & PERMISSIONS.ADMINISTRATOR) return ALL_PERMISSIONS;
  if (!i.overwrites) return p >>> 0;
  const ev = i.overwrites.find((o) => o.targetId === i.everyoneRoleId);
  if (ev) p = (p & ~ev.deny) | ev.allow;
  let a = 0;
  let d = 0;
  for (const o of i.overwrites) {
    if (o.targetType === 0 && o.targetId !== i.everyoneRoleId && i.memberRoleIds.includes(o.targetId)) {
      a |= o.allow;
      d |= o.deny;
    }
  }
  p = (p & ~d) | a;
  const mo = i.overwrites.find((o) => o.targetType === 1 && o.targetId === i.userId);
  if (mo) p = (p & ~mo.deny) | mo.allow;
  return p >>> 0;
}

/** Intents: the reference platform's bit values (spec 6.2). */
export const INTENTS = {
  GUILDS: 1 << 0,
  GUILD_MEMBERS: 1 << 1,
  GUILD_MODERATION: 1 << 2,
  GUILD_EXPRESSIONS: 1 << 3,
  GUILD_INTEGRATIONS: 1 << 4,
  GUILD_WEBHOOKS: 1 << 5,
  GUILD_INVITES: 1 << 6,
  GUILD_VOICE_STATES: 1 << 7,
  GUILD_PRESENCES: 1 << 8,
  GUILD_MESSAGES: 1 << 9,
  GUILD_MESSAGE_REACTIONS: 1 << 10,
  GUILD_MESSAGE_TYPING: 1 << 11,
  DIRECT_MESSAGES: 1 << 12,
  DIRECT_MESSAGE_REACTIONS: 1 << 13,
  DIRECT_MESSAGE_TYPING: 1 << 14,
  MESSAGE_CONTENT: 1 << 15,
  GUILD_SCHEDULED_EVENTS: 1 << 16,
  AUTO_MODERATION_CONFIGURATION: 1 << 20,
  AUTO_MODERATION_EXECUTION: 1 << 21,
  GUILD_MESSAGE_POLLS: 1 << 24,
  DIRECT_MESSAGE_POLLS: 1 << 25,
} as const;

export type IntentName = keyof typeof INTENTS;

export const ALL_INTENTS = Object.values(INTENTS).reduce((a, b) => a | b, 0);
export const PRIVILEGED_INTENTS = INTENTS.GUILD_MEMBERS | INTENTS.GUILD_PRESENCES | INTENTS.MESSAGE_CONTENT;
export const NON_PRIVILEGED_INTENTS = ALL_INTENTS & ~PRIVILEGED_INTENTS;

export function intentBit(name: string): number | undefined {
  const n = name.toUpperCase();
  return n in INTENTS ? INTENTS[n as IntentName] : undefined;
}

/**
 * A permission list as people and world documents write it: names, or decimal
 * bitfields, or one decimal string. Bits outside the 13 are dropped (spec 2.9); an
 * unknown name is refused, naming its place (`path[i]`).
 */
export function permissionsFromList(v: string | string[], path: string): number {
  if (typeof v === "string") return maskPermissions(v);
  let bits = 0;
  v.forEach((name, i) => {
    const b = /^\d+$/.test(name) ? maskPermissions(name) : permissionBit(name);
    if (b === undefined) throw DomainError.invalid(`${path}[${i}]`, `Unknown permission '${name}'`, "BASE_TYPE_CHOICES");
    bits |= b;
  });
  return bits;
}

/** An intent list: names, or one integer. An unknown name is refused, naming its place. */
export function intentsFromList(v: number | string[], path: string): number {
  if (typeof v === "number") return v;
  let bits = 0;
  v.forEach((name, i) => {
    const b = intentBit(name);
    if (b === undefined) throw DomainError.invalid(`${path}[${i}]`, `Unknown intent '${name}'`, "BASE_TYPE_CHOICES");
    bits |= b;
  });
  return bits;
}

export function intentNames(bits: number): IntentName[] {
  return (Object.keys(INTENTS) as IntentName[]).filter((k) => (bits & INTENTS[k]) !== 0);
}
