/**
 * Search entries wait in `search_pending` (migration 020), written in their message's
 * transaction, and go into the FTS5 index many at a time: at the server's step, before
 * every search, and when enough wait. A search still finds every message committed before
 * it, and what deletes or edits a message while its entry waits is followed as it is for
 * an indexed one.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { makeUnlimitedParley, seedBasic } from "../helpers";
import { PENDING_MAX } from "../../src/core/search-fts5";

let p: Parley;
let alice: string, lab: string, general: string, staff: string;

beforeEach(() => {
  p = makeUnlimitedParley();
  const w = seedBasic(p);
  const id = (f: string) => p.api.flakes.uuid(f)!;
  alice = id(w.users.alice.id);
  lab = id(w.guilds.Lab.id);
  general = id(w.guilds.Lab.channels.general);
  staff = id(w.guilds.Lab.channels.staff);
});

const say = (ch: string, content: string) => p.core.messages.send(alice, ch, { content });
const found = (q: string) => p.core.search.run(alice, { guildId: lab }, q).messages.map((m) => m.content);
const count = (table: string) => (p.store.db.query(`SELECT count(*) AS n FROM (SELECT rowid FROM ${table})`).get() as { n: number }).n;
const waiting = () => count("search_pending");
const indexed = () => count("message_fts");

describe("entries wait, then are indexed together", () => {
  test("a post's entry waits; the server's step indexes it, and a search finds it before any step", () => {
    say(general, "first words");
    say(general, "second words");
    expect([waiting(), indexed()]).toEqual([2, 0]);
    p.core.search.backfillStep();
    expect([waiting(), indexed()]).toEqual([0, 2]);
    say(general, "third words");
    expect(found("words")).toEqual(["third words", "second words", "first words"]);
    expect([waiting(), indexed()]).toEqual([0, 3]);
  });

  test("a message deleted while its entry waits is never indexed; a channel's delete takes its waiting entries", () => {
    const m = say(general, "gone soon");
    say(staff, "staff only words");
    say(general, "general words");
    p.core.messages.deleteAs(alice, general, m.id);
    expect(waiting()).toBe(2);
    p.core.channels.delete(alice, general);
    expect(waiting()).toBe(1);
    expect(found("words")).toEqual(["staff only words"]);
    expect(found("gone")).toEqual([]);
    expect(indexed()).toBe(1);
  });

  test("an edit while the entry waits leaves one entry, with the new words", () => {
    const m = say(general, "first draft");
    p.core.messages.editAs(alice, general, m.id, { content: "final version" });
    expect(waiting()).toBe(1);
    expect(found("draft")).toEqual([]);
    expect(found("final")).toEqual(["final version"]);
    // Edited again once indexed: the indexed entry is replaced, not doubled.
    p.core.messages.editAs(alice, general, m.id, { content: "final final version" });
    expect(found("version")).toEqual(["final final version"]);
    expect(indexed()).toBe(1);
  });

  test("at PENDING_MAX waiting, the write that makes them so many indexes them all", () => {
    p.core.transaction(() => {
      for (let i = 0; i < PENDING_MAX - 1; i++) say(general, `message ${i}`);
    });
    expect([waiting(), indexed()]).toEqual([PENDING_MAX - 1, 0]);
    say(general, "the last one to wait");
    expect([waiting(), indexed()]).toEqual([0, PENDING_MAX]);
  });
});
