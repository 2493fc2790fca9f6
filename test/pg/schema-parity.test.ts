/**
 * The Postgres schema (src/store/pg/schema.ts and the migrations after it) against the
 * SQLite schema every migration leaves: the same tables, columns (name, order, type,
 * nullability, default), keys, unique and foreign constraints, indexes, checks and views,
 * read from each engine's own catalog. Beside it, what holds the two in step: every SQLite
 * migration has its Postgres text, and migrating Postgres is once, under a lock, and
 * refuses a newer schema as SQLite's does.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { migrate } from "../../src/store/migrate";
import { migrations } from "../../src/store/migrations";
import { PgDatabase } from "../../src/store/pg/bridge";
import { migratePg, missingPgMigrations, pgMigrations } from "../../src/store/pg/migrate";
import { BASELINE_VERSION } from "../../src/store/pg/schema";
import { ENGINE_MS, startPostgres, type Postgres } from "../support/engines";

let pg: Postgres;
const open: PgDatabase[] = [];
beforeAll(async () => {
  pg = await startPostgres();
}, ENGINE_MS);
afterAll(async () => {
  for (const db of open) db.close();
  await pg?.close();
}, ENGINE_MS);

async function fresh(): Promise<{ db: PgDatabase; name: string }> {
  const name = await pg.createDatabase();
  const db = new PgDatabase(pg.socketOptions(name));
  open.push(db);
  return { db, name };
}

const TYPE: Record<string, string> = { INTEGER: "integer", TEXT: "text", bigint: "integer", text: "text" };
/** Expressions compared by their words and literals only: casts, parentheses, blanks, case and quoted keywords ("position") differ between the catalogs. */
const expr = (s: string) =>
  s
    .toLowerCase()
    .replace(/::\w+/g, "")
    .replace(/public\./g, "")
    .replace(/[()\s"]/g, "");
/** A CHECK by its column names and literals (SQLite's `IN (...)` is Postgres's `= ANY (ARRAY[...])`). */
const checkWords = (s: string) =>
  (
    s
      .toLowerCase()
      .replace(/::\w+/g, "")
      .match(/'[^']*'|[a-z_][a-z0-9_]*|\d+/g) ?? []
  )
    .filter((w) => !["check", "in", "any", "array", "text", "bigint"].includes(w))
    .sort()
    .join(" ");
const dflt = (d: string | null) => (d === null ? "none" : d.replace(/::\w+/g, "").replace(/^\((.*)\)$/, "$1"));

/**
 * The search index is each engine's own (core/search-fts5.ts, core/search-pg.ts): SQLite's
 * FTS5 table, its shadow tables and its rowid map; Postgres's tsvector table. So are
 * Postgres's tables of what nodes share: the commits' counter, the nodes' beats and who
 * holds whose presence (a SQLite database has one node).
 */
const ENGINE_OWN = {
  sqlite: /^(message_fts(_\w+)?|search_rowids|search_pending|search_mark)$/,
  postgres: /^(message_search|parley_clock|parley_nodes|presence_holds)$/,
};

function sqliteSchema(db: Database): string[] {
  const out: string[] = [];
  const objects = (
    db.query("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").all() as {
      type: string;
      name: string;
      tbl_name: string;
      sql: string | null;
    }[]
  ).filter((o) => !ENGINE_OWN.sqlite.test(o.tbl_name));
  for (const t of objects.filter((o) => o.type === "table")) {
    out.push(`table ${t.name}`);
    const autoinc = /AUTOINCREMENT/i.test(t.sql ?? "");
    for (const c of db.query(`PRAGMA table_info("${t.name}")`).all() as {
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }[]) {
      // A key column is never null (SQLite lets a rowid table's TEXT key be, by an old bug it keeps).
      const notnull = c.notnull || c.pk ? "not null" : "null";
      const d = autoinc && c.pk ? "identity" : dflt(c.dflt_value);
      out.push(`column ${t.name}.${c.name} ${TYPE[c.type]} ${notnull} default ${d}${c.pk ? ` pk${c.pk}` : ""}`);
    }
    const fks = db.query(`PRAGMA foreign_key_list("${t.name}")`).all() as {
      id: number;
      table: string;
      from: string;
      to: string;
      on_delete: string;
    }[];
    for (const id of new Set(fks.map((f) => f.id))) {
      const f = fks.filter((x) => x.id === id);
      out.push(`fk ${t.name}(${f.map((x) => x.from)}) -> ${f[0].table}(${f.map((x) => x.to)}) on delete ${f[0].on_delete.toLowerCase()}`);
    }
    for (const ix of db.query(`PRAGMA index_list("${t.name}")`).all() as { name: string; unique: number; origin: string }[]) {
      if (ix.origin === "u")
        out.push(`unique ${t.name}(${(db.query(`PRAGMA index_info("${ix.name}")`).all() as { name: string }[]).map((c) => c.name)})`);
      if (ix.origin === "c") {
        const sql = objects.find((o) => o.name === ix.name)!.sql!;
        const [, on, where] = /\bON\s+"?\w+"?\s*(\(.*?\))\s*(?:WHERE\s+(.*))?$/is.exec(sql)!;
        out.push(`index ${ix.name}${ix.unique ? " unique" : ""} on ${t.name} ${expr(on)}${where ? ` where ${expr(where)}` : ""}`);
      }
    }
    for (const m of (t.sql ?? "").matchAll(/CHECK\s*(\((?:[^()]|\([^()]*\))*\))/gi)) out.push(`check ${t.name}: ${checkWords(m[1])}`);
  }
  for (const v of objects.filter((o) => o.type === "view")) {
    out.push(`view ${v.name}: ${(db.query(`PRAGMA table_info("${v.name}")`).all() as { name: string }[]).map((c) => c.name)}`);
  }
  return out.sort();
}

interface PgColumn {
  table_name: string;
  column_name: string;
  data_type: string;
  is_nullable: string;
  column_default: string | null;
  is_identity: string;
}

function pgSchema(db: PgDatabase): string[] {
  const out: string[] = [];
  const q = (sql: string) => db.native(sql).all() as any[];
  const tables = q(
    "SELECT table_name AS name, table_type AS type FROM information_schema.tables WHERE table_schema = current_schema()",
  ).filter((t) => !ENGINE_OWN.postgres.test(t.name));
  const pks = new Map<string, string[]>();
  for (const c of q(
    "SELECT conrelid::regclass::text AS tbl, pg_get_constraintdef(oid) AS def, contype FROM pg_constraint WHERE connamespace = current_schema()::regnamespace",
  )) {
    if (ENGINE_OWN.postgres.test(c.tbl)) continue;
    const cols = (s: string) => s.split(",").map((x) => x.trim());
    if (c.contype === "p") pks.set(c.tbl, cols(/PRIMARY KEY \((.*)\)/.exec(c.def)![1]));
    if (c.contype === "u") out.push(`unique ${c.tbl}(${cols(/UNIQUE \((.*)\)/.exec(c.def)![1])})`);
    if (c.contype === "c") out.push(`check ${c.tbl}: ${checkWords(c.def)}`);
    if (c.contype === "f") {
      const [, from, to, toCols] = /FOREIGN KEY \((.*?)\) REFERENCES (\w+)\((.*?)\)/.exec(c.def)!;
      const onDelete = /ON DELETE (CASCADE|SET NULL|SET DEFAULT|RESTRICT)/.exec(c.def)?.[1].toLowerCase() ?? "no action";
      out.push(`fk ${c.tbl}(${cols(from)}) -> ${to}(${cols(toCols)}) on delete ${onDelete}`);
    }
  }
  const columns = q(
    "SELECT * FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position",
  ) as PgColumn[];
  for (const t of tables.filter((x) => x.type === "BASE TABLE")) {
    out.push(`table ${t.name}`);
    const pk = pks.get(t.name) ?? [];
    for (const c of columns.filter((x) => x.table_name === t.name)) {
      const k = pk.indexOf(c.column_name) + 1;
      const d = c.is_identity === "YES" ? "identity" : dflt(c.column_default);
      out.push(
        `column ${t.name}.${c.column_name} ${TYPE[c.data_type]} ${c.is_nullable === "NO" ? "not null" : "null"} default ${d}${k ? ` pk${k}` : ""}`,
      );
    }
  }
  const constraintIndexes = new Set(q("SELECT conindid::regclass::text AS name FROM pg_constraint WHERE conindid <> 0").map((r) => r.name));
  for (const ix of q("SELECT indexname, tablename, indexdef FROM pg_indexes WHERE schemaname = current_schema()")) {
    if (constraintIndexes.has(ix.indexname) || ENGINE_OWN.postgres.test(ix.tablename)) continue;
    const [, on, where] = /USING \w+ (\(.*?\))(?: WHERE (.*))?$/.exec(ix.indexdef)!;
    out.push(
      `index ${ix.indexname}${/UNIQUE/.test(ix.indexdef) ? " unique" : ""} on ${ix.tablename} ${expr(on)}${where ? ` where ${expr(where)}` : ""}`,
    );
  }
  for (const v of tables.filter((x) => x.type === "VIEW"))
    out.push(`view ${v.name}: ${columns.filter((c) => c.table_name === v.name).map((c) => c.column_name)}`);
  return out.sort();
}

describe("the two schemas", () => {
  test("tables, columns, keys, constraints, indexes, checks and views are the same on both engines", async () => {
    const lite = new Database(":memory:");
    migrate(lite);
    const { db } = await fresh();
    migratePg(db);
    const sqlite = sqliteSchema(lite);
    expect(sqlite.filter((l) => l.startsWith("table")).length).toBeGreaterThan(20);
    expect(pgSchema(db)).toEqual(sqlite);
    lite.close();
  });

  test("Postgres sorts text as SQLite does (collation C), and its foreign keys can be deferred for an import", async () => {
    const { db } = await fresh();
    migratePg(db);
    const text = db
      .native(
        "SELECT table_name, column_name, collation_name FROM information_schema.columns WHERE table_schema = current_schema() AND data_type = 'text'",
      )
      .all() as {
      table_name: string;
      collation_name: string | null;
    }[];
    const tables = new Set(
      (
        db
          .native("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'")
          .all() as { table_name: string }[]
      ).map((t) => t.table_name),
    );
    expect(text.filter((c) => tables.has(c.table_name) && c.collation_name !== "C")).toEqual([]);
    const keys = db
      .native(
        "SELECT conname, contype, condeferrable FROM pg_constraint WHERE connamespace = current_schema()::regnamespace AND contype IN ('f', 'p', 'u')",
      )
      .all() as {
      conname: string;
      contype: string;
      condeferrable: number;
    }[];
    expect(keys.filter((k) => (k.contype === "f") !== (k.condeferrable === 1))).toEqual([]);
    // Ids with '-' and '_' and capitals sort by their bytes.
    expect(
      (
        db.native("SELECT id FROM (VALUES ('a-b'), ('a_b'), ('aB'), ('A'), ('a')) v(id) ORDER BY id COLLATE \"C\"").values() as string[][]
      ).flat(),
    ).toEqual(["A", "a", "a-b", "aB", "a_b"]);
  });
});

describe("migrating Postgres", () => {
  test("every SQLite migration past the baseline has its Postgres text, and the numbers recorded are SQLite's", async () => {
    expect(missingPgMigrations()).toEqual([]);
    expect(pgMigrations.map((m) => m.version)).toEqual(migrations.filter((m) => m.version > BASELINE_VERSION).map((m) => m.version));
    const { db } = await fresh();
    expect(migratePg(db)).toBe(migrations.length);
    expect(migratePg(db)).toBe(0);
    const lite = new Database(":memory:");
    migrate(lite);
    const versions = (d: { query(s: string): { all(): unknown[] } } | PgDatabase) =>
      (d.query("SELECT version FROM schema_migrations ORDER BY version").all() as { version: number }[]).map((r) => r.version);
    expect(versions(db)).toEqual(versions(lite));
    lite.close();
  });

  test("a database migrated by a newer Parley, or holding tables of something else, is refused", async () => {
    const { db } = await fresh();
    migratePg(db);
    db.native("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)").run(9999, Date.now());
    expect(() => migratePg(db)).toThrow(/migration 9999/);
    const other = await fresh();
    other.db.execNative("CREATE TABLE unrelated (x int)");
    expect(() => migratePg(other.db)).toThrow(/tables but no Parley migrations/);
  });

  test("nodes starting together migrate once: the others wait for the lock and find it done", async () => {
    const name = await pg.createDatabase();
    const script = `
      import { PgDatabase } from ${JSON.stringify(`${import.meta.dir}/../../src/store/pg/bridge.ts`)};
      import { migratePg } from ${JSON.stringify(`${import.meta.dir}/../../src/store/pg/migrate.ts`)};
      const db = new PgDatabase(${JSON.stringify(pg.socketOptions(name))});
      console.log(migratePg(db));
      db.close();`;
    const runs = [0, 1, 2].map(() => Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" }));
    const timer = setTimeout(() => runs.forEach((r) => r.kill("SIGKILL")), 30_000);
    const ran = await Promise.all(
      runs.map(async (r) =>
        (await r.exited) === 0 ? Number(await new Response(r.stdout).text()) : `failed: ${await new Response(r.stderr).text()}`,
      ),
    );
    clearTimeout(timer);
    expect(ran.sort()).toEqual([0, 0, migrations.length]);
  }, 60_000);
});
