/**
 * The search index says exactly what the messages say: an entry is written, changed and
 * removed in the transaction of its message, whichever path changes it (an edit, a delete,
 * a pin, a ban's purge, a bulk delete, a channel or a server deleted, a rollback, a reset,
 * an import), two ids sharing their 60 bits keep two entries, and an upgraded database is
 * indexed by the backfill.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley, type Parley } from "../../src/app";
import { testConfig } from "../../src/config";
import { migrations } from "../../src/store/migrations";
import { makeUnlimitedParley, seedBasic } from "../helpers";

let p: Parley;
let alice: string, bob: string, lab: string, general: string, staff: string;

beforeEach(() => {
  p = makeUnlimitedParley();
  const w = seedBasic(p);
  const id = (f: string) => p.api.flakes.uuid(f)!;
  [alice, bob] = [id(w.users.alice.id), id(w.users.bob.id)];
  lab = id(w.guilds.Lab.id);
  general = id(w.guilds.Lab.channels.general);
  staff = id(w.guilds.Lab.channels.staff);
});

const say = (who: string, ch: string, content: string) => p.core.messages.send(who, ch, { content });
const found = (q: string, on: Parley = p, who = alice, guildId = lab) =>
  on.core.search.run(who, { guildId }, q).messages.map((m) => m.content);
/** Every entry of the index (SQLite's FTS5 holds one row per indexed message). */
const all = (on: Parley = p) => (on.store.db.query("SELECT count(*) AS n FROM (SELECT rowid FROM message_fts)").get() as { n: number }).n;

