/**
 * Mentions in message text. Stored text names users, roles and channels by internal id
 * (`<@id>`, `<@!id>`, `<@&id>`, `<#id>`; the grammar is src/text/mentions.ts, shared with
 * the wire layer and the web client); the wire layer translates these to and from
 * snowflakes at the boundary. Who a message mentions is decided when it is written, as
 * the reference decides it (reference-gaps 2.7: subject to allowed_mentions), and a reply
 * mentions the replied-to author unless told not to. The same decision serves bots
 * (`mentions`, `mention_roles`) and people (highlights, counts, the inbox) alike.
 *
 * A role is mentioned only if it is mentionable or its author may mention any role: the
 * reference's MENTION_EVERYONE, which is not one of the 13 bits (spec 2.9), so ADMINISTRATOR
 * (the owner holds it) stands for it, as it does for @everyone. A webhook's message has no
 * rights of its own: it mentions only mentionable roles.
 */
import { mentionTokens } from "../text/mentions";
import { hasPermission, PERMISSIONS } from "./permissions";

export { MENTION_TOKEN, EVERYONE, UUID } from "../text/mentions";

export interface MentionLookup {
  userExists(id: string): boolean;
  /** The role, if it belongs to this guild. */
  role(guildId: string, roleId: string): { mentionable: number } | null;
  /** Whether the author may mention any role of the guild in this channel (ADMINISTRATOR). */
  mayMentionAnyRole(guildId: string, channelId: string, authorId: string): boolean;
}

/** The author of a message, for the rule above; absent: only mentionable roles count. */
export interface MentionAuthor {
  id: string;
  channelId: string;
  webhook: boolean;
}

/**
 * The lookup the core answers with (users, roles and permissions as the store holds them):
 * core/guilds.ts and core/users.ts, named by what is used of them.
 */
export function mentionLookup(
  guilds: {
    role(guildId: string, roleId: string): { mentionable: number } | null;
    memberPermissions(guildId: string, userId: string, channelId?: string): number | null;
  },
  users: { get(id: string): unknown },
): MentionLookup {
  return {
    userExists: (id) => users.get(id) !== null,
    role: (guildId, roleId) => guilds.role(guildId, roleId),
    mayMentionAnyRole: (guildId, channelId, authorId) =>
      hasPermission(guilds.memberPermissions(guildId, authorId, channelId) ?? 0, PERMISSIONS.ADMINISTRATOR),
  };
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
export function mentionsIn(
  text: string,
  guildId: string | null,
  look: MentionLookup,
  author?: MentionAuthor,
): { users: string[]; roles: string[] } {
  // Every mention token starts with "<@": most messages have none and skip the scan.
  if (!text.includes("<@")) return { users: [], roles: [] };
  const named = mentionTokens(text);
  const users = named.users.filter((id) => look.userExists(id));
  if (!guildId) return { users, roles: [] };
  let anyRole: boolean | null = null;
  const mayPing = (r: { mentionable: number }) =>
    r.mentionable === 1 || (anyRole ??= !!author && !author.webhook && look.mayMentionAnyRole(guildId, author.channelId, author.id));
  const roles = named.roles.filter((id) => {
    const r = look.role(guildId, id);
    return r !== null && mayPing(r);
  });
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
  author?: MentionAuthor,
): { users: string[]; roles: string[] } {
  const found = mentionsIn(text, guildId, look, author);
  const users = allowed ? found.users.filter((id) => allows(allowed.users, id)) : found.users;
  const roles = allowed ? found.roles.filter((id) => allows(allowed.roles, id)) : found.roles;
  if (repliedAuthorId && (allowed?.repliedUser ?? true) && !users.includes(repliedAuthorId) && look.userExists(repliedAuthorId))
    users.unshift(repliedAuthorId);
  return { users, roles };
}
