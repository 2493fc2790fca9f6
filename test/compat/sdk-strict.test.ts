/**
 * Strict mode of the test SDK (docs/harness.md "Strict mode", gap 3 of the bot tester's
 * issue): with a real discord.js bot, the 3-second first-response rule (10062 after it),
 * an interaction left unanswered, an error the bot's library raised and a 4xx the test did
 * not allow are what strictViolations() reports; strict: false turns it all off; and the
 * test hooks fail a test for them, and attach the transcript to any failing test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startParley, type RunningParley } from "../../src/testing";
import { createTesterBot, TESTER_WORLD, type TesterBot } from "./bots/tester-bot";

const WORLD = { ...TESTER_WORLD, start_time: "2030-01-01T00:00:00.000Z" };
let parley: RunningParley;
let bot: TesterBot;

async function startBot(p: RunningParley): Promise<TesterBot> {
  const b = createTesterBot();
  await p.login(b.client, "TesterBot");
  await p.waitFor(async () => (await p.coverage()).applications.TesterBot?.commands.registered.length > 0);
  await p.mark();
  return b;
}

describe("strict (the default)", () => {
  beforeAll(async () => {
    parley = await startParley({ world: WORLD });
  });
  afterEach(async () => {
    await parley.stopBots();
    await parley.reset(WORLD);
  });
  afterAll(() => parley.stop());

  test("an answer after 3 s: the bot gets 10062, and strict mode reports the late answer, the library's error and the 404", async () => {
    bot = await startBot(parley);
    const late = await parley.as("alice").slash("general", "late", undefined, { timeoutMs: 300 });
    expect(late.state).toBe("pending");
    await parley.advanceClock(3000);
    bot.release();
    const refused = await parley.waitFor(async () =>
      (await parley.transcript("TesterBot")).entries.find((e) => e.kind === "rest" && e.route.endsWith("/callback") && e.status === 404),
    );
    expect(refused).toMatchObject({ status: 404, response: { code: 10062, message: "Unknown interaction" } });
    expect((await parley.interaction(late.id)).state).toBe("expired");
    await parley.waitFor(async () => (await parley.strictViolations()).length === 3);
    expect(await parley.strictViolations()).toEqual([
      expect.stringMatching(/^the bot did not answer \/late in general in time \(interaction \d+ expired with no response/),
      expect.stringMatching(/^the bot's library raised an error: DiscordAPIError\[10062\]: Unknown interaction/),
      `TesterBot got 404 for POST /interactions/${late.id}/[masked]/callback: {"code":10062,"message":"Unknown interaction"} (allow it with parley.allow({ status: 404, route: "/interactions/{interaction_id}/{interaction_token}/callback" }) if the bot expects it)`,
    ]);
  });

  test("an interaction left unanswered", async () => {
    bot = await startBot(parley);
    const r = await parley.as("alice").slash("general", "never", undefined, { timeoutMs: 200 });
    expect(await parley.strictViolations()).toEqual([`the bot never answered /never in general (interaction ${r.id} is still pending)`]);
  });

  test("an error the bot's library emits", async () => {
    bot = await startBot(parley);
    bot.client.emit("error", new Error("boom in a handler"));
    // With where it was raised in the bot's own code, so a bot with many handlers says which one threw.
    expect(await parley.strictViolations()).toEqual([
      expect.stringMatching(/^the bot's library raised an error: Error: boom in a handler\n {6}at .*sdk-strict\.test\.ts:\d+/),
    ]);
  });

  test("a 4xx the test did not allow is reported (with its path and body); an allowed one is not", async () => {
    bot = await startBot(parley);
    await parley.as("alice").say("general", "!lookup");
    await parley.waitForMessage("general", (m) => m.content === "no such message");
    const general = parley.channelId("general");
    expect(await parley.strictViolations()).toEqual([
      `TesterBot got 404 for GET /channels/${general}/messages/1234567890123456789: {"code":10003,"message":"Unknown message"} (allow it with parley.allow({ status: 404, route: "/channels/{channel_id}/messages/{message_id}" }) if the bot expects it)`,
    ]);
    parley.allow({ status: 404, route: "/channels/{channel_id}/messages/{message_id}" });
    expect(await parley.strictViolations()).toEqual([]);
  });

  test("an answer a latency fault made late is the test's own doing: neither the expiry nor its 10062 is reported", async () => {
    // Real time: latency is real milliseconds, and the 3-second rule counts on the server's clock.
    await parley.reset(TESTER_WORLD);
    bot = await startBot(parley);
    await parley.faults.latency({ route: "/interactions/{interaction_id}/{interaction_token}/callback", ms: 3200, times: 1 });
    const slow = await parley.as("alice").slash("general", "ping", undefined, { timeoutMs: 6000 });
    expect(slow.state).toBe("expired");
    const refused = await parley.waitFor(async () =>
      (await parley.transcript("TesterBot")).entries.find((e) => e.kind === "rest" && e.route.endsWith("/callback")),
    );
    expect(refused).toMatchObject({ status: 404, response: { code: 10062 }, delayed_by: [expect.any(String)] });
    const found = await parley.waitFor(async () => {
      const v = await parley.strictViolations();
      return v.length ? v : null;
    });
    // What is left is the bot's own: its library raised the 10062 instead of handling it.
    expect(found).toEqual([expect.stringMatching(/^the bot's library raised an error: DiscordAPIError\[10062\]/)]);
  });

  test("an interaction answered in time is not reported when the clock later passes its 15 minutes", async () => {
    bot = await startBot(parley);
    const r = await parley.as("alice").slash("general", "ping");
    expect(r.state).toBe("responded");
    await parley.advanceClock(16 * 60_000);
    expect((await parley.interaction(r.id)).state).toBe("expired");
    expect(await parley.strictViolations()).toEqual([]);
  });

  test("a 4xx a fault gave is the test's own doing, not reported", async () => {
    bot = await startBot(parley);
    await parley.faults.rest({ route: "/channels/{channel_id}/messages", method: "POST", status: 403, app: "TesterBot" });
    await parley.as("alice").say("general", "!ping");
    await parley.waitFor(async () => (await parley.transcript("TesterBot")).entries.some((e) => e.kind === "rest" && e.status === 403));
    await parley.waitFor(async () => (await parley.strictViolations()).length > 0);
    // The rejected reply is the library's error; the 403 itself is not a violation.
    expect(await parley.strictViolations()).toEqual([
      expect.stringMatching(/^the bot's library raised an error: DiscordAPIError\[50001\]/),
    ]);
  });
});

describe("strict: false", () => {
  test("no 3-second rule and nothing reported", async () => {
    const lax = await startParley({ world: WORLD, strict: false });
    try {
      bot = await startBot(lax);
      const late = await lax.as("alice").slash("general", "late", undefined, { timeoutMs: 200 });
      await lax.advanceClock(60_000);
      bot.release();
      expect((await lax.waitForInteraction(late.id, "responded")).response?.content).toBe("sorry I am late");
      await lax.as("alice").slash("general", "never", undefined, { timeoutMs: 100 });
      bot.client.emit("error", new Error("ignored"));
      expect(await lax.strictViolations()).toEqual([]);
    } finally {
      await lax.stop();
    }
  });
});

describe("the test hooks (parleyHooks) in a bun:test run", () => {
  const dir = join(import.meta.dir, `.hooks-${process.pid}`);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a strict violation fails its test with the transcript; a failed assertion carries the transcript; a clean test passes", () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "hooked.test.ts"),
      `import * as bunTest from "bun:test";
import { expect } from "bun:test";
import { parleyHooks, startParley, type RunningParley } from "../../../src/testing";
import { createTesterBot, TESTER_WORLD } from "../bots/tester-bot";

let parley: RunningParley;
bunTest.beforeAll(async () => { parley = await startParley(); });
bunTest.afterAll(() => parley.stop());
const { test } = parleyHooks(bunTest, () => parley, { world: TESTER_WORLD });

async function bot() {
  const b = createTesterBot();
  await parley.login(b.client, "TesterBot");
  return b;
}

test("unanswered", async () => {
  await bot();
  await parley.as("alice").slash("general", "never", undefined, { timeoutMs: 100 }).catch(() => {});
});
test("wrong expectation", async () => {
  await bot();
  await parley.as("alice").say("general", "!ping");
  const m = await parley.waitForMessage("general", (m) => m.content === "pong");
  expect(m.content).toBe("ping");
});
test("clean", async () => {
  await bot();
  await parley.as("alice").say("general", "!ping");
  await parley.waitForMessage("general", (m) => m.content === "pong");
});
`,
    );
    const run = spawnSync(process.execPath, ["test", "--timeout", "30000", join(dir, "hooked.test.ts")], {
      cwd: dir,
      encoding: "utf8",
      timeout: 120_000,
    });
    const out = run.stdout + run.stderr;
    expect(out).toContain("(fail) unanswered");
    expect(out).toMatch(
      /Strict mode \(startParley\(\{ strict: false \}\) turns it off\):\n {2}- the bot never answered \/never in general/,
    );
    expect(out).toContain("(fail) wrong expectation");
    expect(out).toMatch(
      /Expected: "ping"[\s\S]*Transcript of TesterBot \(since the test began, \d+ entries\):[\s\S]*rest +POST \/channels\/\d+\/messages -> 200/,
    );
    expect(out).toContain("(pass) clean");
    expect(out).toMatch(/\b1 pass\b[\s\S]*\b2 fail\b/);
  }, 130_000);

  test("under bun test's own 5 s limit, a wait that finds nothing fails with what the bot did, once, and nothing leaks into the next test", () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "waits.test.ts"),
      `import * as bunTest from "bun:test";
import { parleyHooks, startParley, type RunningParley } from "../../../src/testing";
import { createTesterBot, TESTER_WORLD } from "../bots/tester-bot";

let parley: RunningParley;
bunTest.beforeAll(async () => { parley = await startParley(); });
bunTest.afterAll(() => parley.stop());
const { test } = parleyHooks(bunTest, () => parley, { world: TESTER_WORLD });

test("no such answer", async () => {
  await parley.login(createTesterBot().client, "TesterBot");
  await parley.as("alice").say("general", "!ping");
  await parley.waitForMessage("general", (m) => m.content === "pong");
  await parley.waitForMessage("general", (m) => m.content === "a word the bot never says");
});
test("the next test", async () => {
  await parley.login(createTesterBot().client, "TesterBot");
});
`,
    );
    // As a newcomer runs it: no --timeout, so bun test's default of 5 s per test.
    const run = spawnSync(process.execPath, ["test", join(dir, "waits.test.ts")], { cwd: dir, encoding: "utf8", timeout: 120_000 });
    const out = run.stdout + run.stderr;
    expect(out).toContain("(fail) no such answer");
    expect(out).not.toContain("timed out after");
    expect(out).toMatch(
      /waitForMessage: nothing matched within 5000 ms; the newest in 'general' \(of \d+\):\n(  .*\n)+\nTranscript of TesterBot \(since the test began, \d+ entries\):/,
    );
    expect(out).toMatch(/rest +POST \/channels\/\d+\/messages -> 200/);
    expect(out.split("Transcript of TesterBot").length - 1).toBe(1);
    expect(out).not.toContain("Unhandled error");
    expect(out).toContain("(pass) the next test");
  }, 130_000);
});
