import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Snowflakes, EPOCH, SNOWFLAKE, derivedNumber, isSnowflake } from "../../src/wire/snowflakes";
import { SwitchableClock } from "../../src/core/clock";
import { IdGenerator } from "../../src/core/ids";
import { Store } from "../../src/store/db";
import { IdMap } from "../../src/core/idmap";
import { createParley } from "../../src/app";
import { testConfig } from "../../src/config";
import { call, client, makeUnlimitedParley, peopleWorld, seedBasic } from "../helpers";
import { positionOf } from "../../src/core/ids";

function setup() {
  const clock = new SwitchableClock();
  const store = new Store({ path: ":memory:", synchronous: "NORMAL" });
  return { clock, ids: new IdGenerator(clock), flakes: new Snowflakes(new IdMap(store)), store };
}

describe("snowflakes", () => {
  test("match ^[0-9]{17,20}$ and encode the creation time since 2025-01-01", () => {
    const { clock, ids, flakes } = setup();
    clock.set(Date.parse("2026-06-01T12:00:00Z"));
    const f = flakes.of(ids.next());
    expect(f).toMatch(SNOWFLAKE);
    expect(Snowflakes.timestamp(f)).toBe(Date.parse("2026-06-01T12:00:00Z"));
    expect((BigInt(f) >> 22n) + BigInt(EPOCH)).toBe(BigInt(Date.parse("2026-06-01T12:00:00Z")));
  });

  test("ofNew (a message just posted) answers what of() would: fresh, already paired, or its number taken", () => {
    const a = setup();
    const b = setup();
    a.clock.set(Date.parse("2026-03-01T00:00:00Z"));
    b.clock.set(Date.parse("2026-03-01T00:00:00Z"));
    // Same ids on both sides: same millisecond and counter, so the same numbers are asked for.
    const ids = [a.ids.next(), a.ids.next(), a.ids.next()];
    const plain = new Snowflakes(new IdMap(b.store));
    // Paired already: the second store saw it first.
    expect(a.flakes.of(ids[1])).toBe(plain.of(ids[1]));
    expect(a.flakes.ofNew(ids[1])).toBe(a.flakes.of(ids[1]));
    // Its number taken by another id sharing its millisecond and counter (a clock set back).
    const twin = `${ids[2].slice(0, 19)}0000-000000000000`;
    const twinFlake = a.flakes.of(twin);
    const got = a.flakes.ofNew(ids[2]);
    expect(got).not.toBe(twinFlake);
    expect(BigInt(got) - BigInt(twinFlake)).toBe(1n);
    expect(plain.of(twin)).toBe(twinFlake);
    expect(plain.of(ids[2])).toBe(got);
    // Fresh: the number of() mints, and it stays.
    const fresh = a.flakes.ofNew(ids[0]);
    expect(fresh).toBe(plain.of(ids[0]));
    expect(new Snowflakes(new IdMap(a.store)).of(ids[0])).toBe(fresh);
  });

  test("two processes minting one id at once: the one that loses the claim answers the winner's number", () => {
    const { clock, ids, store } = setup();
    clock.set(Date.parse("2026-03-01T00:00:00Z"));
    const id = ids.next();
    const table = new IdMap(store);
    const other = new Snowflakes(new IdMap(store));
    // This process looked and found no number; the other node pairs the id before its claim lands.
    let raced = false;
    const late = new Snowflakes({
      numberOf: (uuid) => (raced ? table.numberOf(uuid) : null),
      lookup: (uuid) => (raced ? table.lookup(uuid) : { number: null, position: null }),
      messageAt: (position) => table.messageAt(position),
      idOf: (n) => table.idOf(n),
      claim(uuid, n) {
        if (!raced) {
          raced = true;
          other.of(uuid);
        }
        return table.claim(uuid, n);
      },
    });
    const theirs = late.of(id);
    expect(theirs).toBe(other.of(id));
    expect(late.of(id)).toBe(theirs);
    // Its number taken by a different id, the next one is claimed as before.
    const twin = `${id.slice(0, 19)}1111-111111111111`;
    expect(BigInt(late.of(twin)) - BigInt(theirs)).toBe(1n);
  });

  test("a new message is numbered in its own write, whoever posts it; a write rolled back leaves no number", async () => {
    const { p, alice, general } = peopleWorld();
    // A person's post (people's API, which speaks no snowflakes): its number is in the table before anything answered a bot.
    const before = p.clock.now();
    const r = await client(p, "POST", `/channels/${general}/messages`, alice, { content: "numbered at once" });
    expect(r.status).toBe(200);
    // Its number is its position's (migration 023), written with its row: nothing else is stored.
    const { number, position } = p.core.idmap.lookup(r.body.id);
    expect([number, typeof position]).toEqual([null, "number"]);
    const n = derivedNumber(position);
    expect(n).not.toBeNull();
    expect(p.api.flakes.of(r.body.id)).toBe(n!.toString());
    expect(Snowflakes.timestamp(n!.toString())).toBeGreaterThanOrEqual(before);
    expect(Snowflakes.timestamp(n!.toString())).toBeLessThanOrEqual(p.clock.now());
    // Rolled back with its message: nothing of either stays.
    let rolled = "";
    expect(() =>
      p.core.transaction(() => {
        rolled = p.core.messages.create({ channelId: general, authorId: r.body.author.id, content: "never" }).id;
        throw new Error("the write fails after the insert");
      }),
    ).toThrow("the write fails after the insert");
    expect(rolled).not.toBe("");
    expect(p.core.idmap.lookup(rolled)).toEqual({ number: null, position: null });
    p.core.close();
  });

  test("keep 17 digits even for objects created right at the epoch", () => {
    const { clock, ids, flakes } = setup();
    clock.set(EPOCH);
    expect(flakes.of(ids.next())).toMatch(SNOWFLAKE);
  });

  test("order equals creation order, even when minted in reverse order", () => {
    const { clock, ids, flakes } = setup();
    clock.set(Date.parse("2026-01-01T00:00:00Z"));
    const made: string[] = [];
    for (let i = 0; i < 50; i++) {
      made.push(ids.next());
      if (i % 7 === 0) clock.advance(3);
    }
    const minted = [...made]
      .reverse()
      .map((u) => flakes.of(u))
      .reverse();
    const sorted = [...minted].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    expect(sorted).toEqual(minted);
    expect(new Set(minted).size).toBe(50);
  });

  test("are stable: minted once, the same afterwards, and mapped back", () => {
    const { ids, flakes } = setup();
    const u = ids.next();
    const a = flakes.of(u);
    flakes.clearCache();
    expect(flakes.of(u)).toBe(a);
    expect(flakes.uuid(a)).toBe(u);
    expect(flakes.uuid("12345678901234567")).toBeNull();
    expect(flakes.uuid("not-a-number")).toBeNull();
    expect(flakes.uuid("99999999999999999999")).toBeNull();
  });

  test("survive a restart of the server (same file, same ids)", () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-sf-"));
    try {
      const cfg = testConfig({ data: dir, dbPath: join(dir, "parley.db") });
      const p1 = createParley(cfg);
      const w = p1.seed({ users: [{ name: "alice" }], guilds: [{ name: "Lab", owner: "alice" }] });
      p1.store.close();
      const p2 = createParley(cfg);
      const guild = p2.core.guilds.get(p2.api.flakes.uuid(w.guilds.Lab.id)!);
      expect(guild?.name).toBe("Lab");
      expect(p2.api.flakes.of(guild!.id)).toBe(w.guilds.Lab.id);
      p2.store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a number whose low bits are set (a collision in one millisecond) reads back exactly from the table", () => {
    const { store } = setup();
    const map = new IdMap(store);
    // Past 2^53, and odd: a float would round it to a neighbour.
    const n = (1n << 57n) | 1023n;
    expect(map.claim("00000000-0000-7000-8000-000000000001", n)).toBe(true);
    expect(map.numberOf("00000000-0000-7000-8000-000000000001")).toBe(n);
    expect(map.idOf(n)).toBe("00000000-0000-7000-8000-000000000001");
    // A fresh boundary over the same table (a restart) hands out the same spelling.
    expect(new Snowflakes(map).of("00000000-0000-7000-8000-000000000001")).toBe(n.toString());
  });

  test("only the canonical spelling is an id, and no other spelling is ever kept", () => {
    const { clock, ids, flakes } = setup();
    clock.set(Date.parse("2026-06-01T12:00:00Z"));
    const u = ids.next();
    const f = flakes.of(u);
    flakes.clearCache();
    for (const other of [`0${f}`, `00${f}`, `+${f}`, ` ${f}`, `${f} `, `${f}.0`]) expect(flakes.uuid(other)).toBeNull();
    // Looked up by a stray spelling first, from a cold cache: the id keeps its own.
    expect(flakes.of(u)).toBe(f);
    expect(flakes.uuid(f)).toBe(u);
    expect(isSnowflake(f)).toBe(true);
    expect(isSnowflake(`0${f}`)).toBe(false);
    expect(isSnowflake(((1n << 63n) - 1n).toString())).toBe(true);
    expect(isSnowflake((1n << 63n).toString())).toBe(false);
    expect(isSnowflake("1234567890123456")).toBe(false); // 16 digits
    // A pagination bound is a position: "0<id>" is where <id> is.
    expect(flakes.bound(`0${f}`, false)).toBe(u);
  });
});

