/**
 * The core's SQL on Postgres: every statement src/core gives the store (found by
 * test/pg/core-sql.ts), translated, is accepted by Postgres against the Postgres schema
 * (PREPARE types every parameter and checks every name); and the statements whose
 * translation changes their meaning most answer on Postgres what they answer on SQLite,
 * on the same rows.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { migrate } from "../../src/store/migrate";
import { PgDatabase } from "../../src/store/pg/bridge";
import { migratePg } from "../../src/store/pg/migrate";
import { translate } from "../../src/store/pg/translate";
import { ENGINE_MS, startPostgres, type Postgres } from "../support/engines";
import { coreSql } from "./core-sql";

let pg: Postgres;
let db: PgDatabase;
let lite: Database;
const all = coreSql();

beforeAll(async () => {
  pg = await startPostgres();
  db = new PgDatabase(pg.socketOptions(await pg.createDatabase()));
  migratePg(db);
  lite = new Database(":memory:", { strict: true });
  migrate(lite);
}, ENGINE_MS);
afterAll(async () => {
  db?.close();
  lite?.close();
  await pg?.close();
}, ENGINE_MS);

/** The one statement of the core that contains `part` (with its substitutions made, for a built one). */
function core(part: string, substitutions: Record<string, string> = {}): string {
  const found = all.filter((s) => s.sql.includes(part));
  const texts = new Set(found.map((s) => s.sql));
  if (texts.size !== 1) throw new Error(`${texts.size} core statements contain ${JSON.stringify(part)}`);
  let sql = found[0].sql;
  for (const [k, v] of Object.entries(substitutions)) sql = sql.split("${" + k + "}").join(v);
  if (sql.includes("${")) throw new Error(`unsubstituted parts left in ${sql}`);
  return sql;
}

/** Statements Postgres cannot PREPARE (utility statements): run in a transaction rolled back instead. */
const UTILITY = /^\s*(PRAGMA|SET)\b/i;

describe("every statement of the core", () => {
  test("is found: the core holds well over a hundred", () => {
    expect(all.filter((s) => !s.dynamic).length).toBeGreaterThan(150);
  });

  test("translates and is accepted by Postgres", () => {
    const refused: string[] = [];
    db.exec("BEGIN");
    try {
      all
        .filter((s) => !s.dynamic)
        .forEach((s, i) => {
          try {
            const t = translate(s.sql);
            db.execNative("SAVEPOINT one");
            if (UTILITY.test(s.sql)) db.execNative(t.text);
            else db.execNative(`PREPARE core_${i} AS ${t.text}`);
            db.execNative("RELEASE one");
            db.flush();
          } catch (e) {
            refused.push(`${s.file}:${s.line}: ${(e as Error).message}`);
            db.execNative("ROLLBACK TO one");
          }
        });
    } finally {
      db.exec("ROLLBACK");
    }
    expect(refused).toEqual([]);
  });

  test("the ones built at run time, in each of their forms, are accepted too", () => {
    const vis = "(ephemeral_user_id IS NULL OR ephemeral_user_id = ?)";
    const built = [
      core("LIMIT ${MENTION_SCAN}", { MENTION_SCAN: "1000" }),
      ...[
        ["users", "id, kind, username", "1", "id"],
        ["channels", "id, guild_id", "guild_id IS NOT NULL", "guild_id, position, id"],
        [
          "overwrites",
          "channel_id, target_id",
          "channel_id IN (SELECT id FROM channels WHERE guild_id IS NOT NULL)",
          "channel_id, target_id",
        ],
      ].map(([name, cols, where, order]) =>
        core("SELECT ${t.columns", { 't.columns.join(", ")': cols, "t.name": name, "t.where": where, "t.order": order }),
      ),
      core("INSERT INTO ${t.name}", { "t.name": "users", 'cols.join(", ")': "id, kind", 'cols.map(() => "?").join(", ")': "?, ?" }),
      core("FROM audit_log WHERE ${where", {
        'where.join(" AND ")': "guild_id = ? AND actor_id = ? AND id < ?",
        'ascending ? "ASC" : "DESC"': "DESC",
      }),
      ...all.filter((s) => s.dynamic && s.sql.includes("${vis}")).map((s) => s.sql.split("${vis}").join(vis)),
      ...["AND emoji_key = ?", ""].map((e) =>
        core("emoji_animated FROM reactions WHERE message_id = ? ${", { 'emoji ? "AND emoji_key = ?" : ""': e }),
      ),
      ...["id = ?", "kind = 'person' AND lower(username) = lower(?)"].map((by) =>
        core("SELECT id, password_hash FROM users WHERE ${by}", { by }),
      ),
      ...["name = ?", "name = ?, description = ?, icon = ?, system_channel_id = ?"].map((set) =>
        core("UPDATE guilds SET ${", { 'fields.map((f) => `${f} = ?`).join(", ")': set }),
      ),
    ];
    // Every built statement, the world's select in three forms, the reactions', the credential's and a server's update in two.
    expect(built.length).toBe(all.filter((s) => s.dynamic).length + 5);
    db.exec("BEGIN");
    try {
      built.forEach((sql, i) => db.execNative(`PREPARE built_${i} AS ${translate(sql).text}`));
      db.flush();
    } finally {
      db.exec("ROLLBACK");
    }
  });
});

