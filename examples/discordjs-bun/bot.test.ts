/**
 * HelperBot's tests with bun test, in this process: a real discord.js client against a
 * real Parley. `npm install` (see package.json), then `bun test`.
 */
import * as bunTest from "bun:test";
import { afterAll, beforeAll, expect } from "bun:test";
import { parleyHooks, startParley, type RunningParley } from "parley/testing";
import { createBot } from "./bot";

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
  // A departure from the spec, for tests only: people's DMs to bots carry their text.
  reference_dms: true,
};

let parley: RunningParley;
beforeAll(async () => {
  parley = await startParley();
});
afterAll(() => parley.stop());
// Before each test a fresh world; after it strict mode's checks, and the bot's transcript on any failure.
const { test } = parleyHooks(bunTest, () => parley, { world: WORLD, coverage: true });

async function helperBot() {
  const client = await parley.login(createBot(), "HelperBot");
  await parley.waitFor(async () => (await client.application!.commands.fetch()).size === 3);
  return client;
}

test("!ping is answered with a reply", async () => {
  await helperBot();
  const { id } = await parley.as("alice").say("general", "!ping");
  const pong = await parley.waitForMessage("general", (m) => m.content === "pong");
  expect(pong.message_reference?.message_id).toBe(id);
});

test("/echo answers only the person who asked", async () => {
  await helperBot();
  const r = await parley.as("bob").slash("general", "echo", { text: "hello" });
  expect(r).toMatchObject({ state: "responded", ephemeral: true, response: { content: "hello" } });
  expect((await parley.messages("general", { as: "alice" })).map((m) => m.content)).not.toContain("hello");
});

test("/poll counts the buttons people click", async () => {
  await helperBot();
  const poll = await parley.as("alice").slash("general", "poll", { question: "Pizza?" });
  await parley.as("bob").click("general", poll.response!.id, "yes");
  const after = await parley.as("alice").click("general", poll.response!.id, "no");
  expect(after.response?.content).toBe("Pizza? (yes 1, no 1)");
});

test("/think defers, then answers", async () => {
  await helperBot();
  const r = await parley.as("alice").slash("general", "think", undefined, { until: "responded" });
  expect(r).toMatchObject({ deferred: true, response: { content: "42" } });
});

test("!help in a DM", async () => {
  await helperBot();
  const dm = await parley.as("alice").dm("HelperBot", "!help");
  const help = await parley.waitForMessage(dm.channel_id, (m) => m.author.username === "HelperBot", { as: "alice" });
  expect(help.content).toContain("/poll");
});

test("an hour later the session is still live and the bot still answers", async () => {
  await helperBot();
  await parley.advance(60 * 60_000);
  await parley.as("alice").say("general", "!ping");
  await parley.waitForMessage("general", (m) => m.content === "pong");
});
