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
