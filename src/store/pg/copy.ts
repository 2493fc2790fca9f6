/**
 * `parley migrate`'s copy: every row of a single node's SQLite database into a Postgres
 * database migrated to the same version, table by table, parents before children, in
 * batches of a few hundred rows, each batch its own transaction. Memory stays at one
 * batch whatever the database holds; ids, tokens' digests, passwords' hashes and
 * sessions are copied as they are, so bots and people carry on as before.
 *
 * Not copied: the migrations' own record (Postgres has its own, made by the same
 * numbers), the search index (Postgres builds its own from the messages: the caller
 * reindexes), and the events a command left for a server beside it (relayed_events: a
 * node on Postgres hears the others through notifications instead).
 */
import type { Database } from "bun:sqlite";
import type { Store } from "../db";
import type { PgDatabase } from "./bridge";
import { refused } from "./migrate";

/** The tables not copied, and SQLite's own search tables (FTS5's shadow tables, the rowid map, the entries waiting for it, how far it has read). */
const NOT_COPIED = new Set(["schema_migrations", "relayed_events", "search_backfill", "message_search"]);
const SQLITE_ONLY = /^(sqlite_|message_fts($|_)|search_rowids$|search_pending$|search_mark$)/;

/** Postgres takes at most 65535 parameters a statement; rows a batch, whatever their width. */
const MAX_PARAMS = 30_000;
const MAX_ROWS = 500;

export interface CopyReport {
  tables: { name: string; rows: number }[];
  rows: number;
}

export interface CopyOptions {
  /** Told after each batch: the table and how many of its rows are in. */
  progress?: (table: string, rows: number) => void;
}

/** The tables to copy, parents first (every foreign key points to an earlier table). */
export function copyPlan(src: Database, dst: PgDatabase): string[] {
  const pgTables = new Set(
    (dst.native("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").all() as { tablename: string }[]).map(
      (t) => t.tablename,
    ),
  );
  const liteTables = (src.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(
    (t) => t.name,
  );
  const tables: string[] = [];
  for (const name of liteTables) {
    if (NOT_COPIED.has(name) || SQLITE_ONLY.test(name)) continue;
    if (!pgTables.has(name))
      throw refused(`the SQLite database has a table '${name}' the Postgres schema lacks: run one Parley version for both`);
    tables.push(name);
  }
  const parents = new Map<string, Set<string>>(tables.map((t) => [t, new Set<string>()]));
  const fks = dst
    .native(
      `SELECT ch.relname AS child, pa.relname AS parent FROM pg_constraint c
         JOIN pg_class ch ON ch.oid = c.conrelid JOIN pg_class pa ON pa.oid = c.confrelid
        WHERE c.contype = 'f' AND ch.relnamespace = to_regnamespace(current_schema())`,
    )
    .all() as { child: string; parent: string }[];
  for (const k of fks) if (k.child !== k.parent && parents.has(k.child) && parents.has(k.parent)) parents.get(k.child)!.add(k.parent);
  const order: string[] = [];
  const placed = new Set<string>();
  while (order.length < tables.length) {
    const next = tables.find((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p)));
    if (!next) throw refused(`the tables' foreign keys form a cycle (${tables.filter((t) => !placed.has(t)).join(", ")})`);
    order.push(next);
    placed.add(next);
  }
  return order;
}

/** Tables of the target that already hold rows (a migration goes into an empty database only). */
export function occupiedTables(dst: PgDatabase, tables: string[]): string[] {
  return tables.filter((t) => (dst.native(`SELECT EXISTS (SELECT 1 FROM "${t}") AS x`).get() as { x: boolean }).x);
}

/** Copy every row of `tables` (copyPlan's order), batch by batch. */
export function copyRows(src: Database, dst: PgDatabase, tables: string[], opts: CopyOptions = {}): CopyReport {
  const report: CopyReport = { tables: [], rows: 0 };
  for (const table of tables) {
    const n = copyTable(src, dst, table, opts);
    report.tables.push({ name: table, rows: n });
    report.rows += n;
  }
  return report;
}

