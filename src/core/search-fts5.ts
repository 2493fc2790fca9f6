/**
 * The search index on SQLite: FTS5 in the same database (migration 015), written in the
 * transaction of the message it follows. Its statements are SQLite's own (MATCH, FTS5's
 * query language); on Postgres the same seam is core/search-pg.ts, and test/pg prepares
 * the rest of the core's statements, not these.
 *
 * An entry's rowid is where its message stands in time: (milliseconds since 2025 << 12)
 * | the UUIDv7's 12-bit counter, so rowid order is id order, a page is read newest first
 * straight off the index (ORDER BY rowid DESC stops after a page), and a date or id bound
 * is a rowid range. Numbers stay below 2^53 until 2094, so JavaScript holds them exactly.
 * Two ids share those 60 bits only if two generators made them in the same millisecond
 * (a clock set back across a restart, an imported world); the later one then gets a free
 * rowid near its own, recorded in `search_rowids`. Deletes are the schema's (migration
 * 015's triggers compute the same rowid), so no path that deletes a message can miss one.
 *
 * A fact is one token of the `meta` column: `g<server>`, `c<channel>`, `a<author>`,
 * `m<person mentioned>`, `r<role mentioned>`, `everyone`, `h<kind>` (has:), `pinned`, ids
 * as 32 hex digits. Words are searched in `body` only, facts in `meta` only, and every
 * term is written as an FTS5 string, so nothing typed can become query syntax.
 *
 * FTS5 writes a segment at every commit that touched it, which cost a person's post,
 * committing alone, more than the rest of its write; so entries go in many at a time. A
 * new message (newer than `search_mark`, migration 022) is written nothing: the index
 * reads the messages after the mark from their rows and hands their entries over
 * (`later`, search-index.ts), in one statement. Any other entry (an edit of a message
 * read already, an id at or below the mark) is written to `search_pending` (migration
 * 020) in its message's transaction and moved in with the others waiting (flush). The
 * server flushes a few times a second (Search.backfillStep), every search flushes first,
 * and a write flushes when PENDING_MAX wait, so what a search sees is every message
 * committed before it.
 */
import type { Store } from "../store/db";
import { positionOf } from "./ids";
import { Memo } from "./memo";
import { statement } from "./statement";
import type { Facet, LaterEntries, SearchDoc, SearchEngine, SearchHits, SearchPlan, SearchTerm } from "./search-engine";

const EPOCH = Date.UTC(2025, 0, 1);
/**
 * Entries left waiting at most. A flush of this many costs under 10 ms (about 2.7 us an
 * entry), paid by the search or the write that finds them waiting; fewer, smaller
 * flushes made the index merge its segments more often (500: about 8% more CPU a post
 * under a bot's full load).
 */
export const PENDING_MAX = 3000;
const LOWEST = Number.MIN_SAFE_INTEGER;
const HIGHEST = Number.MAX_SAFE_INTEGER;

/** Where an id stands in time, as a rowid (see above): its position (ids.ts). */
export const rowidOf = positionOf;

/** The first 18 characters every id standing at this rowid starts with. */
function prefixOf(rowid: number): string {
  const ms = Math.floor(rowid / 4096) + EPOCH;
  const counter = rowid - (ms - EPOCH) * 4096;
  const hex = ms.toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8)}-7${counter.toString(16).padStart(3, "0")}`;
}

/** A UUID without its dashes (by slicing: a regular expression per id was a percent of a post's CPU). */
const hex = (id: string) =>
  id.length === 36 ? id.slice(0, 8) + id.slice(9, 13) + id.slice(14, 18) + id.slice(19, 23) + id.slice(24) : id.replace(/-/g, "");
const FACET_PREFIX = { guild: "g", channel: "c", author: "a", user: "m", role: "r" } as const;

function token(f: Facet): string {
  if (f.kind === "everyone" || f.kind === "pinned") return f.kind;
  if (f.kind === "has") return `h${f.has}`;
  return FACET_PREFIX[f.kind] + hex(f.id);
}

function metaOf(d: SearchDoc): string {
  const t = [`g${hex(d.guildId)}`, `c${hex(d.channelId)}`, `a${hex(d.authorId)}`];
  for (const u of d.users) t.push(`m${hex(u)}`);
  for (const r of d.roles) t.push(`r${hex(r)}`);
  if (d.everyone) t.push("everyone");
  for (const h of d.has) t.push(`h${h}`);
  if (d.pinned) t.push("pinned");
  return t.join(" ");
}

const literal = (s: string) => `"${s.replace(/"/g, '""')}"`;
const term = (t: SearchTerm) => (t.prefix ? `${literal(t.text)} *` : literal(t.text));

