/**
 * Search entries go into the FTS5 index many at a time. A new message (after the mark,
 * migration 022) is written nothing for search: it is read from its row, as it then is,
 * at the server's step, before every search, and when enough are unread. Any other entry
 * waits in `search_pending` (migration 020), written in its message's transaction. Either
 * way a search finds every message committed before it, and what deletes or edits a
 * message before it is indexed is followed as it is for an indexed one.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley, type Parley } from "../../src/app";
import { testConfig } from "../../src/config";
import { harness, makeUnlimitedParley, seedBasic } from "../helpers";
import { png } from "../support/png";
import { PENDING_MAX } from "../../src/core/search-fts5";
import { LATER_MAX } from "../../src/core/search-index";

let p: Parley;
let alice: string, lab: string, general: string, staff: string;

function start(on: Parley): void {
  p = on;
  const w = seedBasic(p);
  const id = (f: string) => p.api.flakes.uuid(f)!;
  alice = id(w.users.alice.id);
  lab = id(w.guilds.Lab.id);
  general = id(w.guilds.Lab.channels.general);
  staff = id(w.guilds.Lab.channels.staff);
}

const say = (ch: string, content: string) => p.core.messages.send(alice, ch, { content });
const found = (q: string, on = p) => on.core.search.run(alice, { guildId: lab }, q).messages.map((m) => m.content);
const count = (table: string, on = p) =>
  (on.store.db.query(`SELECT count(*) AS n FROM (SELECT rowid FROM ${table})`).get() as { n: number }).n;
const waiting = () => count("search_pending");
const indexed = (on = p) => count("message_fts", on);
const mark = (on = p) => (on.store.db.query("SELECT through_id FROM search_mark").get() as { through_id: string } | null)?.through_id ?? "";

describe("new messages are read from their rows", () => {
  beforeEach(() => start(makeUnlimitedParley()));
  afterEach(() => p.core.close());

  test("a post writes nothing for search; the server's step reads it, and a search finds it before any step", () => {
    p.core.search.backfillStep();
    const before = mark();
    say(general, "first words");
    const second = say(general, "second words");
    expect([waiting(), indexed(), mark()]).toEqual([0, 0, before]);
    p.core.search.backfillStep();
    expect([waiting(), indexed(), mark()]).toEqual([0, 2, second.id]);
    say(general, "third words");
    expect(found("words")).toEqual(["third words", "second words", "first words"]);
    expect([waiting(), indexed()]).toEqual([0, 3]);
  });

  test("a message deleted before it is read is never indexed; a channel's delete takes its messages", () => {
    const m = say(general, "gone soon");
    say(staff, "staff only words");
    say(general, "general words");
    p.core.messages.deleteAs(alice, general, m.id);
    p.core.channels.delete(alice, general);
    expect(found("words")).toEqual(["staff only words"]);
    expect(found("gone")).toEqual([]);
    expect(indexed()).toBe(1);
  });

  test("an edit before it is read writes nothing: the message is read as it then is; once read, an edit waits", () => {
    const m = say(general, "first draft");
    p.core.messages.editAs(alice, general, m.id, { content: "final version" });
    expect(waiting()).toBe(0);
    expect(found("draft")).toEqual([]);
    expect(found("final")).toEqual(["final version"]);
    p.core.messages.editAs(alice, general, m.id, { content: "final final version" });
    expect(waiting()).toBe(1);
    expect(found("version")).toEqual(["final final version"]);
    expect([waiting(), indexed()]).toEqual([0, 1]);
  });

  test("a pin before it is read is read with the message", () => {
    const m = say(general, "pin me");
    say(general, "leave me");
    p.core.pins.pin(alice, general, m.id);
    expect(found("pinned:true")).toEqual(["pin me"]);
    expect(found("me pinned:false")).toEqual(["leave me"]);
  });

  test(`at LATER_MAX unread, the write that makes them so many reads the others`, () => {
    p.core.search.backfillStep();
    p.core.transaction(() => {
      for (let i = 0; i < LATER_MAX - 1; i++) say(general, `message ${i}`);
    });
    expect(indexed()).toBe(0);
    const last = say(general, "the last one");
    // Read inside its write: everything before it (its files are not attached yet).
    expect(indexed()).toBe(LATER_MAX - 1);
    expect(mark() < last.id).toBe(true);
    expect(found("last")).toEqual(["the last one"]);
  });

  test("a rolled-back read leaves the mark where it was, and the messages are read again", () => {
    p.core.search.backfillStep();
    const before = mark();
    expect(() =>
      p.core.transaction(() => {
        for (let i = 0; i < LATER_MAX; i++) say(general, `ghost ${i}`);
        throw new Error("no");
      }),
    ).toThrow("no");
    expect([mark(), indexed()]).toEqual([before, 0]);
    say(general, "kept words");
    expect(found("ghost")).toEqual([]);
    expect(found("kept")).toEqual(["kept words"]);
  });

  test("an id at or below the mark (ids made again from a clock set back) waits, and is found", () => {
    p.clock.set(Date.UTC(2031, 0, 1));
    const a = say(general, "alpha words");
    p.core.search.backfillStep();
    expect(mark()).toBe(a.id);
    p.core.ids.reset();
    p.clock.set(Date.UTC(2030, 0, 1));
    const b = say(general, "beta words");
    expect(b.id < a.id).toBe(true);
    expect(waiting()).toBe(1);
    expect(found("words")).toEqual(expect.arrayContaining(["alpha words", "beta words"]));
    expect([waiting(), indexed()]).toEqual([0, 2]);
  });
});

describe("entries wait in search_pending", () => {
  beforeEach(() => start(makeUnlimitedParley()));
  afterEach(() => p.core.close());

  test("at PENDING_MAX waiting, the write that makes them so many indexes them all", () => {
    const m = say(general, "edited many times");
    p.core.search.backfillStep();
    // Edits of a message read already wait; one entry per message, so PENDING_MAX messages.
    const many: string[] = [];
    p.core.transaction(() => {
      for (let i = 0; i < PENDING_MAX; i++) many.push(say(general, `message ${i}`).id);
    });
    p.core.search.backfillStep();
    p.core.transaction(() => {
      for (let i = 0; i < PENDING_MAX - 2; i++) p.core.messages.edit(many[i], { content: `edited ${i}` });
    });
    p.core.messages.edit(m.id, { content: "edited again" });
    expect(waiting()).toBe(PENDING_MAX - 1);
    p.core.messages.edit(many[PENDING_MAX - 1], { content: "edited last" });
    expect(waiting()).toBe(0);
    expect(found("edited").length).toBe(25);
  });
});

describe("files are read with their message", () => {
  beforeEach(() => start(makeUnlimitedParley()));
  afterEach(() => p.core.close());

  const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");
  const general_ = () => p.api.flakes.of(general);

  test("has:file, has:image and a file's name find a person's message with files", async () => {
    const shot = await harness(p, "POST", "/users/bob/messages", {
      channel_id: general_(),
      content: "look at this",
      files: [{ name: "sunset-photo.png", data: b64(png(4, 4)) }],
    });
    const notes = await harness(p, "POST", "/users/bob/messages", {
      channel_id: general_(),
      content: "the notes",
      files: [{ name: "minutes.txt", data: b64("agenda\n") }],
    });
    expect([shot.status, notes.status]).toEqual([200, 200]);
    say(general, "no files here");
    expect(found("has:file")).toEqual(["the notes", "look at this"]);
    expect(found("has:image")).toEqual(["look at this"]);
    expect(found("sunset")).toEqual(["look at this"]);
    expect(found("minutes")).toEqual(["the notes"]);
    // Read already: an edit of its words replaces the entry, and keeps its files.
    p.core.messages.edit(p.api.flakes.uuid(shot.body.id)!, { content: "look again" });
    expect(waiting()).toBe(1);
    expect(found("has:image")).toEqual(["look again"]);
    expect(found("sunset")).toEqual(["look again"]);
  });

  test("a message whose entry is made at once (an id at or below the mark) gets its files too", async () => {
    p.clock.set(Date.UTC(2031, 0, 1));
    say(general, "alpha words");
    p.core.search.backfillStep();
    p.core.ids.reset();
    p.clock.set(Date.UTC(2030, 0, 1));
    const r = await harness(p, "POST", "/users/bob/messages", {
      channel_id: general_(),
      content: "an older file",
      files: [{ name: "report.pdf", data: b64("%PDF-1.4 fake") }],
    });
    expect(r.status).toBe(200);
    expect(waiting()).toBe(1);
    expect(found("has:file")).toEqual(["an older file"]);
    expect(found("report")).toEqual(["an older file"]);
  });
});

describe("another process, or a crash", () => {
  let dir: string;
  let q: Parley | null = null;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "parley-search-later-"));
    start(createParley(testConfig({ dbPath: join(dir, "parley.db") })));
  });
  afterEach(async () => {
    await q?.stop();
    q = null;
    await p.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("messages committed and never read are read by the next process on the database", () => {
    p.core.search.backfillStep();
    say(general, "written before the crash");
    say(staff, "also before the crash");
    expect(indexed()).toBe(0);
    // Another process opens the same file (as after a crash, or beside the server).
    q = createParley(testConfig({ dbPath: join(dir, "parley.db") }));
    expect(found("crash", q)).toEqual(["also before the crash", "written before the crash"]);
    expect(indexed(q)).toBe(2);
    // This process sees the moved mark, and reads only what came after.
    say(general, "after the crash");
    expect(found("crash")).toEqual(["after the crash", "also before the crash", "written before the crash"]);
    expect(indexed()).toBe(3);
  });
});
