// A database whose migrations are all recorded but whose schema lacks what they made is
// refused when it opens, in the one line an operator reads, rather than served until the
// first request (and the server's pollers) meet the missing table.
import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databaseFailure } from "../../src/cli/errors";
import { Store } from "../../src/store/db";

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

function damaged(sql: string): { path: string; error: unknown } {
  dir = mkdtempSync(join(tmpdir(), "parley-schema-"));
  const path = join(dir, "parley.db");
  new Store({ path, synchronous: "NORMAL" }).close();
  const db = new Database(path);
  db.exec(sql);
  db.close();
  try {
    new Store({ path, synchronous: "NORMAL" }).close();
    return { path, error: null };
  } catch (e) {
    return { path, error: e };
  }
}

test("a table dropped by hand: refused at open, naming it, in one line", () => {
  const { path, error } = damaged("DROP TABLE pins");
  expect((error as { code?: string }).code).toBe("PARLEY_SCHEMA_DAMAGED");
  const line = databaseFailure(error, { data: dir!, dbPath: path })!.message;
  expect(line).toContain("table pins");
  expect(line).toContain("restore it from a backup");
  expect(line).not.toContain("\n");
});

test("a trigger gone is damage too; an index the operator added is theirs to keep", () => {
  expect((damaged("DROP TRIGGER message_position_kept").error as { code?: string }).code).toBe("PARLEY_SCHEMA_DAMAGED");
  rmSync(dir!, { recursive: true, force: true });
  expect(damaged("CREATE INDEX my_own ON messages (author_id)").error).toBeNull();
});
