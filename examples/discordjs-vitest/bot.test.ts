/**
 * HelperBot's tests with vitest under Node: Parley runs as a child process (`parley serve`
 * on Bun, from node_modules), the bot in the test's process. `npm install`, then
 * `npx vitest run`. The last test moves the bot's hourly reminder with vitest's fake timers.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, test, vi } from "vitest";
import { parleyHooks, startParley, type RunningParley } from "parley/testing";
import { createBot } from "./bot.js";

const WORLD = {
  users: [{ name: "alice" }, { name: "bob" }],
  guilds: [{ name: "Lab", owner: "alice", members: ["bob"] }],
  applications: [
    {
      name: "HelperBot",
      owner: "alice",
      install: ["Lab"],
      intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT", "DIRECT_MESSAGES"],
      approved_privileged: ["MESSAGE_CONTENT"],
    },
  ],
  start_time: "2030-01-01T09:00:00.000Z",
};

let parley: RunningParley;
beforeAll(async () => {
  // timers: advance() moves vitest's fake timers with the server's clock, once they are on.
  parley = await startParley({ timers: vi });
});
afterAll(() => parley.stop());
afterEach(() => void vi.useRealTimers());
parleyHooks({ beforeEach, afterEach, afterAll }, () => parley, { world: WORLD });

async function helperBot() {
  const client = await parley.login(createBot(), "HelperBot");
  await parley.waitFor(async () => (await client.application!.commands.fetch()).size === 3);
  return client;
}

test("!ping is answered with a reply", async () => {
  await helperBot();
  await parley.as("alice").say("general", "!ping");
  await parley.waitForMessage("general", (m) => m.content === "pong");
});

test("/echo answers only the person who asked", async () => {
  await helperBot();
  const r = await parley.as("bob").slash("general", "echo", { text: "hello" });
  expect(r).toMatchObject({ state: "responded", ephemeral: true, response: { content: "hello" } });
});

test("/poll counts the buttons people click", async () => {
  await helperBot();
  const poll = await parley.as("alice").slash("general", "poll", { question: "Pizza?" });
  const after = await parley.as("bob").click("general", poll.response!.id, "yes");
  expect(after.response?.content).toBe("Pizza? (yes 1, no 0)");
});

test("the hourly reminder: two in two hours, on the hour", async () => {
  // Fake timers before the bot starts its interval; its login needs real ones.
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  await helperBot();
  await parley.advance(2 * 60 * 60_000);
  const reminders = await parley.waitFor(async () => {
    const got = (await parley.messages("general")).filter((m) => m.content.startsWith("Hourly reminder"));
    return got.length === 2 && got;
  });
  expect(reminders.map((m) => m.timestamp)).toEqual(["2030-01-01T11:00:00.000+00:00", "2030-01-01T10:00:00.000+00:00"]);
});
