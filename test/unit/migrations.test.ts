import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Store } from "../../src/store/db";
import { migrations } from "../../src/store/migrations";
import { call, makeUnlimitedParley, seedBasic } from "../helpers";
import { createParley } from "../../src/app";
import { testConfig } from "../../src/config";
import { sha256Hex } from "../../src/core/crypto";

/**
 * Numbers reserved for changes being built beside each other (media 13, emoji 14; search
 * 15, pins 16 and notifications 17 are here): until each lands, its number is a gap.
 */
const RESERVED_ELSEWHERE: number[] = [];

test("migrations are numbered, forward-only, and upgrade a database made by an older version", () => {
  const versions = migrations.map((m) => m.version);
  expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
  const gaps = Array.from({ length: versions.at(-1)! }, (_, i) => i + 1).filter((v) => !versions.includes(v));
  expect(gaps.filter((v) => !RESERVED_ELSEWHERE.includes(v))).toEqual([]);
  const dir = mkdtempSync(join(tmpdir(), "parley-mig-"));
  try {
    const path = join(dir, "old.db");
    // A database as version 1 left it, with a channel that has a last message.
    const old = new Database(path, { create: true });
    old.exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)");
    old.exec(migrations[0].sql);
    old.exec("INSERT INTO schema_migrations VALUES (1, 0)");
    old.exec("INSERT INTO users (id, kind, username, created_at) VALUES ('u', 'person', 'alice', 0)");
    old.exec("INSERT INTO guilds (id, name, owner_id, created_at) VALUES ('g', 'Lab', 'u', 0)");
    old.exec("INSERT INTO channels (id, guild_id, type, name, created_at, last_message_id) VALUES ('c', 'g', 0, 'general', 0, 'm2')");
    old.exec(
      "INSERT INTO messages (id, channel_id, author_id, content, created_at) VALUES ('m1', 'c', 'u', 'one', 1), ('m2', 'c', 'u', 'two', 2)",
    );
    old.exec("INSERT INTO reactions (message_id, emoji_key, emoji_name, user_id, created_at) VALUES ('m1', '👍', '👍', 'u', 3)");
    old.close();
    const store = new Store({ path, synchronous: "NORMAL" });
    const versions = (store.db.query("SELECT version FROM schema_migrations ORDER BY version").all() as { version: number }[]).map(
      (r) => r.version,
    );
    expect(versions).toEqual(migrations.map((m) => m.version));
    expect((store.db.query("SELECT last_message_id FROM channel_rows WHERE id = 'c'").get() as any).last_message_id).toBe("m2");
    expect((store.db.query("SELECT count(*) AS n FROM messages").get() as any).n).toBe(2);
    // rebuilding the messages table must not cascade into what references it
    expect((store.db.query("SELECT count(*) AS n FROM reactions").get() as any).n).toBe(1);
    expect(store.db.query("PRAGMA foreign_key_check").all()).toEqual([]);
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a channel's last_message_id follows its newest visible message", async () => {
  const p = makeUnlimitedParley();
  const w = seedBasic(p);
  const token = w.applications.EchoBot.token;
  const ch = w.guilds.Lab.channels.general;
  const get = async () => (await call(p, "GET", `/channels/${ch}`, { token })).body.last_message_id;
  expect(await get()).toBeNull();
  const a = (await call(p, "POST", `/channels/${ch}/messages`, { token, body: { content: "a" } })).body.id;
  const b = (await call(p, "POST", `/channels/${ch}/messages`, { token, body: { content: "b" } })).body.id;
  expect(await get()).toBe(b);
  // an ephemeral message is nobody's last message but its person's
  p.core.messages.create({
    channelId: p.api.flakes.uuid(ch)!,
    authorId: p.api.flakes.uuid(w.applications.EchoBot.bot_user_id)!,
    content: "psst",
    ephemeralUserId: p.api.flakes.uuid(w.users.bob.id)!,
  });
  expect(await get()).toBe(b);
  await call(p, "DELETE", `/channels/${ch}/messages/${b}`, { token });
  expect(await get()).toBe(a);
});

test("a person's session from before migration 10 keeps working, with an id and its sign-in as its last use", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-mig10-"));
  try {
    const path = join(dir, "old.db");
    const old = new Database(path, { create: true });
    old.exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)");
    for (const m of migrations.filter((m) => m.version < 11)) {
      old.exec(m.sql);
      m.run?.(old);
      old.query("INSERT INTO schema_migrations VALUES (?, 0)").run(m.version);
    }
    const now = Date.now();
    old.query("INSERT INTO users (id, kind, username, created_at) VALUES ('u', 'person', 'alice', ?)").run(now);
    old.query("INSERT INTO person_sessions (token_hash, user_id, created_at) VALUES (?, 'u', ?)").run(sha256Hex("ps_old"), now);
    old.close();
    const store = new Store({ path, synchronous: "NORMAL" });
    const row = store.db.query("SELECT * FROM person_sessions").get() as any;
    expect(row).toMatchObject({ user_id: "u", label: "", created_at: now, last_used_at: now });
    expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    store.close();
    const p = createParley(testConfig({ data: dir, dbPath: path }));
    try {
      const me = await call(p, "GET", "/api/client/v1/users/@me", { headers: { Authorization: "Session ps_old" } });
      expect([me.status, me.body.username]).toEqual([200, "alice"]);
    } finally {
      await p.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("migration 12 replaces credential_events with the one relay table, and an upgraded server relays a command's events", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-mig12-"));
  try {
    const path = join(dir, "parley.db");
    // A database as migration 11 left it, with credential events written before the upgrade.
    const old = new Database(path, { create: true });
    old.exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)");
    for (const m of migrations.filter((m) => m.version <= 11)) {
      old.exec(m.sql);
      m.run?.(old);
      old.query("INSERT INTO schema_migrations VALUES (?, 0)").run(m.version);
    }
    old
      .query("INSERT INTO credential_events (origin, event, at) VALUES ('cli', ?, 0)")
      .run(JSON.stringify({ type: "application.token_rotated", applicationId: "a" }));
    old.close();
    const server = new Store({ path, synchronous: "NORMAL" });
    const tables = (server.db.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
    expect(tables).toContain("relayed_events");
    expect(tables).not.toContain("credential_events");
    // users.disabled_at and applications.disabled_at, once each.
    for (const [table, column] of [
      ["users", "disabled_at"],
      ["applications", "disabled_at"],
    ]) {
      const columns = (server.db.query(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
      expect(columns.filter((c) => c === column)).toHaveLength(1);
    }
    const published: unknown[][] = [];
    server.onCommit((events) => published.push(events));
    server.relay.listen();
    const command = new Store({ path, synchronous: "NORMAL", relay: true });
    command.write(() => command.emit({ type: "application.token_rotated", applicationId: "b" }));
    await new Promise((r) => setImmediate(r));
    server.publishRelayed();
    expect(published).toEqual([[{ type: "application.token_rotated", applicationId: "b" }]]);
    command.close();
    server.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
