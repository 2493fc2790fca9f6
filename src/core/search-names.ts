/**
 * The names a typed search gives its filters (`from:sam`, `mentions:@Sam Smith`,
 * `in:#general`, or the tokens and ids the web client puts there) as ids of this server:
 * a person by id, user name, display name or nickname here (someone who left is still
 * found by user name: their messages stay); a channel of this server by id or name.
 * Every person or channel a name fits counts; a name that fits none is a problem the
 * searcher is told of, and the search then matches nothing.
 */
import type { CoreDeps } from "./deps";
import type { Guilds } from "./guilds";
import type { ParsedSearch } from "../text/search-query";
import { foldName } from "../text/mentions";

const ID = /^<?(?:@!?|#)?([0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12})>?$/;

export interface ResolvedNames {
  ids: { authorIds?: string[]; channelIds?: string[]; mentionIds?: string[] };
  problems: string[];
  unmatched: boolean;
}

export function resolveNames(d: CoreDeps, guilds: Guilds, guildId: string, p: ParsedSearch): ResolvedNames {
  const out: ResolvedNames = { ids: {}, problems: [], unmatched: false };
  const people = (names: string[], key: "authorIds" | "mentionIds", filter: string) => {
    if (!names.length) return;
    const ids = new Set<string>();
    for (const name of names) {
      const found = person(d, guildId, name);
      if (!found.length) out.problems.push(`${filter}: no one here is called ${name}.`);
      for (const id of found) ids.add(id);
    }
    if (!ids.size) out.unmatched = true;
    out.ids[key] = [...ids];
  };
  people(p.from, "authorIds", "from");
  people(p.mentions, "mentionIds", "mentions");
  if (p.in.length) {
    const channels = guilds.channels(guildId);
    const ids = new Set<string>();
    for (const name of p.in) {
      const id = ID.exec(name)?.[1];
      const found = channels.filter((c) => c.id === id || (c.name !== null && foldName(c.name) === foldName(name)));
      if (!found.length) out.problems.push(`in: there is no channel ${name} here.`);
      for (const c of found) ids.add(c.id);
    }
    if (!ids.size) out.unmatched = true;
    out.ids.channelIds = [...ids];
  }
  return out;
}

/** A letter SQLite's lower() leaves be: it folds ASCII letters only. */
const BEYOND_ASCII = /[^\p{ASCII}]/u;

/**
 * The members a name with other letters fits ("élodie" for "Élodie"), folded as a typed
 * @mention is (foldName): read and compared here, since SQLite's lower() leaves them be.
 */
function foldedMatches(d: CoreDeps, guildId: string, name: string): { id: string }[] {
  const want = foldName(name);
  const rows = d.store.db
    .query("SELECT u.id, u.username, u.global_name, m.nick FROM members m JOIN users u ON u.id = m.user_id WHERE m.guild_id = ?")
    .all(guildId) as { id: string; username: string; global_name: string | null; nick: string | null }[];
  const fits = (n: string | null) => n !== null && foldName(n) === want;
  return rows.filter((r) => fits(r.username) || fits(r.global_name) || fits(r.nick));
}

/** The people of this server a name fits, or anyone with that user name (who may have left). */
function person(d: CoreDeps, guildId: string, name: string): string[] {
  const id = ID.exec(name)?.[1];
  if (id)
    return d.store.db
      .query("SELECT id FROM users WHERE id = ?")
      .all(id)
      .map((r) => (r as { id: string }).id);
  const here = !BEYOND_ASCII.test(name)
    ? (d.store.db
        .query(
          `SELECT u.id FROM members m JOIN users u ON u.id = m.user_id
           WHERE m.guild_id = ?1 AND (lower(u.username) = lower(?2) OR lower(u.global_name) = lower(?2) OR lower(m.nick) = lower(?2))`,
        )
        .all(guildId, name) as { id: string }[])
    : foldedMatches(d, guildId, name);
  if (here.length) return here.map((r) => r.id);
  return (d.store.db.query("SELECT id FROM users WHERE lower(username) = lower(?1)").all(name) as { id: string }[]).map((r) => r.id);
}
