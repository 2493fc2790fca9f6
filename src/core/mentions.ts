/**
 * Mentions in message text. Stored text names users, roles and channels by internal id
 * (`<@id>`, `<@!id>`, `<@&id>`, `<#id>`); the wire layer translates these to and from
 * snowflakes at the boundary. Who a message mentions is decided when it is written.
 */
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}";
/** A mention token with an internal id: kind (`@`, `@!`, `@&`, `#`) and id. */
export const MENTION_TOKEN = new RegExp(`<(@!?|@&|#)(${UUID})>`, "g");

export interface MentionLookup {
  userExists(id: string): boolean;
  roleInGuild(guildId: string, roleId: string): boolean;
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