/** The plan as an FTS5 query: words in body, facts in meta, then what must not be there. */
export function matchOf(plan: Pick<SearchPlan, "terms" | "all" | "none">): string {
  const parts: string[] = [];
  if (plan.terms.length) parts.push(`body : (${plan.terms.map(term).join(" AND ")})`);
  for (const group of plan.all) parts.push(`meta : (${group.map(token).join(" OR ")})`);
  const match = parts.join(" AND ");
  return plan.none.length ? `(${match}) NOT meta : (${plan.none.map(token).join(" OR ")})` : match;
}

export class Fts5Engine implements SearchEngine {
  private readonly s;

  constructor(private readonly store: Store) {
    // Prepared on first use (core/statement.ts).
    const lazy = (sql: string) => statement(store, sql);
    this.s = {
      // A waiting entry of the same rowid is the message's own, replaced by an edit.
      wait: lazy("INSERT OR REPLACE INTO search_pending (rowid, message_id, body, meta) VALUES (?, ?, ?, ?)"),
      waiting: lazy("SELECT EXISTS (SELECT 1 FROM search_pending) AS n"),
      move: lazy("INSERT INTO message_fts (rowid, body, meta) SELECT rowid, body, meta FROM search_pending ORDER BY rowid"),
      moved: lazy("DELETE FROM search_pending"),
      delete: lazy("DELETE FROM message_fts WHERE rowid = ?"),
      // A new message's own rowid, in the one statement of a post, unless another message
      // holds it (as `taken`: ?1..?2 the id range of the rowid's prefix, ?3 the message, ?4 the rowid).
      claim: lazy(
        `INSERT OR REPLACE INTO search_pending (rowid, message_id, body, meta) SELECT ?4, ?3, ?5, ?6
         WHERE NOT EXISTS (SELECT 1 FROM messages WHERE id > ?1 AND id < ?2 AND id <> ?3)
           AND NOT EXISTS (SELECT 1 FROM search_rowids WHERE rowid = ?4)`,
      ),
      // ?1..?2 the id range of the rowid's prefix, ?3 the message itself, ?4 the rowid
      taken: lazy(
        `SELECT EXISTS (SELECT 1 FROM messages WHERE id > ?1 AND id < ?2 AND id <> ?3) OR EXISTS (SELECT 1 FROM search_rowids WHERE rowid = ?4) AS taken`,
      ),
      remember: lazy("INSERT INTO search_rowids (rowid, message_id) VALUES (?, ?)"),
      mapped: lazy("SELECT rowid FROM search_rowids WHERE message_id = ?"),
      byRowid: lazy("SELECT message_id FROM search_rowids WHERE rowid = ?"),
      atPrefix: lazy("SELECT id FROM messages WHERE id > ?1 AND id < ?2 AND id NOT IN (SELECT message_id FROM search_rowids) ORDER BY id"),
      page: lazy(
        "SELECT rowid FROM message_fts WHERE message_fts MATCH ?1 AND rowid >= ?2 AND rowid < ?3 ORDER BY rowid DESC LIMIT ?4 OFFSET ?5",
      ),
      count: lazy(
        "SELECT count(*) AS n FROM (SELECT rowid FROM message_fts WHERE message_fts MATCH ?1 AND rowid >= ?2 AND rowid < ?3 LIMIT ?4)",
      ),
      mark: lazy("SELECT through_id FROM search_mark"),
      moveMark: lazy(
        "INSERT INTO search_mark (one, through_id) VALUES (1, ?) ON CONFLICT (one) DO UPDATE SET through_id = excluded.through_id",
      ),
      remembered: lazy("SELECT rowid FROM search_rowids WHERE rowid >= ? AND rowid <= ?"),
      // Entries as JSON ([rowid, body, meta] each): one statement for a whole batch.
      many: lazy("INSERT INTO message_fts (rowid, body, meta) SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?)"),
    };
    this.marks = new Memo(store, ["search_mark"], { max: 1 });
  }

  /** The mark, read again only when `search_mark` changed (here or in another process). */
  private readonly marks: Memo<string>;

