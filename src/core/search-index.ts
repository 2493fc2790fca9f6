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
import type { LaterEntries, SearchDoc, SearchEngine, SearchHits, SearchPlan } from "./search-engine";
import { indexable, searchDoc, WordCutter, type DocFields, type SearchFile } from "./search-doc";
import { statement } from "./statement";

/** Messages indexed per backfill step: a few tens of milliseconds, so requests interleave. */
const BACKFILL_BATCH = 1000;
/** Messages read per statement when new ones are read from their rows (later entries). */
const LATER_BATCH = 500;
/**
 * New messages this process leaves unread at most: the write that makes them so many
 * reads the others (a few milliseconds' work), as search-fts5.ts's PENDING_MAX does.
 */
export const LATER_MAX = 3000;
/** Above every id (ids are hex digits and dashes): "no upper bound". */
const PAST_EVERY_ID = "g";

/** A message as the index reads it from its row (new ones, the backfill): what its entry and indexable() need, and its channel's server. */
type LaterRow = DocFields & Pick<Message, "channel_id" | "type" | "ciphertext" | "ephemeral_user_id"> & { channel_guild_id: string | null };

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
      // ?1 the mark's first 18 characters (its position: see Fts5Engine.take), ?2 the bound.
      // Only what an entry is made of (search-doc.ts): a batch's rows are many, and read often.
      later: lazy(
        `SELECT m.id, m.channel_id, m.author_id, m.type, m.content, m.ciphertext, m.embeds, m.mentions, m.mention_roles,
           m.mention_everyone, m.pinned, m.ephemeral_user_id, c.guild_id AS channel_guild_id
         FROM messages m JOIN channels c ON c.id = m.channel_id
         WHERE m.id > ?1 AND m.id < ?2 ORDER BY m.id LIMIT ?3`,
      ),
      anyAfter: lazy("SELECT EXISTS (SELECT 1 FROM messages WHERE id > ?) AS n"),
      files: lazy(
        `SELECT a.message_id, a.filename, b.content_type FROM attachments a JOIN media_blobs b ON b.sha256 = a.sha256
         WHERE a.message_id >= ?1 AND a.message_id <= ?2 ORDER BY a.message_id, a.ordinal`,
      ),
      filesOfOne: lazy(
        `SELECT a.filename, b.content_type AS contentType FROM attachments a JOIN media_blobs b ON b.sha256 = a.sha256
         WHERE a.message_id = ? ORDER BY a.ordinal`,
      ),
    };
  }

  /** New messages this process wrote since it last read them (later entries). */
  private unread = 0;

  /** A message just written (before its files are attached: attaching them is a change). */
  added(m: Message, ch: Channel): void {
    if (this.engine.off || !indexable(m, ch) || this.leftToBackfill(m.id)) return;
    const later = this.engine.later;
    if (later && m.id > later.mark()) {
      // Read from its row at the next flush, files and all; the others first when enough wait.
      if (++this.unread >= LATER_MAX) this.readLater(later, m.id);
      return;
    }
    this.engine.insert(searchDoc(m, ch, this.cutter));
  }

  /** A message whose text, mentions, files or pin changed (`m` as it now is; its files as the store now holds them). */
  changed(m: Message, ch: Channel): void {
    if (this.engine.off || !indexable(m, ch) || this.leftToBackfill(m.id)) return;
    // Not read yet: it will be read as it then is.
    if (this.engine.later && m.id > this.engine.later.mark()) return;
    this.engine.replace(searchDoc(m, ch, this.cutter, this.s.filesOfOne().all(m.id) as SearchFile[]));
  }

  find(plan: SearchPlan): SearchHits {
    this.flush();
    return this.engine.find(plan);
  }

  /** Index what waits: new messages read from their rows, then the engine's waiting entries. */
  flush(): void {
    const later = this.engine.later;
    if (later && (this.s.anyAfter().get(later.mark()) as { n: number }).n) this.store.write(() => this.readLater(later, PAST_EVERY_ID));
    this.engine.flush?.();
  }

  /** Read the messages after the mark (and before `before`), in batches, and hand their entries over. */
  private readLater(later: LaterEntries, before: string): void {
    this.unread = 0;
    for (;;) {
      const mark = later.mark();
      const rows = this.s.later().all(mark.slice(0, 18), before, LATER_BATCH) as LaterRow[];
      const fresh = rows.filter((r) => r.id > mark);
      if (!fresh.length) return;
      later.take(
        this.docsOf(fresh),
        rows.map((r) => r.id),
        fresh[fresh.length - 1].id,
      );
      if (rows.length < LATER_BATCH) return;
    }
  }

  /** The entries of the indexable ones of these rows (in id order), their files read with them. */
  private docsOf(rows: readonly LaterRow[]): SearchDoc[] {
    if (!rows.length) return [];
    const files = this.filesOf(rows[0].id, rows[rows.length - 1].id);
    const docs: SearchDoc[] = [];
    for (const m of rows) {
      const ch = { id: m.channel_id, guild_id: m.channel_guild_id } as Channel;
      if (indexable(m, ch)) docs.push(searchDoc(m, ch, this.cutter, files.get(m.id)));
    }
    return docs;
  }

  /** The files of the messages from `first` to `last`, by message. */
  private filesOf(first: string, last: string): Map<string, SearchFile[]> {
    const out = new Map<string, SearchFile[]>();
    const rows = this.s.files().all(first, last) as { message_id: string; filename: string; content_type: string | null }[];
    for (const r of rows) {
      const list = out.get(r.message_id) ?? [];
      list.push({ filename: r.filename, contentType: r.content_type });
      out.set(r.message_id, list);
    }
    return out;
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
      // The backfill's from here on: nothing of it is to be read again as new.
      if (end.id) this.engine.later?.take([], [], end.id);
    });
    this.backlog = undefined;
    while (this.backfill(BACKFILL_BATCH * 50));
  }

  /**
   * The server's few times a second: the entries waiting are indexed (search-fts5.ts), then
   * the next batch of the backfill; answers whether any of the backfill is left.
   */
  step(): boolean {
    this.flush();
    return this.backfill();
  }

  /** Index the next `batch` messages of the backfill; answers whether any are left. */
  backfill(batch = BACKFILL_BATCH): boolean {
    const b = this.backfillState();
    if (!b) return false;
    const next = this.store.write(() => {
      const rows = this.s.batch().all(b.next, b.end, batch) as LaterRow[];
      for (const doc of this.docsOf(rows)) this.engine.insert(doc);
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
