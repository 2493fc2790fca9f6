/**
 * The translator from the core's SQLite dialect to Postgres's (src/store/pg/translate.ts),
 * rule by rule, without a server: test/pg/core-sql.test.ts prepares its output on one.
 */
import { describe, expect, test } from "bun:test";
import { translate } from "../../src/store/pg/translate";
import { UntranslatableSql } from "../../src/store/pg/errors";

const pg = (sql: string) => translate(sql).text.replace(/\s+/g, " ").trim();

describe("parameters", () => {
  test("numbered as SQLite numbers them: ? after the largest so far, ?N, a name once per spelling", () => {
    const t = translate("SELECT * FROM t WHERE a IN (?3, ?, :name, @name, $other, ?, :name)");
    expect(t.text).toBe("SELECT * FROM t WHERE a IN ($3, $4, $5, $6, $7, $8, $5)");
    expect(t.slots).toEqual([null, null, null, null, "name", "name", "other", null]);
  });

  test("not inside string literals, quoted names or comments, and not a :: cast", () => {
    expect(pg(`SELECT 'it''s ?' AS "a?b", x::text AS x FROM t /* ? */ WHERE a = ? -- ?\n`)).toBe(
      `SELECT 'it''s ?' AS "a?b", x::text AS x FROM t /* ? */ WHERE a = $1 -- ?`,
    );
  });
});