  readonly later: LaterEntries = {
    mark: () => this.marks.get("", () => (this.s.mark().get() as { through_id: string } | null)?.through_id ?? ""),
    take: (docs, ids, through) => this.take(docs, ids, through),
  };

  /**
   * Entries read from their rows go in at their own position, unless another message
   * stands there (an id read before theirs, at or below the mark too) or a moved entry
   * holds it: then at the next free one, recorded, as insert() does.
   */
  private take(docs: readonly SearchDoc[], ids: readonly string[], through: string): void {
    if (docs.length) {
      const first = new Map<number, string>();
      for (const id of ids) {
        const r = rowidOf(id);
        if (!first.has(r)) first.set(r, id);
      }
      const lo = rowidOf(docs[0].messageId);
      const hi = rowidOf(docs[docs.length - 1].messageId);
      const held = new Set((this.s.remembered().all(lo, hi) as { rowid: number }[]).map((r) => r.rowid));
      const rows: [number, string, string][] = [];
      for (const d of docs) {
        const own = rowidOf(d.messageId);
        const rowid = first.get(own) === d.messageId && !held.has(own) ? own : this.allocate(d.messageId, own + 1);
        rows.push([rowid, d.body, metaOf(d)]);
      }
      this.s.many().run(JSON.stringify(rows));
    }
    this.s.moveMark().run(through);
  }

  /** Entries this process left waiting since its last flush (another process's are found by find()'s look). */
  private pending = 0;

  insert(d: SearchDoc): void {
    const own = rowidOf(d.messageId);
    const p = prefixOf(own);
    if (this.s.claim().run(p, `${p}.`, d.messageId, own, d.body, metaOf(d)).changes === 0)
      this.wait(this.allocate(d.messageId, own + 1), d);
    else this.waited();
  }

  replace(d: SearchDoc): void {
    const rowid = this.rowidFor(d.messageId);
    // Indexed already, or still waiting (then the delete finds nothing and the wait replaces it).
    this.s.delete().run(rowid);
    this.wait(rowid, d);
  }

  private wait(rowid: number, d: SearchDoc): void {
    this.s.wait().run(rowid, d.messageId, d.body, metaOf(d));
    this.waited();
  }

  private waited(): void {
    if (++this.pending >= PENDING_MAX) this.moveWaiting();
  }

  /** Move every waiting entry into the index, in one transaction (one FTS5 segment). */
  flush(): void {
    if ((this.s.waiting().get() as { n: number }).n) this.store.write(() => this.moveWaiting());
    this.pending = 0;
  }

  private moveWaiting(): void {
    this.s.move().run();
    this.s.moved().run();
    this.pending = 0;
  }

  find(plan: SearchPlan): SearchHits {
    this.flush();
    const match = matchOf(plan);
    const lo = plan.minId ? rowidOf(plan.minId) : LOWEST;
    const hi = plan.maxId ? rowidOf(plan.maxId) : HIGHEST;
    const rows = this.s.page().all(match, lo, hi, plan.limit, plan.offset) as { rowid: number }[];
    const total = plan.countUpTo ? (this.s.count().get(match, lo, hi, plan.countUpTo) as { n: number }).n : 0;
    return { ids: rows.flatMap((r) => this.idsAt(r.rowid)), total };
  }

  /** The message of an entry: the one recorded for its rowid, else the one whose id starts so (and is recorded nowhere else). */
  private idsAt(rowid: number): string[] {
    const mapped = this.s.byRowid().get(rowid) as { message_id: string } | null;
    if (mapped) return [mapped.message_id];
    const p = prefixOf(rowid);
    return (this.s.atPrefix().all(p, `${p}.`) as { id: string }[]).map((r) => r.id);
  }

  private rowidFor(messageId: string): number {
    return (this.s.mapped().get(messageId) as { rowid: number } | null)?.rowid ?? rowidOf(messageId);
  }

  /** The first free rowid from `from` on (the message's own rowid is taken), recorded. */
  private allocate(messageId: string, from: number): number {
    let r = from;
    while (this.isTaken(r, messageId)) r++;
    this.s.remember().run(r, messageId);
    return r;
  }

  private isTaken(rowid: number, messageId: string): boolean {
    const p = prefixOf(rowid);
    return (this.s.taken().get(p, `${p}.`, messageId, rowid) as { taken: number }).taken === 1;
  }
}
