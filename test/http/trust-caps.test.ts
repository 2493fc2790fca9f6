/**
 * The reference's caps on what one member can pile up where everyone reads it
 * (reference-gaps error table): 20 different emoji on a message (30010), 250 roles a
 * server (30005), 500 channels a server (30013). Each rides in every view of its message
 * or in every GUILD_CREATE, so without a cap one member with the right (or, for
 * reactions, anyone who can see the message) bloats them for everyone. Refused on both
 * APIs, as 400 with the cap's code, writing nothing.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { call, client, internalId, makeUnlimitedParley, refusal, rowCounts, seedAdmin } from "../helpers";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
beforeEach(() => {
  p = makeUnlimitedParley();
  w = seedAdmin(p);
});
afterEach(async () => {
  await p.stop();
});

const emoji = (i: number) => String.fromCodePoint(0x1f600 + i);

describe("reactions: at most 20 different emoji a message", () => {
  test("the 21st emoji is 400 30010 for a person and a bot; reacting with one already there still works", async () => {
    const general = internalId(p, w.guilds.Lab.channels.general);
    const carol = w.users.carol.token;
    const posted = await client(p, "POST", `/channels/${general}/messages`, carol, { content: "react to me" });
    expect(posted.status).toBe(200);
    const msg = posted.body.id as string;
    for (let i = 0; i < 20; i++)
      expect((await client(p, "PUT", `/channels/${general}/messages/${msg}/reactions/${encodeURIComponent(emoji(i))}`, carol)).status).toBe(
        204,
      );
    const before = rowCounts(p, ["reactions"]);

    const person = await client(p, "PUT", `/channels/${general}/messages/${msg}/reactions/${encodeURIComponent(emoji(20))}`, carol);
    expect(refusal(person)).toEqual([400, 30010]);
    const [ch, m] = [w.guilds.Lab.channels.general, p.api.flakes.of(msg)];
    const token = w.applications.ModBot.token;
    const bot = await call(p, "PUT", `/channels/${ch}/messages/${m}/reactions/${encodeURIComponent(emoji(21))}/@me`, { token });
    expect(refusal(bot)).toEqual([400, 30010]);
    expect(bot.body.message).toBe("Maximum number of reactions reached (20)");
    expect(rowCounts(p, ["reactions"])).toEqual(before);

    // Joining a reaction already on the message adds no emoji: still allowed.
    const joined = await call(p, "PUT", `/channels/${ch}/messages/${m}/reactions/${encodeURIComponent(emoji(3))}/@me`, { token });
    expect(joined.status).toBe(204);
    expect(rowCounts(p, ["reactions"]).reactions).toBe(before.reactions + 1);
  });
});

describe("roles and channels: at most 250 roles and 500 channels a server", () => {
  test("the 251st role is 400 30005 on both APIs and nothing is written", async () => {
    const lab = internalId(p, w.guilds.Lab.id);
    const have = p.core.guilds.roles(lab).length;
    for (let i = have; i < 250; i++) p.core.guilds.createRole(lab, { name: `filler ${i}` });
    const before = rowCounts(p, ["roles", "audit_log"]);

    const bot = await call(p, "POST", `/guilds/${w.guilds.Lab.id}/roles`, {
      token: w.applications.ModBot.token,
      body: { name: "one more" },
    });
    expect(refusal(bot)).toEqual([400, 30005]);
    const person = await client(p, "POST", `/guilds/${lab}/roles`, w.users.alice.token, { name: "one more" });
    expect(refusal(person)).toEqual([400, 30005]);
    expect(rowCounts(p, ["roles", "audit_log"])).toEqual(before);
  });

  test("the 501st channel is 400 30013 on both APIs and nothing is written", async () => {
    const lab = internalId(p, w.guilds.Lab.id);
    const have = p.core.guilds.channels(lab).length;
    for (let i = have; i < 500; i++) p.core.guilds.createChannel({ guildId: lab, name: `filler-${i}` });
    const before = rowCounts(p, ["channels", "audit_log"]);

    const bot = await call(p, "POST", `/guilds/${w.guilds.Lab.id}/channels`, {
      token: w.applications.ModBot.token,
      body: { name: "more" },
    });
    expect(refusal(bot)).toEqual([400, 30013]);
    const person = await client(p, "POST", `/guilds/${lab}/channels`, w.users.alice.token, { name: "more" });
    expect(refusal(person)).toEqual([400, 30013]);
    expect(rowCounts(p, ["channels", "audit_log"])).toEqual(before);
  });
});

describe("role icons: a hash of what was given, never the data", () => {
  test("a 60 KB icon is kept as a 32-hex hash in the role, its list and its audit entry; sending the hash back keeps it", async () => {
    const token = w.applications.ModBot.token;
    const g = w.guilds.Lab.id;
    const made = await call(p, "POST", `/guilds/${g}/roles`, {
      token,
      body: { name: "Shiny", icon: `data:image/png;base64,${"A".repeat(60_000)}` },
    });
    expect(made.status).toBe(200);
    expect(made.body.icon).toMatch(/^[0-9a-f]{32}$/);
    const edited = await call(p, "PATCH", `/guilds/${g}/roles/${made.body.id}`, { token, body: { icon: "x".repeat(60_000) } });
    expect(edited.status).toBe(200);
    expect(edited.body.icon).toMatch(/^[0-9a-f]{32}$/);
    expect(edited.body.icon).not.toBe(made.body.icon);
    const again = await call(p, "PATCH", `/guilds/${g}/roles/${made.body.id}`, {
      token,
      body: { icon: edited.body.icon, name: "Shinier" },
    });
    expect([again.status, again.body.icon]).toEqual([200, edited.body.icon]);
    const listed = (await call(p, "GET", `/guilds/${g}/roles`, { token })).body.find((r: { id: string }) => r.id === made.body.id);
    expect(listed.icon).toBe(edited.body.icon);
    const log = await call(p, "GET", `/guilds/${g}/audit-logs`, { token });
    expect(log.status).toBe(200);
    expect(log.text.length).toBeLessThan(10_000);
  });
});

describe("overwrites: at most 1000 a channel", () => {
  test("an overwrite for a new target past 1000 is 400 30060 on both APIs; changing one already there still works", async () => {
    const staff = internalId(p, w.guilds.Lab.channels.staff);
    const lab = internalId(p, w.guilds.Lab.id);
    const low = p.core.guilds.roles(lab).find((r) => r.name === "Low")!;
    // 999 rows of targets no longer there (the cap counts rows, as the reference does), and Low's.
    const put = p.store.db.query("INSERT INTO overwrites (channel_id, target_id, target_type, allow, deny) VALUES (?, ?, 1, 0, 2048)");
    p.store.write(() => {
      for (let i = 0; i < 999; i++) put.run(staff, `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    });
    p.core.guilds.setOverwrite(staff, low.id, 0, 0, 2048);
    const before = rowCounts(p, ["overwrites"]);
    expect(before.overwrites).toBeGreaterThanOrEqual(1000);

    const [ch, token] = [w.guilds.Lab.channels.staff, w.applications.ModBot.token];
    const bot = await call(p, "PUT", `/channels/${ch}/permissions/${w.users.carol.id}`, { token, body: { type: 1, deny: "2048" } });
    expect(refusal(bot)).toEqual([400, 30060]);
    const person = await client(p, "PUT", `/channels/${staff}/overwrites/${internalId(p, w.users.carol.id)}`, w.users.alice.token, {
      type: "member",
      deny: ["SEND_MESSAGES"],
    });
    expect(refusal(person)).toEqual([400, 30060]);
    expect(rowCounts(p, ["overwrites"])).toEqual(before);

    const lowFlake = p.api.flakes.of(low.id);
    const changed = await call(p, "PUT", `/channels/${ch}/permissions/${lowFlake}`, { token, body: { type: 0, deny: "0" } });
    expect(changed.status).toBe(204);
  });
});