describe("a message's number, derived from its position", () => {
  const dirs: string[] = [];
  const stored = (p: ReturnType<typeof createParley>) =>
    (p.store.db.query("SELECT count(*) AS n FROM snowflakes").get() as { n: number }).n;

  function onFile() {
    const dir = mkdtempSync(join(tmpdir(), "parley-sf-"));
    dirs.push(dir);
    return testConfig({ data: dir, dbPath: join(dir, "parley.db") });
  }

  test("a post stores no pair; the number reads back after a restart, from a cold cache and in another process", async () => {
    const cfg = onFile();
    const p1 = createParley(cfg);
    try {
      const w = p1.seed({
        users: [{ name: "alice" }],
        guilds: [{ name: "Lab", owner: "alice" }],
        applications: [{ name: "Bot", owner: "alice", install: ["Lab"] }],
      });
      const channel = w.guilds.Lab.channels.general;
      const token = w.applications.Bot.token;
      const before = stored(p1);
      const posted = await call(p1, "POST", `/channels/${channel}/messages`, { token, body: { content: "numbered" } });
      expect(posted.status).toBe(200);
      expect(stored(p1)).toBe(before);
      // The number a first claim would have stored: nothing tells the two apart.
      expect(BigInt(posted.body.id) & 1023n).toBe(0n);
      p1.api.flakes.clearCache();
      expect((await call(p1, "GET", `/channels/${channel}/messages/${posted.body.id}`, { token })).body.content).toBe("numbered");
      // Another process on the same file, and then the server started again.
      const beside = createParley(cfg);
      expect(beside.api.flakes.uuid(posted.body.id)).toBe(p1.api.flakes.uuid(posted.body.id));
      beside.store.close();
      p1.store.close();
      const p2 = createParley(cfg);
      const read = await call(p2, "GET", `/channels/${channel}/messages?limit=1`, { token });
      expect(read.body.map((m: { id: string }) => m.id)).toEqual([posted.body.id]);
      p2.store.close();
    } finally {
      p1.core.close();
    }
  });

  test("a message whose position another holds is paired as before, and both read back", () => {
    const p = makeUnlimitedParley();
    const w = seedBasic(p);
    const alice = p.api.flakes.uuid(w.users.alice.id)!;
    const general = p.api.flakes.uuid(w.guilds.Lab.channels.general)!;
    p.clock.set(Date.UTC(2031, 0, 1));
    const a = p.core.messages.send(alice, general, { content: "first" });
    p.core.ids.reset();
    const b = p.core.messages.send(alice, general, { content: "second" });
    expect(b.id.slice(0, 18)).toBe(a.id.slice(0, 18));
    expect([p.core.idmap.lookup(a.id).position, p.core.idmap.lookup(b.id).position]).toEqual([positionOf(a.id), null]);
    const [fa, fb] = [p.api.flakes.of(a.id), p.api.flakes.of(b.id)];
    // The second cannot be stored as the number the first derives: it takes the next one.
    expect(BigInt(fb) - BigInt(fa)).toBe(1n);
    expect(BigInt(fa) >> 10n).toBe(BigInt(fb) >> 10n);
    p.api.flakes.clearCache();
    expect([p.api.flakes.uuid(fa), p.api.flakes.uuid(fb)]).toEqual([a.id, b.id]);
    expect([p.api.flakes.of(a.id), p.api.flakes.of(b.id)]).toEqual([fa, fb]);
    // A number of the derived form that no message holds names nothing.
    expect(p.api.flakes.uuid(`${BigInt(fa) + 1024n}`)).toBeNull();
    p.core.close();
  });

  test("a deleted message's number stays its own: no later message takes its position", () => {
    const p = makeUnlimitedParley();
    const w = seedBasic(p);
    const alice = p.api.flakes.uuid(w.users.alice.id)!;
    const general = p.api.flakes.uuid(w.guilds.Lab.channels.general)!;
    p.clock.set(Date.UTC(2031, 0, 1));
    const gone = p.core.messages.send(alice, general, { content: "soon gone" });
    const number = p.api.flakes.of(gone.id);
    p.core.messages.deleteAs(alice, general, gone.id);
    p.api.flakes.clearCache();
    // The same millisecond and counter again (a clock set back): the new message goes without the position.
    p.core.ids.reset();
    const later = p.core.messages.send(alice, general, { content: "later" });
    expect(later.id.slice(0, 18)).toBe(gone.id.slice(0, 18));
    expect(p.core.idmap.lookup(later.id).position).toBeNull();
    expect(p.api.flakes.of(later.id)).not.toBe(number);
    expect(p.api.flakes.uuid(number)).toBe(gone.id);
    expect(p.core.messages.get(gone.id)).toBeNull();
    // The harness's reset still empties the id map whole.
    p.core.wipe();
    expect(p.store.db.query("SELECT count(*) AS n FROM snowflakes").get()).toEqual({ n: 0 });
    p.core.close();
  });

  test("an exported world keeps its messages' numbers through an import, and no new message can take them", () => {
    const p = makeUnlimitedParley();
    const w = seedBasic(p);
    const alice = p.api.flakes.uuid(w.users.alice.id)!;
    const general = p.api.flakes.uuid(w.guilds.Lab.channels.general)!;
    const m = p.core.messages.send(alice, general, { content: "carried" });
    const flake = p.api.flakes.of(m.id);
    const doc = p.exportWorld();
    expect(doc.snowflakes?.[m.id]).toBe(flake);
    const q = makeUnlimitedParley();
    q.importWorld(JSON.parse(JSON.stringify(doc)));
    expect([q.api.flakes.of(m.id), q.api.flakes.uuid(flake)]).toEqual([flake, m.id]);
    // It holds its position again, so it stays the only message there.
    expect(q.core.idmap.lookup(m.id)).toEqual({ number: null, position: positionOf(m.id) });
    p.core.close();
    q.core.close();
  });

  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
});
