/**
 * The part of a database the core uses, whichever engine is under it: bun:sqlite's
 * Database fits it as it is (no wrapper on the single node's path), and so does the
 * Postgres bridge (pg/bridge.ts). Typing the store's handle with this instead of
 * bun:sqlite's Database is what lets the core run on either.
 */

export interface SqlRunResult {
  readonly changes: number;
  readonly lastInsertRowid: number | bigint;
}

/** Bindings: positional values, or one object of named ones. */
type Args = any[];

export interface SqlStatement {
  get(...args: Args): unknown;
  all(...args: Args): unknown[];
  values(...args: Args): unknown[][];
  run(...args: Args): SqlRunResult;
}

export interface SqlDb {
  /** A statement kept by its text (prepared once). */
  query(sql: string): SqlStatement;
  prepare(sql: string): SqlStatement;
  /** SQL without parameters, one or more statements. */
  exec(sql: string): unknown;
  transaction<A extends any[], T>(fn: (...args: A) => T): (...args: A) => T;
  readonly inTransaction: boolean;
  close(): void;
}
