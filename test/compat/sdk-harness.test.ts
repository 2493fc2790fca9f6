/**
 * The test SDK (parley/testing) against a real server on a free port, in-process and
 * as a child process (`parley serve --harness`), without a bot: acting as people,
 * reading channels, the clock, rotation and reset.
 */
import { describe, expect, test, afterAll, beforeAll } from "bun:test";
import { startParley, HarnessError, type RunningParley } from "parley/testing";
import { BASIC_WORLD } from "../helpers";

for (const inProcess of [true, false]) {
  describe(`startParley({ inProcess: ${inProcess} })`, () => {
    let parley: RunningParley;
    beforeAll(async () => {
      parley = await startParley({ world: structuredClone(BASIC_WORLD), inProcess });
    });
    afterAll(async () => {
      await parley.stop();
    });

    test("addresses and the seeded world", async () => {
      expect(parley.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(parley.apiBase).toBe(`${parley.baseUrl}/api`);
      expect(parley.gatewayUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/gateway$/);
      expect(Object.keys(parley.world.users).sort()).toEqual(["alice", "bob", "carol"]);
      expect(parley.channelId("general")).toBe(parley.world.guilds.Lab.channels.general);
      expect(parley.channelId("Lab/staff")).toBe(parley.world.guilds.Lab.channels.staff);
      expect(() => parley.channelId("nowhere")).toThrow();
      // the seeded token works on the bot API
      const me = await fetch(`${parley.restBase}/users/@me`, { headers: { Authorization: `Bot ${parley.tokenOf("EchoBot")}` } });
      expect(((await me.json()) as any).id).toBe(parley.world.applications.EchoBot.bot_user_id);
      expect(parley.parley === undefined).toBe(!inProcess);
    });

    test("people say, react and DM; messages and waitForMessage read them back", async () => {
      const { id } = await parley.as("bob").say("general", "hello from the SDK");
      await parley.as("alice").react("general", id, "🎉");
      const seen = await parley.waitForMessage("general", (m) => m.id === id, { as: "alice" });
      expect(seen.content).toBe("hello from the SDK");
      expect((seen.reactions as any[])[0].emoji.name).toBe("🎉");
      await parley.as("alice").unreact("general", id, "🎉");
      expect((await parley.messages("general", { as: "alice", limit: 1 }))[0].reactions).toBeUndefined();
      const dm = await parley.as("alice").dm("bob", "a secret");
      const inDm = await parley.messages(dm.channel_id, { as: "bob" });
      expect(inDm[0]).toMatchObject({ id: dm.id, content: "a secret", service_e2e_encrypted: true });
      // bob's harness device existed before alice's message (the harness made it), and stays one.
      const bobDevice = await parley.as("bob").device();
      expect(bobDevice.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await parley.as("bob").device()).toEqual(bobDevice);
      const toBot = await parley.as("alice").dm("EchoBot", "hi bot");
      expect((await parley.messages(toBot.channel_id, { as: "EchoBot" }))[0].content).toBe("");
    });

    test("refusals surface as HarnessError with the spec's body", async () => {
      const err = await parley
        .as("bob")
        .say("staff", "no")
        .catch((e) => e);
      expect(err).toBeInstanceOf(HarnessError);
      expect(err.status).toBe(403);
      expect(err.body).toEqual({ code: 50001, message: expect.any(String) });
      await expect(parley.as("nobody").say("general", "x")).rejects.toMatchObject({ status: 404, body: { code: 10003 } });
    });

    test("waitFor times out when nothing matches", async () => {
      await expect(parley.waitFor(() => false, { timeoutMs: 50 })).rejects.toThrow(/within 50 ms/);
      expect(await parley.waitFor(async () => 42)).toBe(42);
    });

    test("sessions(app) lists the bot's gateway sessions, as the Python SDK's sessions() does", async () => {
      expect(await parley.sessions("EchoBot")).toEqual([]);
      const ws = new WebSocket(`${parley.gatewayUrl}?v=10&encoding=json`);
      ws.onmessage = (m) => {
        if (JSON.parse(String(m.data)).op === 10)
          ws.send(JSON.stringify({ op: 2, d: { token: parley.tokenOf("EchoBot"), intents: 1, properties: {} } }));
      };
      try {
        await parley.waitForBot("EchoBot");
        const [s] = await parley.sessions(parley.world.applications.EchoBot.id);
        expect(s).toMatchObject({ session_id: expect.any(String), intents: 1, connected: true });
      } finally {
        ws.close();
      }
    });

    test("clock, rotate, reset and seed again", async () => {
      const now = await parley.setClock("2031-05-01T00:00:00.000Z");
      expect(now).toBe("2031-05-01T00:00:00.000Z");
      expect(await parley.advanceClock(1500)).toBe("2031-05-01T00:00:01.500Z");
      const old = parley.tokenOf("EchoBot");
      const fresh = await parley.rotate("EchoBot");
      expect(parley.tokenOf("EchoBot")).toBe(fresh);
      const refused = await fetch(`${parley.restBase}/users/@me`, { headers: { Authorization: `Bot ${old}` } });
      expect(refused.status).toBe(401);
      expect((await refused.json()).code).toBe(0);
      await parley.reset();
      expect(parley.world.users).toEqual({});
      const w = await parley.seed({ users: [{ name: "zed" }], guilds: [{ name: "Zoo", owner: "zed" }] });
      expect(parley.channelId("general")).toBe(w.guilds.Zoo.channels.general);
      await parley.as("zed").say("general", "fresh world");
      expect((await parley.messages("general"))[0].content).toBe("fresh world");
    });
  });
}

test("useTimers refuses the default server in this process, which fake timers would stop; a child process takes them", async () => {
  const timers = { advanceTimersByTime() {} };
  const here = await startParley();
  const apart = await startParley({ timers });
  try {
    expect(here.mode).toBe("in-process");
    expect(() => here.useTimers(timers)).toThrow(/start it with startParley\(\{ timers \}\)/);
    expect(apart.mode).toBe("child-process");
    apart.useTimers(null);
    expect(() => apart.useTimers(timers)).not.toThrow();
  } finally {
    await Promise.all([here.stop(), apart.stop()]);
  }
});

test("a bad world stops the server and rejects", async () => {
  await expect(startParley({ world: { users: [{ name: "x" }] } })).rejects.toMatchObject({ status: 400, body: { code: 50035 } });
});
