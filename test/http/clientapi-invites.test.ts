import { describe, expect, test, beforeEach } from "bun:test";
import { client, harness, internalId, recordEvents, rowCounts, peopleWorld, refusal } from "../helpers";
import { MAX_GUILD_INVITES } from "../../src/core";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let alice: string, bob: string, carol: string;
let lab: string, general: string, staff: string;

beforeEach(() => {
  ({ p, w, alice, bob, carol, lab, general, staff } = peopleWorld());
});

describe("invites", () => {
  test("create (CREATE_INSTANT_INVITE from @everyone), look up, join: one member.added, one use", async () => {
    const inv = await client(p, "POST", `/channels/${general}/invites`, bob, { max_uses: 5, max_age: 3600 });
    expect(inv.status).toBe(200);
    expect(inv.body).toMatchObject({ max_uses: 5, max_age: 3600, uses: 0, guild: { id: lab, name: "Lab" }, channel: { id: general } });
    expect(inv.body.code).toMatch(/^[A-Za-z0-9]{8}$/);
    const look = await client(p, "GET", `/invites/${inv.body.code}`, carol);
    expect(look.status).toBe(200);
    const ev = recordEvents(p);
    const join = await client(p, "POST", `/invites/${inv.body.code}`, carol);
    expect(join.status).toBe(200);
    expect(join.body.id).toBe(lab);
    expect(ev.count("member.added")).toBe(1);
    expect((await client(p, "GET", `/invites/${inv.body.code}`, carol)).body.uses).toBe(1);
    // joining again changes nothing and uses nothing
    await client(p, "POST", `/invites/${inv.body.code}`, carol);
    expect(ev.count("member.added")).toBe(1);
    expect((await client(p, "GET", `/invites/${inv.body.code}`, carol)).body.uses).toBe(1);
  });

  test("no invite without CREATE_INSTANT_INVITE in the channel; not for strangers", async () => {
    await client(p, "PUT", `/channels/${staff}/overwrites/${lab}`, alice, {
      type: "role",
      deny: ["SEND_MESSAGES", "CREATE_INSTANT_INVITE"],
    });
    const before = rowCounts(p, ["invites"]);
    const r = await client(p, "POST", `/channels/${staff}/invites`, bob, {});
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(50001);
    const stranger = await client(p, "POST", `/channels/${general}/invites`, carol, {});
    expect(refusal(stranger)).toEqual([404, 10003]);
    const bad = await client(p, "POST", `/channels/${general}/invites`, bob, { max_age: 604801 });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(50035);
    expect(rowCounts(p, ["invites"])).toEqual(before);
  });

  test("an expired invite is unknown (virtual clock)", async () => {
    p.clock.advance(0); // virtual from before the invite exists, so the span is exact
    const inv = await client(p, "POST", `/channels/${general}/invites`, bob, { max_age: 60 });
    p.clock.advance(59_999);
    expect((await client(p, "GET", `/invites/${inv.body.code}`, carol)).status).toBe(200);
    p.clock.advance(1);
    const r = await client(p, "POST", `/invites/${inv.body.code}`, carol);
    expect(r.status).toBe(404);
    expect(r.body.code).toBe(10003);
    expect(p.core.guilds.isMember(lab, internalId(p, w.users.carol.id))).toBe(false);
  });

  test("a used-up invite is unknown", async () => {
    const inv = await client(p, "POST", `/channels/${general}/invites`, bob, { max_uses: 1 });
    expect((await client(p, "POST", `/invites/${inv.body.code}`, carol)).status).toBe(200);
    const dave = await client(p, "POST", "/auth/signup", null, { username: "dave", password: "long enough" });
    const r = await client(p, "POST", `/invites/${inv.body.code}`, dave.body.token);
    expect(refusal(r)).toEqual([404, 10003]);
  });

  test("a banned person cannot join, and the refusal uses nothing up", async () => {
    const carolId = internalId(p, w.users.carol.id);
    p.store.db.query("INSERT INTO bans (guild_id, user_id, reason, created_at) VALUES (?, ?, 'spam', 0)").run(lab, carolId);
    const inv = await client(p, "POST", `/channels/${general}/invites`, bob, { max_uses: 1 });
    const ev = recordEvents(p);
    const r = await client(p, "POST", `/invites/${inv.body.code}`, carol);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(50001);
    expect(ev.count("member.added")).toBe(0);
    expect((await client(p, "GET", `/invites/${inv.body.code}`, bob)).body.uses).toBe(0);
  });

  test("delete: the creator or a server manager; others are refused", async () => {
    const inv = await client(p, "POST", `/channels/${general}/invites`, bob, {});
    await client(p, "POST", `/invites/${inv.body.code}`, carol);
    expect(refusal(await client(p, "DELETE", `/invites/${inv.body.code}`, carol))).toEqual([403, 50001]);
    expect((await client(p, "DELETE", `/invites/${inv.body.code}`, alice)).status).toBe(200);
    expect(refusal(await client(p, "GET", `/invites/${inv.body.code}`, bob))).toEqual([404, 10003]);
    expect(refusal(await client(p, "GET", "/invites/not-a-code!", bob))).toEqual([404, 10003]);
  });

  test("a server holds at most 1000 usable invites (30016), whoever asks; an expired or used-up one leaves room", async () => {
    const aliceId = internalId(p, w.users.alice.id);
    const made = p.store.write(() => {
      for (let i = 0; i < MAX_GUILD_INVITES - 2; i++) p.core.invites.create(aliceId, general, { maxAge: 0 });
      return {
        soon: p.core.invites.create(aliceId, general, { maxAge: 60 }).code,
        once: p.core.invites.create(aliceId, staff, { maxUses: 1 }).code,
      };
    });
    const full = await client(p, "POST", `/channels/${general}/invites`, bob, {});
    expect(refusal(full)).toEqual([400, 30016]);
    expect(full.body.message).toBe("Maximum number of invites reached (1000)");
    const byHarness = await harness(p, "POST", "/users/bob/invites", { channel_id: w.guilds.Lab.channels.general });
    expect(refusal(byHarness)).toEqual([400, 30016]);
    expect(rowCounts(p, ["invites"]).invites).toBe(MAX_GUILD_INVITES);

    // carol uses up the single-use invite: one place again, and then none.
    expect((await client(p, "POST", `/invites/${made.once}`, carol)).status).toBe(200);
    expect((await client(p, "POST", `/channels/${general}/invites`, bob, {})).status).toBe(200);
    expect(refusal(await client(p, "POST", `/channels/${general}/invites`, bob, {}))).toEqual([400, 30016]);
    // The one-minute invite expires: one place again.
    p.clock.advance(60_000);
    expect((await client(p, "GET", `/invites/${made.soon}`, carol)).status).toBe(404);
    expect((await client(p, "POST", `/channels/${general}/invites`, bob, {})).status).toBe(200);
  });
});
