/**
 * Migrating a Postgres database: the baseline (schema.ts) for a new one, then every
 * migration after it in Postgres's own text (pgMigrations). One transaction, under an
 * advisory lock, so that nodes starting together migrate once and the others wait and
 * find it done. The numbers are SQLite's: a database migrated by a newer Parley is
 * refused as it is on SQLite.
 */
import { migrations } from "../migrations";
import { NewerSchemaError } from "../migrate";
import type { PgDatabase } from "./bridge";
import { BASELINE_VERSION, baseline } from "./schema";
import { pg013, pg014, pg015, pg016, pg017, PG_018, PG_019, PG_020, PG_021, PG_022, PG_023, PG_024, PG_025 } from "./schema-later";

export interface PgMigration {
  version: number;
  /** The migration's Postgres text, equivalent to its SQLite one. */
  sql: string;
}

/**
 * The migrations after the baseline, in order, one per SQLite migration of the same
 * number (test/pg/schema-parity.test.ts holds every SQLite migration to having one).
 */
export const pgMigrations: PgMigration[] = [
  { version: 13, sql: pg013 },
  { version: 14, sql: pg014 },
  { version: 15, sql: pg015 },
  { version: 16, sql: pg016 },
  { version: 17, sql: pg017 },
  { version: 18, sql: PG_018 },
  { version: 19, sql: PG_019 },
  { version: 20, sql: PG_020 },
  { version: 21, sql: PG_021 },
  { version: 22, sql: PG_022 },
  { version: 23, sql: PG_023 },
  { version: 24, sql: PG_024 },
  { version: 25, sql: PG_025 },
];

/** Held while migrating: any number, the same in every node. */
const LOCK = 726_584_211;

/** The SQLite migrations this build knows that have no Postgres text yet (none when the two are in step). */
export function missingPgMigrations(): number[] {
  const have = new Set(pgMigrations.map((m) => m.version));
  return migrations.filter((m) => m.version > BASELINE_VERSION && !have.has(m.version)).map((m) => m.version);
}

/** Apply what this database lacks; answers how many migrations that was. */
export function migratePg(db: PgDatabase): number {
  const missing = missingPgMigrations();
  if (missing.length) throw refused(`migrations ${missing.join(", ")} have no Postgres text: this build cannot run on Postgres`);
  const known = migrations.length ? migrations[migrations.length - 1].version : 0;
  return db.transaction(() => {
    db.native("SELECT pg_advisory_xact_lock($1)").get(LOCK);
    db.execNative("CREATE TABLE IF NOT EXISTS schema_migrations (version bigint PRIMARY KEY, applied_at bigint NOT NULL)");
    const done = new Set((db.native("SELECT version FROM schema_migrations").all() as { version: number }[]).map((r) => r.version));
    const newest = Math.max(0, ...done);
    if (newest > known) throw new NewerSchemaError(newest, known);
    const record = db.native("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)");
    let ran = 0;
    if (!done.size) {
      const others = db
        .native("SELECT count(*) AS n FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'")
        .get() as { n: number };
      if (others.n > 0) throw refused("the database holds tables but no Parley migrations: give Parley a database of its own");
      db.execNative(baseline);
      for (const m of migrations) if (m.version <= BASELINE_VERSION) record.run(m.version, Date.now());
      ran = migrations.filter((m) => m.version <= BASELINE_VERSION).length;
    }
    for (const m of pgMigrations) {
      if (done.has(m.version)) continue;
      db.execNative(m.sql);
      record.run(m.version, Date.now());
      ran++;
    }
    // The commits' counter (relay.ts): Postgres's own, outside the schema both engines share.
    db.execNative(
      "CREATE TABLE IF NOT EXISTS parley_clock (one boolean PRIMARY KEY DEFAULT true CHECK (one), n bigint NOT NULL); " +
        "INSERT INTO parley_clock (one, n) VALUES (true, 0) ON CONFLICT DO NOTHING",
    );
    return ran;
  })();
}

/** A database Parley will not run on, with the reason (cli/errors.ts prints it as it is). */
export const refused = (message: string) => Object.assign(new Error(message), { code: "PARLEY_PG_REFUSED" });

/**
 * Delete every row of every table but schema_migrations (the harness's reset); the schema
 * stays. So do the nodes' own tables, which are no part of the world: the commits'
 * counter, and which nodes are alive and hold whose presence (core/presence-nodes.ts).
 */
export function wipePg(db: PgDatabase): void {
  const tables = (
    db
      .native(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT IN ('schema_migrations', 'parley_clock', 'parley_nodes', 'presence_holds') ORDER BY tablename",
      )
      .all() as { tablename: string }[]
  ).map((t) => `"${t.tablename}"`);
  if (tables.length) db.execNative(`TRUNCATE ${tables.join(", ")} RESTART IDENTITY CASCADE`);
}