describe("the same answers as on SQLite", () => {
  const U = ["0190a000-0000-7000-8000-00000000000a", "0190a000-0000-7000-8000-00000000000b", "0190a000-0000-7000-8000-00000000000c"];
  const G = "0190a000-0000-7000-8000-0000000000g1";
  const C = "0190a000-0000-7000-8000-0000000000c1";
  const R = "0190a000-0000-7000-8000-0000000000r1";
  const M = (n: number) => `0190a000-0000-7000-8000-0000000001${String(n).padStart(2, "0")}`;
  const both = (sql: string, ...args: unknown[]) => {
    for (const d of [lite, db] as const) d.query(sql).run(...(args as never[]));
  };
  const compare = (sql: string, ...args: unknown[]) =>
    expect({ sql, rows: db.query(sql).all(...(args as never[])) }).toEqual({ sql, rows: lite.query(sql).all(...(args as never[])) });

  beforeAll(() => {
    U.forEach((id, i) =>
      both(
        "INSERT INTO users (id, kind, username, created_at) VALUES (?, ?, ?, ?)",
        id,
        i === 2 ? "bot" : "person",
        ["Alice", "bob", "Bot"][i],
        1000 + i,
      ),
    );
    both("INSERT INTO guilds (id, name, owner_id, created_at) VALUES (?, ?, ?, ?)", G, "Lab", U[0], 1);
    both(
      "INSERT INTO roles (id, guild_id, name, permissions, position, is_everyone, created_at) VALUES (?, ?, '@everyone', 1024, 0, 1, 1)",
      G,
      G,
    );
    both(
      "INSERT INTO roles (id, guild_id, name, permissions, position, is_everyone, created_at) VALUES (?, ?, 'Mod', 8192, 1, 0, 1)",
      R,
      G,
    );
    both("INSERT INTO channels (id, guild_id, type, name, created_at) VALUES (?, ?, 0, 'general', 1)", C, G);
    for (const u of U) both("INSERT INTO members (guild_id, user_id, joined_at) VALUES (?, ?, 5)", G, u);
    both("INSERT INTO member_roles (guild_id, user_id, role_id) VALUES (?, ?, ?)", G, U[1], R);
    const messages: [number, string, string, string, number][] = [
      [1, U[0], JSON.stringify([U[1]]), "[]", 0],
      [2, U[2], "[]", JSON.stringify([R]), 0],
      [3, U[0], "[]", "[]", 1],
      [4, U[1], JSON.stringify([U[1]]), "[]", 0],
      [5, U[0], "[]", "[]", 0],
    ];
    for (const [n, author, mentions, roles, everyone] of messages)
      both(
        "INSERT INTO messages (id, channel_id, author_id, mentions, mention_roles, mention_everyone, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        M(n),
        C,
        author,
        mentions,
        roles,
        everyone,
        100 + n,
      );
    both("INSERT INTO messages (id, channel_id, author_id, ephemeral_user_id, created_at) VALUES (?, ?, ?, ?, 110)", M(9), C, U[2], U[1]);
    for (const [m, user, at] of [
      [1, U[1], 3],
      [1, U[0], 2],
      [2, U[1], 5],
    ] as const)
      both("INSERT INTO reactions (message_id, emoji_key, emoji_name, user_id, created_at) VALUES (?, 'x', 'x', ?, ?)", M(m), user, at);
    both(
      "INSERT INTO commands (id, application_id, guild_id, name, body, created_at) SELECT ?, NULL, ?, ?, '{}', 1 WHERE 0",
      "c0",
      null,
      "n",
    );
  });

  test("unread mentions through json_each, with numbered parameters used twice", () => {
    const sql = core("LIMIT ${MENTION_SCAN}", { MENTION_SCAN: "1000" });
    for (const [who, everyone] of [
      [U[1], 0],
      [U[1], 1],
      [U[2], 0],
      [U[0], 0],
    ] as const)
      compare(sql, C, M(0), who, 0, everyone);
    compare(core("AND created_at >= ?4 LIMIT 1"), C, M(2), U[0], 0);
  });

  test("the read-state upsert keeps the larger position", () => {
    const upsert = core("INSERT INTO read_states");
    for (const pos of [M(3), M(1), M(5), M(4)]) both(upsert, U[1], C, pos);
    compare("SELECT * FROM read_states");
  });

  test("IS and IS NOT against a value, null or not", () => {
    compare(core("AND id IS NOT ?"), U[0], null);
    both("INSERT INTO person_sessions (id, token_hash, user_id, created_at, last_used_at) VALUES (?, ?, ?, 1, 1)", "s1", "h1", U[0]);
    both("INSERT INTO person_sessions (id, token_hash, user_id, created_at, last_used_at) VALUES (?, ?, ?, 1, 1)", "s2", "h2", U[0]);
    compare(core("AND id IS NOT ?"), U[0], "s1");
    compare("SELECT id FROM messages WHERE ephemeral_user_id IS ? ORDER BY id", null);
    compare("SELECT id FROM messages WHERE ephemeral_user_id IS ? ORDER BY id", U[1]);
  });

  test("a message's reactions (the hand-written form) and its reactors", () => {
    compare(core("max(user_id = ?) AS me"), U[0], M(1));
    compare(core("max(user_id = ?) AS me"), U[2], M(1));
    compare(core("SELECT DISTINCT user_id FROM reactions"), M(1));
  });

  test("permissions from roles, a history page bounded by \\uffff, names compared without case", () => {
    compare(core("UNION ALL"), G, U[1]);
    compare(core("max(r.position) AS p"), G, U[1]);
    const page = all
      .find((s) => s.dynamic && s.sql.includes("AND id < ? AND ${vis}"))!
      .sql.split("${vis}")
      .join("(ephemeral_user_id IS NULL OR ephemeral_user_id = ?)");
    compare(page, C, "\uffff", U[1], 3);
    compare(page, C, "\uffff", "", 50);
    compare(core("lower(username) = lower(?)"), "ALICE");
  });

  test("the day counters add up, and the administrators' search escapes % and _ and ignores case", () => {
    const add = core("INSERT INTO day_counts");
    for (const [day, requests, messages] of [
      [20000, 3, 1],
      [20000, 2, 0],
      [20001, 1, 4],
    ])
      both(add, day, requests, messages);
    compare("SELECT * FROM day_counts ORDER BY day");
    both("UPDATE users SET global_name = ? WHERE id = ?", "Bo_b 100%", U[1]);
    const search = core("lower(coalesce(global_name, '')) LIKE ?2");
    for (const text of ["%a%", "%BO\\_B%", "%100\\%%", "%\\_%", "%o%"]) compare(search, "", text, 10);
  });

  test("the id map: INSERT OR IGNORE claims once, and 64-bit numbers come back exact", () => {
    const claim = core("INSERT OR IGNORE INTO snowflakes");
    const flake = 1234567890123456789n;
    // The third: the position a number would be derived from (none here, for this id).
    expect(db.query(claim).run(U[0], flake, null).changes).toBe(1);
    expect(db.query(claim).run(U[0], flake + 1n, null).changes).toBe(0);
    expect(db.query(claim).run(U[1], flake + 1024n, 1205632705198n).changes).toBe(1);
    expect(db.query(core("SELECT uuid FROM snowflakes WHERE flake = ?")).get(flake)).toEqual({ uuid: U[0] });
    expect(
      BigInt((db.query(core("CAST(flake AS TEXT) AS flake FROM snowflakes WHERE uuid = ?")).get(U[0]) as { flake: string }).flake),
    ).toBe(flake);
  });
});
