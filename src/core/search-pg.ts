/**
 * The search index on Postgres (store/pg/schema.ts, migration 015): one row per message,
 * its words as a tsvector (the `simple` configuration: no stemming, as FTS5's unicode61
 * tokenizer here) and its facts as an array of tags (the same tokens as SQLite's `meta`),
 * a GIN index on each. A row is written in the message's transaction like SQLite's, and
 * goes with its message (ON DELETE CASCADE, so through a channel's or server's delete too). Terms reach Postgres as parameters of
 * phraseto_tsquery (a prefix as `word:*` of letters and digits only), never as query text.
 *
 * The statements take the bridge's dialect (store/pg/translate.ts: `?` parameters); a
 * search is built from its plan, the others are fixed and prepared by test/pg with the
 * rest of the core's.
 */
import type { SqlDb } from "../store/sql";
import type { Facet, SearchDoc, SearchEngine, SearchHits, SearchPlan, SearchTerm } from "./search-engine";

const hex = (id: string) => id.replace(/-/g, "");
const FACET_PREFIX = { guild: "g", channel: "c", author: "a", user: "m", role: "r" } as const;

function tag(f: Facet): string {
  if (f.kind === "everyone" || f.kind === "pinned") return f.kind;
  if (f.kind === "has") return `h${f.has}`;
  return FACET_PREFIX[f.kind] + hex(f.id);
}

function tagsOf(d: SearchDoc): string {
  const facets: Facet[] = [
    { kind: "guild", id: d.guildId },
    { kind: "channel", id: d.channelId },
    { kind: "author", id: d.authorId },
    ...d.users.map((id): Facet => ({ kind: "user", id })),
    ...d.roles.map((id): Facet => ({ kind: "role", id })),
    ...(d.everyone ? [{ kind: "everyone" } as Facet] : []),
    ...d.has.map((has): Facet => ({ kind: "has", has })),
    ...(d.pinned ? [{ kind: "pinned" } as Facet] : []),
  ];
  return facets.map(tag).join(" ");
}

/** A term as a tsquery parameter: a phrase of its words, or (a prefix) its words of letters and digits only, the last one open. */
function termSql(t: SearchTerm): { sql: string; arg: string } | null {
  if (!t.prefix) return { sql: "phraseto_tsquery('simple', ?)", arg: t.text };
  const words = t.text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return words.length ? { sql: "to_tsquery('simple', ?)", arg: `${words.join(" <-> ")}:*` } : null;
}

/** The plan as a WHERE clause and its arguments. */
export function wherePg(plan: SearchPlan): { where: string; args: unknown[] } {
  const conds: string[] = [];
  const args: unknown[] = [];
  for (const group of plan.all) {
    conds.push("tags && string_to_array(?, ' ')");
    args.push(group.map(tag).join(" "));
  }
  const terms = plan.terms.map(termSql).filter((t) => t !== null);
  if (terms.length) {
    conds.push(`body @@ (${terms.map((t) => t.sql).join(" && ")})`);
    args.push(...terms.map((t) => t.arg));
  }
  if (plan.none.length) {
    conds.push("NOT (tags && string_to_array(?, ' '))");
    args.push(plan.none.map(tag).join(" "));
  }
  if (plan.minId) {
    conds.push("message_id >= ?");
    args.push(plan.minId);
  }
  if (plan.maxId) {
    conds.push("message_id < ?");
    args.push(plan.maxId);
  }
  return { where: conds.join(" AND "), args };
}

export class PgSearchEngine implements SearchEngine {
  constructor(private readonly db: SqlDb) {}

  insert(d: SearchDoc): void {
    this.db
      .query(
        "INSERT INTO message_search (message_id, guild_id, channel_id, author_id, tags, body) VALUES (?, ?, ?, ?, string_to_array(?, ' '), to_tsvector('simple', ?))",
      )
      .run(d.messageId, d.guildId, d.channelId, d.authorId, tagsOf(d), d.body);
  }

  replace(d: SearchDoc): void {
    this.db.query("DELETE FROM message_search WHERE message_id = ?").run(d.messageId);
    this.insert(d);
  }

  find(plan: SearchPlan): SearchHits {
    const { where, args } = wherePg(plan);
    const page = `SELECT message_id FROM message_search WHERE ${where} ORDER BY message_id DESC LIMIT ? OFFSET ?`;
    const rows = this.db.query(page).all(...args, plan.limit, plan.offset) as { message_id: string }[];
    let total = 0;
    if (plan.countUpTo) {
      const count = `SELECT count(*) AS n FROM (SELECT 1 FROM message_search WHERE ${where} LIMIT ?) hits`;
      total = Number((this.db.query(count).get(...args, plan.countUpTo) as { n: number | string }).n);
    }
    return { ids: rows.map((r) => r.message_id), total };
  }
}
