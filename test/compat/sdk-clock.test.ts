/**
 * The clock moves the bot too (docs/harness.md "The clock and live sessions", gap 2 of
 * the bot tester's issue), with a real discord.js bot: a ten-minute jump leaves its live
 * session as it was (one IDENTIFY, no reconnect, nothing lost); with the test's fake
 * timers, advance() moves the bot's own setInterval with the server's clock, so a bot
 * that posts every minute posts five times in five minutes, a minute apart on the
 * server's clock; `zombie: true` makes a jump silent, and the library reconnects.
 */
import { afterEach, expect, jest, test } from "bun:test";
import { startParley, type RunningParley } from "../../src/testing";
import { createTesterBot, TESTER_WORLD } from "./bots/tester-bot";

let parley: RunningParley | undefined;
afterEach(async () => {
  jest.useRealTimers();
  await parley?.stop();
  parley = undefined;
});

const sessions = (p: RunningParley) =>
  p.harness<{ session_id: string; connected: boolean }[]>("GET", `/applications/${p.world.applications.TesterBot.id}/sessions`);
const gatewayOps = async (p: RunningParley, op: number) =>
  (await p.transcript("TesterBot")).entries.filter((e) => e.kind === "gateway" && e.op === op).length;

test("advance(600000) with a live bot: the same session, one IDENTIFY, and what is said next is answered", async () => {
  parley = await startParley({ world: TESTER_WORLD });
  await parley.login(createTesterBot().client, "TesterBot");
  const [before] = await sessions(parley);
  await parley.advance(600_000);
  await parley.as("alice").say("general", "!ping");
  await parley.waitForMessage("general", (m) => m.content === "pong");
  expect(await sessions(parley)).toEqual([expect.objectContaining({ session_id: before.session_id, connected: true })]);
  expect(await gatewayOps(parley, 2)).toBe(1);
  expect(await gatewayOps(parley, 6)).toBe(0);
});

test("with fake timers, advance moves the bot's setInterval with the server's clock: a tick a minute, a minute apart", async () => {
  parley = await startParley({ world: { ...TESTER_WORLD, start_time: "2030-01-01T00:00:00.000Z" }, inProcess: false, timers: jest });
  const bot = createTesterBot();
  await parley.login(bot.client, "TesterBot");
  const [before] = await sessions(parley);
  // Fake timers from here on: the bot's interval below is on them, its gateway heartbeat is not.
  jest.useFakeTimers();
  bot.startTicking(60_000, parley.channelId("general"));
  expect(await parley.advance(300_000)).toBe("2030-01-01T00:05:00.000Z");
  const ticks = await parley.waitFor(async () => {
    const got = (await parley!.messages("general")).filter((m) => m.content.startsWith("tick "));
    return got.length === 5 && got;
  });
  expect(ticks.map((m) => [m.content, m.timestamp])).toEqual(
    [1, 2, 3, 4, 5].reverse().map((n) => [`tick ${n}`, `2030-01-01T00:0${n}:00.000+00:00`]),
  );
  expect(bot.ticks).toBe(5);
  await parley.as("alice").say("general", "!ping");
  await parley.waitForMessage("general", (m) => m.content === "pong");
  expect(await sessions(parley)).toEqual([expect.objectContaining({ session_id: before.session_id, connected: true })]);
});

test("advance(ms, { zombie: true }): a silent jump closes the socket with 4000, and discord.js resumes its session", async () => {
  parley = await startParley({ world: TESTER_WORLD });
  await parley.login(createTesterBot().client, "TesterBot");
  const [before] = await sessions(parley);
  await parley.advance(120_000, { zombie: true });
  await parley.waitFor(async () => (await gatewayOps(parley!, 6)) === 1);
  await parley.waitForBot("TesterBot");
  expect(await sessions(parley)).toEqual([expect.objectContaining({ session_id: before.session_id, connected: true })]);
  await parley.as("alice").say("general", "!ping");
  await parley.waitForMessage("general", (m) => m.content === "pong");
});