describe("the index follows every change", () => {
  test("an edit replaces the words and mentions; a delete takes the entry", () => {
    const m = say(alice, general, "first draft");
    p.core.messages.editAs(alice, general, m.id, { content: `final version for <@${bob}>` });
    expect(found("draft")).toEqual([]);
    expect(found("final")).toEqual([`final version for <@${bob}>`]);
    expect(found(`mentions:<@${bob}>`)).toHaveLength(1);
    expect(all()).toBe(1);
    p.core.messages.deleteAs(alice, general, m.id);
    expect(found("final")).toEqual([]);
    expect(all()).toBe(0);
  });

  test("a rolled-back post leaves no entry, alone or inside a group commit", async () => {
    expect(() =>
      p.core.transaction(() => {
        say(alice, general, "ghost words");
        throw new Error("no");
      }),
    ).toThrow("no");
    await p.core.batched(() => {
      expect(() =>
        p.core.transaction(() => {
          say(alice, general, "ghost again");
          throw new Error("no");
        }),
      ).toThrow("no");
      say(alice, general, "real words");
    });
    expect(found("ghost")).toEqual([]);
    expect(found("words")).toEqual(["real words"]);
    expect(all()).toBe(1);
  });

  test("in a group commit: a search, an edit, a delete and a rollback in the batch see each entry as written", async () => {
    let seen: string[] = [];
    await p.core.batched(() => {
      const a = say(alice, general, "batched alpha");
      const b = say(alice, general, "batched beta");
      say(alice, general, "batched gamma");
      seen = found("batched");
      p.core.messages.editAs(alice, general, a.id, { content: "edited alpha" });
      p.core.messages.deleteAs(alice, general, b.id);
      expect(() =>
        p.core.transaction(() => {
          say(alice, general, "batched ghost");
          throw new Error("no");
        }),
      ).toThrow("no");
    });
    expect(seen).toEqual(["batched gamma", "batched beta", "batched alpha"]);
    expect(found("batched")).toEqual(["batched gamma"]);
    expect(found("alpha")).toEqual(["edited alpha"]);
    expect(found("ghost")).toEqual([]);
    expect(all()).toBe(2);
  });

  test("a ban's purge, a bulk delete and a channel's delete take their messages' entries", () => {
    const bobs = [say(bob, general, "spam one"), say(bob, general, "spam two")];
    say(alice, general, "spam report");
    const mine = [say(alice, staff, "staff spam a"), say(alice, staff, "staff spam b")];
    p.core.moderation.ban(lab, alice, bob, { deleteMessageSeconds: 3600 });
    expect(found("spam")).toEqual(["staff spam b", "staff spam a", "spam report"]);
    p.core.moderation.bulkDelete(
      alice,
      staff,
      mine.map((m) => ({ id: m.id, createdAt: m.created_at })),
    );
    expect(found("spam")).toEqual(["spam report"]);
    p.core.channels.delete(alice, general);
    expect(all()).toBe(0);
    expect(bobs).toHaveLength(2);
  });

  test("a server's delete takes every entry of it and nothing of another's", () => {
    say(alice, general, "shared word");
    const other = p.core.guilds.create({ name: "Other", ownerId: alice });
    const otherChannel = p.core.guilds.channels(other.id)[0].id;
    say(alice, otherChannel, "shared word elsewhere");
    p.core.guilds.delete(lab);
    expect(found("shared", p, alice, other.id)).toEqual(["shared word elsewhere"]);
    expect(all()).toBe(1);
  });

  test("the harness's reset empties the index, which then works as new", () => {
    say(alice, general, "before the reset");
    p.reset();
    expect(all()).toBe(0);
    const w = seedBasic(p);
    const [a, g, c] = [w.users.alice.id, w.guilds.Lab.id, w.guilds.Lab.channels.general].map((f) => p.api.flakes.uuid(f)!);
    p.core.messages.send(a, c, { content: "after the reset" });
    expect(found("reset", p, a, g)).toEqual(["after the reset"]);
  });

  test("an exported world, imported, is searchable, its pins included", () => {
    const m = say(alice, general, "carried over");
    p.core.pins.pin(alice, general, m.id);
    const doc = p.exportWorld();
    const q = makeUnlimitedParley();
    q.importWorld(JSON.parse(JSON.stringify(doc)));
    expect(found("carried pinned:true", q)).toEqual(["carried over"]);
    // One entry: what the import indexed is not read again as new.
    expect(all(q)).toBe(1);
    expect(q.core.pins.list(alice, general).items.map((i) => i.message.id)).toEqual([m.id]);
  });

  test("ids sharing their time and counter (a clock set back across a restart) keep an entry each", () => {
    p.clock.set(Date.UTC(2031, 0, 1));
    const a = say(alice, general, "alpha words");
    p.core.ids.reset();
    const b = say(bob, general, "beta words");
    p.core.ids.reset();
    const c = say(bob, general, "delta words");
    expect([b.id.slice(0, 18), c.id.slice(0, 18)]).toEqual([a.id.slice(0, 18), a.id.slice(0, 18)]);
    expect(found("words")).toEqual(expect.arrayContaining(["alpha words", "beta words", "delta words"]));
    expect(p.store.db.query("SELECT count(*) AS n FROM search_rowids").get()).toEqual({ n: 2 });
    p.core.messages.deleteAs(bob, general, c.id);
    p.core.messages.editAs(bob, general, b.id, { content: "gamma words" });
    expect(found("alpha")).toEqual(["alpha words"]);
    expect(found("gamma")).toEqual(["gamma words"]);
    p.core.messages.deleteAs(alice, general, a.id);
    expect(found("words")).toEqual(["gamma words"]);
    p.core.messages.deleteAs(bob, general, b.id);
    expect([all(), p.store.db.query("SELECT count(*) AS n FROM search_rowids").get()]).toEqual([0, { n: 0 }]);
  });
});

