/**
 * Keeping the search index in step with the messages: every core operation that writes
 * or changes a message (a post, an edit, a pin, a world imported) tells this in its own
 * transaction, so a rollback takes the index entry with it. It decides what is indexed
 * (search-doc.ts) and hands the engine (SQLite's FTS5 or Postgres's tsvector:
 * search-engine.ts) the entry. Deletes need no call: the schema takes a message's entry
 * with its row, through whichever path (a delete, a ban's purge, a channel or server).
 *
 * A database that held messages before the index existed (migration 015 leaves a
 * `search_backfill` row: the ids up to `end_id`, from after `next_id`) is indexed in the
 * background, a batch at a time, while the server listens (`backfill`, core/search.ts). Until
 * a message of that range is reached, changes to it are left to the backfill, which reads
 * it as it then is; messages written since are indexed at once as always. (A deleted one
 * of that range had no entry: the trigger's delete finds nothing of anyone's, since no
 * other message can hold the rowid of an id that exists: search-fts5.ts.)
 */
import type { Store } from "../store/db";
import type { Channel, Message } from "./models";
import type { SearchEngine, SearchHits, SearchPlan } from "./search-engine";
import { indexable, searchDoc, WordCutter, type SearchFile } from "./search-doc";
import { statement } from "./statement";

/** Messages indexed per backfill step: a few tens of milliseconds, so requests interleave. */
const BACKFILL_BATCH = 1000;

interface Backfill {
  next: string;
  end: string;
}

export class SearchIndex {
  readonly cutter = new WordCutter();
  private readonly s;
  /** The backfill still to do; undefined until read. */
  private backlog: Backfill | null | undefined;

  constructor(
    private readonly store: Store,
    readonly engine: SearchEngine,
  ) {
    const lazy = (sql: string) => statement(store, sql);
    this.s = {
      backlog: lazy("SELECT next_id, end_id FROM search_backfill LIMIT 1"),
      advance: lazy("UPDATE search_backfill SET next_id = ?"),
      done: lazy("DELETE FROM search_backfill"),
      batch: lazy(
        `SELECT m.*, c.guild_id AS channel_guild_id FROM messages m JOIN channels c ON c.id = m.channel_id
         WHERE m.id > ?1 AND m.id <= ?2 ORDER BY m.id LIMIT ?3`,
      ),
    };
  }

  /** A message just written. `files`: what it carries (attachments), for `has:` and file names. */
  added(m: Message, ch: Channel, files?: SearchFile[]): void {
    if (this.engine.off || !indexable(m, ch) || this.leftToBackfill(m.id)) return;
    this.engine.insert(searchDoc(m, ch, this.cutter, files));
  }

  /** A message whose text, mentions, files or pin changed (`m` as it now is). */
  changed(m: Message, ch: Channel, files?: SearchFile[]): void {
    if (this.engine.off || !indexable(m, ch) || this.leftToBackfill(m.id)) return;
    this.engine.replace(searchDoc(m, ch, this.cutter, files));
  }

  find(plan: SearchPlan): SearchHits {
    return this.engine.find(plan);
  }

  /** Whether older messages are still being indexed (a search may miss some of them). */
  get backfilling(): boolean {
    return this.backfillState() !== null;
  }

  /** Everything written before now is to be indexed again (a world imported into an empty database). */
  reindexAll(): void {
    this.store.write(() => {
      const end = this.store.db.query("SELECT max(id) AS id FROM messages").get() as { id: string | null };
      this.s.done().run();
      if (end.id) this.store.db.query("INSERT INTO search_backfill (next_id, end_id) VALUES ('', ?)").run(end.id);
    });
    this.backlog = undefined;
    while (this.backfill(BACKFILL_BATCH * 50));
  }

  /**
   * The server's few times a second: the entries waiting are indexed (search-fts5.ts), then
   * the next batch of the backfill; answers whether any of the backfill is left.
   */
  step(): boolean {
    this.engine.flush?.();
    return this.backfill();
  }

  /** Index the next `batch` messages of the backfill; answers whether any are left. */
  backfill(batch = BACKFILL_BATCH): boolean {
    const b = this.backfillState();
    if (!b) return false;
    const next = this.store.write(() => {
      const rows = this.s.batch().all(b.next, b.end, batch) as (Message & { channel_guild_id: string | null })[];
      for (const row of rows) {
        const { channel_guild_id, ...m } = row;
        const ch = { id: m.channel_id, guild_id: channel_guild_id } as Channel;
        if (indexable(m, ch)) this.engine.insert(searchDoc(m, ch, this.cutter));
      }
      const last = rows.length === batch ? rows[rows.length - 1].id : null;
      if (last) this.s.advance().run(last);
      else this.s.done().run();
      return last;
    });
    this.backlog = next ? { next, end: b.end } : null;
    return next !== null;
  }

  /** The world was wiped: no backfill is left, whatever was read before. */
  forget(): void {
    this.backlog = undefined;
  }

  private backfillState(): Backfill | null {
    if (this.backlog === undefined) {
      const row = this.s.backlog().get() as { next_id: string; end_id: string } | null;
      this.backlog = row ? { next: row.next_id, end: row.end_id } : null;
    }
    return this.backlog;
  }

  private leftToBackfill(id: string): boolean {
    const b = this.backfillState();
    return b !== null && id > b.next && id <= b.end;
  }
}
