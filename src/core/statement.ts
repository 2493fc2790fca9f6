import type { SqlStatement as Statement } from "../store/sql";
import type { Store } from "../store/db";

/**
 * A hot statement, prepared on its first use (not while the server starts, where it
 * would stand between start and the first answer) and then kept: cheaper than looking
 * its text up in the connection's statement cache on every call.
 */
export function statement(store: Store, sql: string): () => Statement {
  let s: Statement | null = null;
  return () => (s ??= store.db.prepare(sql));
}