describe("an upgraded database", () => {
  let dir: string;
  let q: Parley | null = null;
  afterEach(async () => {
    await q?.stop();
    q = null;
    rmSync(dir, { recursive: true, force: true });
  });

  const U = "0190a000-0000-7000-8000-00000000000a";
  const G = "0190a000-0000-7000-8000-0000000000a1";
  const C = "0190a000-0000-7000-8000-0000000000c1";
  const D = "0190a000-0000-7000-8000-0000000000d1";
  const B = "0190a000-0000-7000-8000-0000000000b1";
  const M = (n: number) => `0190a001-${String(n).padStart(4, "0")}-7000-8000-000000000000`;

  test("is indexed in the background; until then changes to its older messages are left to the backfill", () => {
    dir = mkdtempSync(join(tmpdir(), "parley-search-"));
    const path = join(dir, "parley.db");
    const old = new Database(path, { create: true });
    old.exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)");
    for (const m of migrations.filter((m) => m.version <= 12)) {
      old.exec(m.sql);
      m.run?.(old);
      old.query("INSERT INTO schema_migrations VALUES (?, 0)").run(m.version);
    }
    old.query("INSERT INTO users (id, kind, username, created_at) VALUES (?, 'person', 'alice', 0), (?, 'bot', 'Bot', 0)").run(U, B);
    old.query("INSERT INTO guilds (id, name, owner_id, created_at) VALUES (?, 'Lab', ?, 0)").run(G, U);
    old.query("INSERT INTO members (guild_id, user_id, joined_at) VALUES (?, ?, 0)").run(G, U);
    old
      .query("INSERT INTO channels (id, guild_id, type, name, created_at) VALUES (?, ?, 0, 'general', 0), (?, NULL, 1, NULL, 0)")
      .run(C, G, D);
    const insert = old.query("INSERT INTO messages (id, channel_id, author_id, content, pinned, created_at) VALUES (?, ?, ?, ?, ?, 1)");
    old.transaction(() => {
      for (let i = 0; i < 2500; i++) insert.run(M(i), C, U, `old message n${i}`, i === 7 ? 1 : 0);
      insert.run(M(2500), D, B, "old dm words", 0);
    })();
    old.close();

    q = createParley(testConfig({ dbPath: path }));
    expect(q.core.pins.list(U, C).items.map((i) => i.message.id)).toEqual([M(7)]);
    const before = q.core.search.run(U, { guildId: G }, "old");
    expect([before.total, before.indexing]).toEqual([0, true]);
    // Changes to what is still to index are the backfill's to see; a new message is indexed at once.
    q.core.messages.editAs(U, C, M(5), { content: "edited while waiting" });
    q.core.messages.deleteAs(U, C, M(6));
    q.core.messages.send(U, C, { content: "new old-timer" });
    expect(found("timer", q, U, G)).toEqual(["new old-timer"]);
    let steps = 0;
    while (q.core.search.backfillStep()) steps++;
    expect(steps).toBe(2);
    const after = q.core.search.run(U, { guildId: G }, "old");
    // Counted up to 1000, as the reference counts.
    expect([after.total, after.indexing]).toEqual([1000, false]);
    expect(found("n0", q, U, G)).toEqual(["old message n0"]);
    expect(found("n2499", q, U, G)).toEqual(["old message n2499"]);
    expect(found("n6", q, U, G)).toEqual([]);
    expect(found("waiting", q, U, G)).toEqual(["edited while waiting"]);
    expect(found("dm", q, U, G)).toEqual([]);
    expect(q.store.db.query("SELECT count(*) AS n FROM search_backfill").get()).toEqual({ n: 0 });
    expect(all(q)).toBe(2500);
  });
});

test("words typed are never facts: 'everyone' and 'pinned' as words find words only", () => {
  const ping = say(alice, general, "@everyone hear this");
  say(bob, general, "everyone pinned it");
  expect(found("everyone")).toHaveLength(2);
  expect(found("pinned")).toEqual(["everyone pinned it"]);
  expect(found("pinned:true")).toEqual([]);
  expect(p.core.search.mentionsOf(bob).map((m) => m.id)).toEqual([ping.id]);
});
