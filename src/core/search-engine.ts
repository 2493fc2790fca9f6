/**
 * The search index's seam: what the core asks of an index, whichever engine keeps it.
 * SQLite keeps it in FTS5 inside the same database (core/search-fts5.ts); Postgres in a
 * table with a tsvector and an array of facts (core/search-pg.ts). Either way an entry is
 * written in the transaction that writes its message, and goes with it in the schema (a
 * trigger on SQLite, a cascading key on Postgres) whichever path deletes the message, so
 * the index never says what the messages do not.
 *
 * A document is a message's words and its facts (facets): its server, channel and author,
 * whom it mentions, what it has, whether it is pinned. A plan asks for messages whose words
 * contain every term, that have at least one facet of each group and none of `none`,
 * newest first.
 */
import type { HasKind, SearchTerm } from "../text/search-query";

export type { HasKind, SearchTerm } from "../text/search-query";

export interface SearchDoc {
  messageId: string;
  guildId: string;
  channelId: string;
  authorId: string;
  /** The words: text, embeds' text, file names; scripts without spaces already cut into words. */
  body: string;
  users: string[];
  roles: string[];
  everyone: boolean;
  has: HasKind[];
  pinned: boolean;
}

export type Facet =
  | { kind: "guild" | "channel" | "author" | "user" | "role"; id: string }
  | { kind: "everyone" }
  | { kind: "pinned" }
  | { kind: "has"; has: HasKind };

export interface SearchPlan {
  /** Every term must be among the words (terms already cut into words as documents are). */
  terms: SearchTerm[];
  /** Each group: at least one of its facets (an AND of ORs). Never empty: the first group scopes servers. */
  all: Facet[][];
  /** None of these. */
  none: Facet[];
  /** Message id bounds: from `minId` (inclusive) to `maxId` (exclusive). */
  minId?: string | null;
  maxId?: string | null;
  offset: number;
  limit: number;
  /** Count the matches up to this many (0: do not count). */
  countUpTo: number;
}

export interface SearchHits {
  /** Newest first. May name a message that no longer exists or that another message shares a position with: the caller reads and filters. */
  ids: string[];
  total: number;
}

export interface SearchEngine {
  /** A message not indexed before. */
  insert(doc: SearchDoc): void;
  /** A message indexed before (its entry is replaced whole). */
  replace(doc: SearchDoc): void;
  find(plan: SearchPlan): SearchHits;
  /** Write out what waits to be indexed, if the engine keeps entries waiting (search-fts5.ts). */
  flush?(): void;
  /** True: the engine keeps nothing, so no entry is even made for it (NoSearchEngine). */
  readonly off?: boolean;
  /**
   * Present when the engine reads new messages from their rows, many at a time
   * (search-fts5.ts): a message after the mark is then written nothing when it is posted
   * or edited, and the index (search-index.ts) hands it over at the next flush, as it
   * then is.
   */
  readonly later?: LaterEntries;
}

export interface LaterEntries {
  /** The newest message id read so far ('' when none is). */
  mark(): string;
  /**
   * Index the entries of messages after the mark, in id order, and move the mark to
   * `through`, inside the caller's write. `ids`: every message id read, in order, from
   * the mark's own 60 bits on (indexed or not), so that ids sharing their position are seen.
   */
  take(docs: readonly SearchDoc[], ids: readonly string[], through: string): void;
}

/** An engine that keeps nothing (the bench's "index off" side). */
export class NoSearchEngine implements SearchEngine {
  readonly off = true;
  insert(): void {}
  replace(): void {}
  find(): SearchHits {
    return { ids: [], total: 0 };
  }
}
