/**
 * The server's options in both of the SDK's modes, in this process and as a child
 * process (gap 4 of the bot tester's issue): heartbeat interval (so a zombie test takes
 * seconds either way), rate limits (off, or rules of one's own) and start time; attaching
 * to a server started elsewhere; snapshots of a normalised transcript that repeat run
 * after run in a world with a start time; and the coverage report.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { attachParley, HarnessError, startParley, type RunningParley } from "../../src/testing";
import { createTesterBot, TESTER_WORLD } from "./bots/tester-bot";

const post = (p: RunningParley, content: string) =>
  fetch(`${p.restBase}/channels/${p.channelId("general")}/messages`, {
    method: "POST",
    headers: { Authorization: `Bot ${p.tokenOf("TesterBot")}`, "Content-Type": "application/json" },
    body: JSON.stringify({ content }),
  });

for (const inProcess of [true, false]) {
  describe(`server options, ${inProcess ? "in this process" : "as a child process"}`, () => {
    test("heartbeatIntervalMs reaches HELLO, and dropped ACKs make discord.js reconnect within seconds", async () => {
      const p = await startParley({ world: TESTER_WORLD, inProcess, heartbeatIntervalMs: 500 });
      try {
        expect(p.mode).toBe(inProcess ? "in-process" : "child-process");
        await p.login(createTesterBot().client, "TesterBot");
        const hello = (await p.transcript("TesterBot")).entries.find((e) => e.kind === "gateway" && e.op === 10);
        expect(hello).toMatchObject({ d: { heartbeat_interval: 500 } });
        await p.faults.dropHeartbeatAcks("TesterBot", 1);
        await p.waitFor(async () => (await p.transcript("TesterBot")).entries.some((e) => e.kind === "gateway" && e.op === 6), {
          timeoutMs: 10_000,
        });
        await p.waitForBot("TesterBot");
      } finally {
        await p.stop();
      }
    }, 30_000);

    test("rateLimits: off takes six posts in a row; rules of one's own refuse the second", async () => {
      const off = await startParley({ world: TESTER_WORLD, inProcess, rateLimits: "off" });
      const own = await startParley({
        world: TESTER_WORLD,
        inProcess,
        rateLimits: { routes: { "POST /channels/{channel_id}/messages": { limit: 1, windowMs: 60_000 } } },
      });
      try {
        const statuses = [];
        for (let i = 0; i < 6; i++) statuses.push((await post(off, `n${i}`)).status);
        expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
        expect((await post(own, "first")).status).toBe(200);
        const refused = await post(own, "second");
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get("x-ratelimit-limit"))).toBe(1);
      } finally {
        await off.stop();
        await own.stop();
      }
    });

    test("startTime: every world the SDK seeds starts at that instant, after a reset too", async () => {
      const p = await startParley({ world: TESTER_WORLD, inProcess, startTime: "2031-02-03T04:05:06.000Z" });
      try {
        const at = (id: string) => new Date(Number(BigInt(id) >> 22n) + 1735689600000).toISOString();
        expect(at(p.world.users.alice.id)).toBe("2031-02-03T04:05:06.000Z");
        await p.reset(TESTER_WORLD);
        expect(at(p.world.users.bob.id)).toBe("2031-02-03T04:05:06.000Z");
        expect(await p.advanceClock(1000)).toBe("2031-02-03T04:05:07.000Z");
      } finally {
        await p.stop();
      }
    });
  });
}

describe("attachParley", () => {
  let server: RunningParley;
  afterAll(() => server?.stop());

  test("to a running server: the same API; a world resets and seeds it; stop() leaves it running", async () => {
    server = await startParley({ inProcess: false });
    await expect(attachParley("http://127.0.0.1:1")).rejects.toThrow(/nothing answers at http:\/\/127\.0\.0\.1:1/);
    const attached = await attachParley(`${server.baseUrl}/`, { world: TESTER_WORLD });
    expect(attached.mode).toBe("attached");
    expect(attached.parley).toBeUndefined();
    await attached.login(createTesterBot().client, "TesterBot");
    await attached.as("alice").say("general", "!ping");
    await attached.waitForMessage("general", (m) => m.content === "pong");
    await attached.stop();
    const health = await fetch(`${server.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    // The server's own view holds what the attached SDK's bot did.
    expect((await server.harness("GET", "/coverage")).applications.TesterBot.events.MESSAGE_CREATE).toBeGreaterThan(0);
  });
});

describe("a server that has ended", () => {
  test("the next call says the server ended and how, not a bare connection error", async () => {
    const server = await startParley({ world: TESTER_WORLD, inProcess: false });
    // What a crash or a kill mid-test leaves: the child gone, the SDK still holding its URL.
    await server.stop();
    const err = await server
      .as("alice")
      .say("general", "hello")
      .catch((e: Error) => e);
    expect((err as Error).message).toMatch(
      /^POST \/users\/alice\/messages: the Parley server at http:\/\/\S+ (was killed by SIGTERM|exited with code \d+)/,
    );
    const attached = await startParley({ inProcess: false });
    const url = attached.baseUrl;
    const other = await attachParley(url, { world: TESTER_WORLD });
    await attached.stop();
    const gone = await other.messages("general").catch((e: Error) => e);
    expect((gone as Error).message).toMatch(
      /^GET \/channels\/\d+\/messages\S*: the Parley server at http:\/\/\S+ did not answer \(.+\): is it still running\?$/,
    );
  });
});

describe("two test runs on one server", () => {
  test("a run whose world another reset says so, instead of 'Unknown channel'; the run that reset it goes on", async () => {
    const server = await startParley({ inProcess: false });
    try {
      const first = await attachParley(server.baseUrl, { world: TESTER_WORLD });
      const second = await attachParley(server.baseUrl, { world: TESTER_WORLD });
      const lost = await first
        .as("alice")
        .say("general", "hello")
        .catch((e: Error) => e);
      expect(lost).toBeInstanceOf(HarnessError);
      expect((lost as Error).message).toMatch(
        /^POST \/users\/alice\/messages: 404 \{"code":10003,"message":"Unknown channel"\}\nThe world this test seeded is gone: something else reset this server or seeded into it \(another test run on it\?\)\./,
      );
      expect(await second.as("alice").say("general", "hello")).toEqual({ id: expect.any(String) });
      // Its own reset makes the world its own again.
      await first.reset(TESTER_WORLD);
      expect(await first.as("alice").say("general", "again")).toEqual({ id: expect.any(String) });
    } finally {
      await server.stop();
    }
  });
});

describe("snapshots and coverage", () => {
  async function run(): Promise<{ snapshot: string; placeholders: string; report: string }> {
    const p = await startParley({ world: TESTER_WORLD, startTime: "2030-06-01T00:00:00.000Z" });
    try {
      await p.login(createTesterBot().client, "TesterBot");
      await p.waitFor(async () => (await p.coverage()).applications.TesterBot?.commands.registered.length > 0);
      const from = await p.cursor();
      await p.as("alice").say("general", "!ping");
      await p.waitForMessage("general", (m) => m.content === "pong");
      await p.as("alice").slash("general", "ping");
      await p.stopBots();
      return {
        snapshot: await p.transcriptSnapshot("TesterBot", { after: from }),
        placeholders: await p.transcriptSnapshot("TesterBot", { after: from, ids: "placeholders", times: false }),
        report: await p.coverageReport(),
      };
    } finally {
      await p.stop();
    }
  }

  test("a normalised transcript is the same on two fresh servers, ids and times included; coverage names what was never used", async () => {
    const [a, b] = [await run(), await run()];
    expect(b.snapshot).toBe(a.snapshot);
    expect(a.snapshot).toMatch(/^2030-06-01T00:00:00\.000Z gateway parley->bot S1 MESSAGE_CREATE s=\d+ \{"id":"\d+"/m);
    expect(a.snapshot).toContain(`rest POST /channels/`);
    expect(a.snapshot).not.toMatch(/"op":1\b|HEARTBEAT|127\.0\.0\.1/);
    expect(a.placeholders).toMatch(/^gateway parley->bot S1 MESSAGE_CREATE s=\d+ \{"id":"<id:1>"/);
    expect(a.report).toContain("TesterBot");
    expect(a.report).toMatch(/commands {4}1 of 6 used; never: \/slow, \/late, \/never, \/menu, user menu Profile/);
    expect(a.report).toContain("POST /interactions/{interaction_id}/{interaction_token}/callback 1 (204: 1)");
  });
});