/**
 * One table, in its key's order: each batch reads the rows after the last one copied
 * (never an OFFSET, which rereads everything before it), and inserts them in one
 * statement inside a transaction of its own.
 */
function copyTable(src: Database, dst: PgDatabase, table: string, opts: CopyOptions): number {
  const info = src.query(`PRAGMA table_info("${table}")`).all() as { name: string; pk: number }[];
  const pgColumns = new Set(
    (
      dst
        .native("SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1")
        .all(table) as { column_name: string }[]
    ).map((c) => c.column_name),
  );
  const columns = info.map((c) => c.name);
  const missing = columns.filter((c) => !pgColumns.has(c));
  if (missing.length) throw refused(`the Postgres table '${table}' lacks ${missing.join(", ")}: run one Parley version for both`);
  // The key: the primary key's columns in their order, or SQLite's rowid for a table without one.
  const pk = info
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => `"${c.name}"`);
  const key = pk.length ? pk : ["rowid"];
  const keyAt = key.map((_, i) => columns.length + i);
  const rowsPerBatch = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / columns.length)));
  const list = columns.map((c) => `"${c}"`).join(", ");
  const select = (after: boolean) =>
    src
      .query(
        `SELECT ${list}, ${key.join(", ")} FROM "${table}"${after ? ` WHERE (${key.join(", ")}) > (${key.map(() => "?").join(", ")})` : ""} ORDER BY ${key.join(", ")} LIMIT ${rowsPerBatch}`,
      )
      .safeIntegers(true);
  const first = select(false);
  const next = select(true);
  let last: unknown[] | null = null;
  let copied = 0;
  for (;;) {
    const rows = (last ? next.values(...(last as never[])) : first.values()) as unknown[][];
    if (!rows.length) break;
    const params: unknown[] = [];
    const tuples = rows.map((r) => {
      const at = params.length;
      for (let i = 0; i < columns.length; i++) params.push(r[i]);
      return `(${columns.map((_, i) => `$${at + i + 1}`).join(", ")})`;
    });
    dst.transaction(() => {
      dst.native(`INSERT INTO "${table}" (${list}) VALUES ${tuples.join(", ")}`).run(...(params as never[]));
    })();
    copied += rows.length;
    last = keyAt.map((i) => rows[rows.length - 1][i]);
    opts.progress?.(table, copied);
    if (rows.length < rowsPerBatch) break;
  }
  return copied;
}

function countRows(db: { query(sql: string): { get(): unknown } }, table: string): number {
  return Number((db.query(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number | bigint }).n);
}

/** The copy between a SQLite store and a Postgres one, as `parley migrate` (src/migrate.ts) drives it. */
export class StoreCopy {
  private readonly src: Database;
  private readonly dst: PgDatabase;
  /** The tables to copy, parents first. */
  readonly tables: string[];

  constructor(source: Store, target: Store) {
    if (source.engine.kind !== "sqlite" || target.engine.kind !== "postgres") throw refused("parley migrate copies SQLite into Postgres");
    this.src = source.engine.db as Database;
    this.dst = target.engine.db as PgDatabase;
    this.tables = copyPlan(this.src, this.dst);
  }

  /** Tables of the target that hold rows already. */
  occupied(): string[] {
    return occupiedTables(this.dst, this.tables);
  }

  copy(opts: CopyOptions = {}): CopyReport {
    return copyRows(this.src, this.dst, this.tables, opts);
  }

  /** Every copied message is to be indexed (the core's backfill then builds Postgres's own index). */
  queueSearchIndex(): void {
    this.dst.native("INSERT INTO search_backfill (next_id, end_id) SELECT '', max(id) FROM messages HAVING max(id) IS NOT NULL").run();
  }

  /** A table's rows on each side. */
  counts(table: string): [number, number] {
    return [countRows(this.src, table), countRows(this.dst, table)];
  }
}
