/**
 * The test SDK's helpers (gap 4 of the bot tester's issue), with a real discord.js bot:
 * slash(), click(), select() and contextMenu() answer what happened; interaction(id) and
 * waitForInteraction(); waitForEvent() from the latest action, never matching an older
 * event; concrete paths and request bodies in transcripts, faults by concrete path; and
 * reference DMs (gap 5), so a bot's DM command can be tested.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { startParley, type RunningParley } from "../../src/testing";
import { createTesterBot, TESTER_WORLD } from "./bots/tester-bot";

let parley: RunningParley;

async function withBot(p: RunningParley) {
  await p.login(createTesterBot().client, "TesterBot");
  await p.waitFor(async () => (await p.coverage()).applications.TesterBot?.commands.registered.length > 0);
  await p.mark();
}

describe("helpers", () => {
  beforeAll(async () => {
    parley = await startParley({ world: TESTER_WORLD });
  });
  afterEach(async () => {
    await parley.stopBots();
    await parley.reset(TESTER_WORLD);
  });
  afterAll(() => parley.stop());

  test("slash, click, select and contextMenu answer state, response, ephemeral, deferral and follow-ups", async () => {
    await withBot(parley);
    const alice = parley.as("alice");
    const secret = await alice.slash("general", "ping", { secret: true });
    expect(secret).toMatchObject({ state: "responded", delivered: true, ephemeral: true, deferred: false, callbackType: 4, followups: [] });
    expect(secret.response?.content).toBe("pong");
    const slow = await alice.slash("general", "slow", undefined, { until: "responded" });
    expect(slow).toMatchObject({ state: "responded", deferred: true, callbackType: 5, ephemeral: false });
    expect(slow.response?.content).toBe("thought about it");
    const menu = await alice.slash("general", "menu");
    const clicked = await parley.as("bob").click("general", menu.response!.id, "more");
    expect(clicked).toMatchObject({ state: "responded", callbackType: 7 });
    expect(clicked.response).toMatchObject({ id: menu.response!.id, content: "more, as asked", components: [] });
    const menu2 = await alice.slash("general", "menu");
    const chosen = await parley.as("bob").select("general", menu2.response!.id, "colour", ["blue"]);
    expect(chosen).toMatchObject({ state: "responded", ephemeral: true });
    expect(chosen.response?.content).toBe("you chose blue");
    const profile = await alice.contextMenu("general", "Profile", { user: "bob" });
    expect(profile.response?.content).toBe("profile of bob");
    expect(await parley.interaction(profile.id)).toEqual({ id: profile.id, state: "responded", response: profile.response, followups: [] });
    expect(await parley.strictViolations()).toEqual([]);
  });

  test("waitForInteraction waits for a state; a pending interaction stays pending", async () => {
    await withBot(parley);
    const slow = await parley.as("alice").slash("general", "slow");
    const done = await parley.waitForInteraction(slow.id, "responded");
    expect(done).toMatchObject({ state: "responded", deferred: true, response: { content: "thought about it" } });
    const never = await parley.as("alice").slash("general", "never", undefined, { timeoutMs: 100 });
    expect(never.state).toBe("pending");
    await expect(parley.waitForInteraction(never.id, ["responded", "deferred"], { timeoutMs: 100 })).rejects.toThrow(
      /waitForInteraction\(\d+, responded\|deferred\): nothing matched within 100 ms/,
    );
  });

  test("waitForEvent matches only what came after the latest action (or a cursor), never an older event", async () => {
    await withBot(parley);
    const isMessage = (e: { t: string }) => e.t === "MESSAGE_CREATE";
    await parley.as("bob").say("general", "older");
    expect((await parley.waitForEvent(isMessage)).d.content).toBe("older");
    const from = await parley.cursor();
    await parley.as("bob").say("general", "newer");
    expect((await parley.waitForEvent(isMessage)).d.content).toBe("newer");
    expect((await parley.waitForEvent(isMessage, { after: "start" })).d.content).toBe("older");
    expect((await parley.waitForEvent(isMessage, { after: from })).d.content).toBe("newer");
    await expect(parley.waitForEvent((e) => isMessage(e) && e.d.content === "older", { timeoutMs: 100 })).rejects.toThrow(
      /^waitForEvent: nothing matched within 100 ms; the bots were sent meanwhile: MESSAGE_CREATE\b/,
    );
  });

  test("transcripts carry concrete paths and request bodies, a fault's answer included; a fault by path answers only that path", async () => {
    await withBot(parley);
    const random = parley.channelId("random");
    const general = parley.channelId("general");
    const mark = await parley.cursor();
    await parley.faults.rest({ path: `/channels/${random}/messages`, method: "POST", status: 503, app: "TesterBot" });
    await parley.as("alice").say("general", "!ping");
    await parley.waitForMessage("general", (m) => m.content === "pong");
    expect(await parley.faults.list()).toEqual([expect.objectContaining({ path: `/channels/${random}/messages`, remaining: 1 })]);
    // The same bot posts where the fault is: it answers, and the transcript still shows what was sent.
    const headers = { Authorization: `Bot ${parley.tokenOf("TesterBot")}`, "Content-Type": "application/json" };
    const refused = await fetch(`${parley.restBase}/channels/${random}/messages`, {
      method: "POST",
      headers,
      body: JSON.stringify({ content: "into the fault" }),
    });
    expect(refused.status).toBe(503);
    const posts = (await parley.transcript("TesterBot", { after: mark })).entries.filter((e) => e.kind === "rest" && e.method === "POST");
    expect(posts).toEqual([
      expect.objectContaining({
        path: `/channels/${general}/messages`,
        status: 200,
        request: expect.objectContaining({ content: "pong" }),
      }),
      expect.objectContaining({
        path: `/channels/${random}/messages`,
        status: 503,
        request: { content: "into the fault" },
        fault: expect.any(String),
      }),
    ]);
    expect(await parley.faults.list()).toEqual([]);
  });
});

describe("reference DMs (a world option, test mode only)", () => {
  test("with referenceDms the bot reads a person's DM and answers its DM command", async () => {
    const p = await startParley({ world: TESTER_WORLD, referenceDms: true });
    try {
      await withBot(p);
      const dm = await p.as("alice").dm("TesterBot", "!help");
      const answer = await p.waitForMessage(dm.channel_id, (m) => m.author.id === p.world.applications.TesterBot.bot_user_id, {
        as: "alice",
      });
      expect(answer.content).toBe("help for alice");
      expect((await p.waitForEvent((e) => e.t === "MESSAGE_CREATE", { after: "start" })).d).toMatchObject({
        content: "!help",
        service_e2e_encrypted: false,
      });
    } finally {
      await p.stop();
    }
  });

  test("without it (the spec) the bot sees the envelope and cannot answer", async () => {
    const p = await startParley({ world: TESTER_WORLD });
    try {
      await withBot(p);
      const dm = await p.as("alice").dm("TesterBot", "!help");
      const seen = await p.waitForEvent((e) => e.t === "MESSAGE_CREATE" && e.d.id === dm.id);
      expect(seen.d).toMatchObject({ content: "", service_e2e_encrypted: true });
      await p.harness("POST", "/settle", { quiet_ms: 50 });
      expect((await p.messages(dm.channel_id, { as: "alice" })).map((m) => m.content)).toEqual(["!help"]);
    } finally {
      await p.stop();
    }
  });
});
