/**
 * Mentions in message text. Stored text names users, roles and channels by internal id
 * (`<@id>`, `<@!id>`, `<@&id>`, `<#id>`); the wire layer translates these to and from
 * snowflakes at the boundary. Who a message mentions is decided when it is written, as
 * the reference decides it (reference-gaps 2.7: subject to allowed_mentions), and a reply
 * mentions the replied-to author unless told not to.
 */
/** An internal id (UUIDv7), as a pattern to build others from. */
export const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}";
/** A mention token with an internal id: kind (`@`, `@!`, `@&`, `#`) and id. */
export const MENTION_TOKEN = new RegExp(`<(@!?|@&|#)(${UUID})>`, "g");

export interface MentionLookup {
  userExists(id: string): boolean;
  roleInGuild(guildId: string, roleId: string): boolean;
}

/**
 * What a message may mention (the reference's allowed_mentions): each kind either
 * wholesale (true), or only the ids listed. null: everything, and a reply's author.
 */
export interface AllowedMentions {
  users: boolean | string[];
  roles: boolean | string[];
  everyone: boolean;
  repliedUser: boolean;
}

/** The users and (in a server) roles a text mentions, each once, in order of first mention. */
export function mentionsIn(text: string, guildId: string | null, look: MentionLookup): { users: string[]; roles: string[] } {
  const users: string[] = [];
  const roles: string[] = [];
  // Every mention token starts with "<@": most messages have none and skip the scan.
  if (!text.includes("<@")) return { users, roles };
  for (const [, kind, id] of text.matchAll(MENTION_TOKEN)) {
    if (kind === "@&") {
      if (guildId && !roles.includes(id) && look.roleInGuild(guildId, id)) roles.push(id);
    } else if (kind !== "#" && !users.includes(id) && look.userExists(id)) users.push(id);
  }
  return { users, roles };
}

const allows = (rule: boolean | string[], id: string) => (rule === true ? true : rule === false ? false : rule.includes(id));

/**
 * Whom a message mentions: what its text names, narrowed by allowed_mentions, plus the
 * replied-to author (first, as the reference lists it) when the reply may mention them.
 */
export function decideMentions(
  text: string,
  guildId: string | null,
  look: MentionLookup,
  allowed: AllowedMentions | null,
  repliedAuthorId: string | null,
): { users: string[]; roles: string[] } {
  const found = mentionsIn(text, guildId, look);
  const users = allowed ? found.users.filter((id) => allows(allowed.users, id)) : found.users;
  const roles = allowed ? found.roles.filter((id) => allows(allowed.roles, id)) : found.roles;
  if (repliedAuthorId && (allowed?.repliedUser ?? true) && !users.includes(repliedAuthorId) && look.userExists(repliedAuthorId))
    users.unshift(repliedAuthorId);
  return { users, roles };
}