describe("rewrites", () => {
  test("INSERT OR IGNORE gets ON CONFLICT DO NOTHING, before RETURNING, per statement", () => {
    expect(pg("INSERT OR IGNORE INTO s (a, b) VALUES (?, ?)")).toBe("INSERT INTO s (a, b) VALUES ($1, $2) ON CONFLICT DO NOTHING");
    expect(pg("INSERT OR IGNORE INTO s (a) VALUES (1) RETURNING a; INSERT OR IGNORE INTO u VALUES (2);")).toBe(
      "INSERT INTO s (a) VALUES (1) ON CONFLICT DO NOTHING RETURNING a; INSERT INTO u VALUES (2) ON CONFLICT DO NOTHING;",
    );
    expect(pg("INSERT OR ABORT INTO s VALUES (1)")).toBe("INSERT INTO s VALUES (1)");
  });

  test("IS and IS NOT against a value are IS [NOT] DISTINCT FROM; IS NULL stays", () => {
    expect(pg("SELECT * FROM c WHERE g IS ? AND h IS NOT ? AND i IS NULL AND j IS NOT NULL AND k IS TRUE")).toBe(
      "SELECT * FROM c WHERE g IS NOT DISTINCT FROM $1 AND h IS DISTINCT FROM $2 AND i IS NULL AND j IS NOT NULL AND k IS TRUE",
    );
  });

  test("scalar max and min are GREATEST and LEAST; the aggregates stay", () => {
    expect(pg("SELECT max(a, b) AS x, min(a, max(b, c)) AS y, max(a) AS z, min(b) w FROM t")).toBe(
      "SELECT GREATEST(a, b) AS x, LEAST(a, GREATEST(b, c)) AS y, max(a) AS z, min(b) w FROM t",
    );
  });

  test("an aggregate of a comparison counts it as an integer; CASE is left alone", () => {
    expect(pg("SELECT max(user_id = ?) AS me, sum(a > 1) AS n, max(CASE WHEN a = 1 THEN 1 ELSE 0 END) AS c FROM r")).toBe(
      "SELECT max((user_id = $1)::int) AS me, sum((a > 1)::int) AS n, max(CASE WHEN a = 1 THEN 1 ELSE 0 END) AS c FROM r",
    );
  });

  test("json_each over an array reads each element as text, under its alias", () => {
    expect(pg("SELECT j.value FROM json_each(m.mentions) j WHERE j.value = ?")).toBe(
      "SELECT j.value FROM jsonb_array_elements_text((m.mentions)::jsonb) AS j(value) WHERE j.value = $1",
    );
    expect(pg("SELECT r.id FROM json_each(m.x) AS k JOIN r ON r.id = k.value")).toBe(
      "SELECT r.id FROM jsonb_array_elements_text((m.x)::jsonb) AS k(value) JOIN r ON r.id = k.value",
    );
    expect(pg("SELECT value FROM json_each(?)")).toBe("SELECT value FROM jsonb_array_elements_text(($1)::jsonb) AS json_each(value)");
  });

  test("an upsert's DO UPDATE names the target table's columns, never its SET targets or excluded's", () => {
    expect(
      pg(
        "INSERT INTO rs (u, c, last) VALUES (?, ?, ?) ON CONFLICT (u, c) DO UPDATE SET last = max(last, excluded.last), n = CASE WHEN n IS NULL THEN 1 ELSE n + 1 END WHERE last < ?",
      ),
    ).toBe(
      "INSERT INTO rs (u, c, last) VALUES ($1, $2, $3) ON CONFLICT (u, c) DO UPDATE SET last = GREATEST(rs.last, excluded.last), n = CASE WHEN rs.n IS NULL THEN 1 ELSE rs.n + 1 END WHERE rs.last < $4",
    );
  });

  test("ifnull, ==, LIKE, WHERE 1, BEGIN IMMEDIATE, PRAGMA defer_foreign_keys", () => {
    expect(pg("SELECT ifnull(a, 0) AS a FROM t WHERE a == 1 AND b LIKE ? AND c NOT LIKE 'x%'")).toBe(
      "SELECT coalesce(a, 0) AS a FROM t WHERE a = 1 AND b ILIKE $1 AND c NOT ILIKE 'x%'",
    );
    expect(pg("SELECT a FROM t WHERE 1 ORDER BY a")).toBe("SELECT a FROM t WHERE true ORDER BY a");
    expect(pg("SELECT a FROM t WHERE 1 = a")).toBe("SELECT a FROM t WHERE 1 = a");
    expect(translate("BEGIN IMMEDIATE")).toEqual({ text: "BEGIN", slots: [], control: "begin" });
    expect(pg("PRAGMA defer_foreign_keys = ON")).toBe("SET CONSTRAINTS ALL DEFERRED");
  });

  test("an unnamed result column is named as SQLite names it, by its text", () => {
    expect(pg("SELECT 1 FROM t")).toBe('SELECT 1 AS "1" FROM t');
    expect(pg("SELECT count(*), max(a, b) m, a, t.b, t.*, *, ?, x IS NULL FROM t")).toBe(
      'SELECT count(*) AS "count(*)", GREATEST(a, b) m, a, t.b, t.*, *, $1 AS "?", x IS NULL AS "x IS NULL" FROM t',
    );
    // Only the first SELECT names the columns of a UNION.
    expect(pg("SELECT DISTINCT a + 1 FROM t UNION SELECT 2")).toBe('SELECT DISTINCT a + 1 AS "a + 1" FROM t UNION SELECT 2');
  });

  test("what the transaction bookkeeping is told", () => {
    const controls = [
      "BEGIN",
      "BEGIN DEFERRED TRANSACTION",
      "COMMIT",
      "END",
      "ROLLBACK",
      "ROLLBACK TO w",
      "SAVEPOINT w",
      "RELEASE w",
      "SELECT 1",
    ].map((s) => translate(s).control);
    expect(controls).toEqual(["begin", "begin", "commit", "commit", "rollback", "rollback-to", "savepoint", "release", null]);
  });

  test("a statement written by hand for Postgres is used for its SQLite text, whatever its blanks", () => {
    const t =
      translate(`SELECT emoji_key, emoji_name, emoji_id, emoji_animated, count(*) AS n, max(user_id = ?) AS me, min(created_at) AS first
    FROM reactions   WHERE message_id = ? GROUP BY emoji_key ORDER BY first, emoji_key`);
    expect(t.text).toContain("array_agg(emoji_name ORDER BY created_at, user_id)");
    expect(t.text).toContain("max((user_id = $1)::int) AS me");
    expect(t.text).toContain("WHERE message_id = $2");
  });
});

describe("refused, for a dual form instead", () => {
  test.each([
    ["INSERT OR REPLACE INTO t VALUES (1)"],
    ["REPLACE INTO t VALUES (1)"],
    ["INSERT OR IGNORE INTO t VALUES (1) ON CONFLICT (a) DO NOTHING"],
    ["PRAGMA foreign_keys = ON"],
    ["SELECT * FROM t WHERE a GLOB 'x*'"],
    ["SELECT * FROM json_each(x, '$.a')"],
    ["SELECT (1"],
  ])("%s", (sql) => {
    expect(() => translate(sql)).toThrow(UntranslatableSql);
  });
});
