import type { Database, Statement } from "bun:sqlite";

/**
 * A hot statement, prepared on its first use (not at start-up, where it would stand
 * between start and the first answer) and then kept: cheaper than looking its text up
 * in the connection's statement cache on every call.
 */
export function statement(db: Database, sql: string): () => Statement {
  let s: Statement | null = null;
  return () => (s ??= db.prepare(sql));
}
