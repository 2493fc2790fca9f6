/**
 * Deterministic runs: a world seeded with `start_time` starts on the virtual clock at
 * that instant, so two runs on fresh servers (or after a reset) give the same
 * snowflakes, timestamps and order, and tests can compare whole payloads.
 */
import { expect, test } from "bun:test";
import { BASIC_WORLD, call, harness, makeParley, refusal } from "../helpers";
import type { Parley } from "../../src/app";

const START = "2030-02-03T04:05:06.000Z";
const WORLD = { ...structuredClone(BASIC_WORLD), start_time: START };

/** Secrets are random on purpose; everything else of a run is compared whole. */
function withoutSecrets(w: any) {
  const out = structuredClone(w);
  for (const u of Object.values<any>(out.users)) delete u.token;
  for (const a of Object.values<any>(out.applications)) {
    delete a.token;
    delete a.public_key;
  }
  return out;
}

/** Seed, then people and the bot act; everything they can read back. */
async function run(p: Parley) {
  const seeded = await harness(p, "POST", "/seed", structuredClone(WORLD));
  expect(seeded.status).toBe(200);
  const w = seeded.body;
  const general = w.guilds.Lab.channels.general;
  const token = w.applications.EchoBot.token;
  await harness(p, "POST", "/users/bob/messages", { channel_id: general, content: "first" });
  await harness(p, "POST", "/clock", { advance_ms: 1500 });
  const bot = await call(p, "POST", `/channels/${general}/messages`, { token, body: { content: "second, from the bot" } });
  await harness(p, "POST", "/users/alice/messages", { channel_id: general, content: "third", reply_to: bot.body.id });
  return {
    world: withoutSecrets(w),
    messages: (await harness(p, "GET", `/channels/${general}/messages?as=alice`)).body,
    guild: (await call(p, "GET", `/guilds/${w.guilds.Lab.id}`, { token })).body,
    channels: (await call(p, "GET", `/guilds/${w.guilds.Lab.id}/channels`, { token })).body,
    members: (await call(p, "GET", `/guilds/${w.guilds.Lab.id}/members?limit=10`, { token })).body,
  };
}

test("two fresh servers seeded with start_time give the same whole payloads", async () => {
  const a = await run(makeParley());
  const b = await run(makeParley());
  expect(b).toEqual(a);
  expect(a.messages.map((m: any) => [m.content, m.timestamp])).toEqual([
    ["third", "2030-02-03T04:05:07.500+00:00"],
    ["second, from the bot", "2030-02-03T04:05:07.500+00:00"],
    ["first", "2030-02-03T04:05:06.000+00:00"],
  ]);
  // Snowflakes carry the start time (2025 epoch, spec 2.1) and keep creation order.
  const ids = a.messages.map((m: any) => BigInt(m.id)).reverse();
  expect(ids).toEqual([...ids].sort((x, y) => (x < y ? -1 : 1)));
  expect(Number(ids[0] >> 22n) + 1735689600000).toBe(Date.parse(START));
});

test("the same on one server after a reset; the clock is virtual at start_time until told", async () => {
  const p = makeParley();
  const first = await run(p);
  expect((await harness(p, "POST", "/reset")).status).toBe(204);
  expect(await run(p)).toEqual(first);
  expect(new Date(p.clock.now()).toISOString()).toBe("2030-02-03T04:05:07.500Z");
});

test("a bad start_time is 400 50035 and leaves the clock real; a refused world puts the clock back", async () => {
  const p = makeParley();
  const r = await harness(p, "POST", "/seed", { start_time: "yesterday" });
  expect(refusal(r)).toEqual([400, 50035]);
  expect(r.body.message).toContain("start_time");
  expect(p.clock.virtual).toBe(false);
  // Before 2025 ids and snowflakes would not sort with every later one: refused, nothing made.
  const early = await harness(p, "POST", "/seed", { start_time: "1999-12-31T23:59:59Z", users: [{ name: "early" }] });
  expect(refusal(early)).toEqual([400, 50035]);
  expect(early.body.message).toContain("start_time: Must be 2025-01-01T00:00:00Z or later");
  expect(p.clock.virtual).toBe(false);
  expect(p.core.users.count()).toBe(0);
  const refused = await harness(p, "POST", "/seed", { start_time: START, guilds: [{ name: "Nowhere", owner: "nobody" }] });
  expect(refusal(refused)).toEqual([400, 50035]);
  expect(p.clock.virtual).toBe(false);
});
