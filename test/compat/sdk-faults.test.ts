/**
 * The test SDK's faults and transcripts (parley/testing): every fault kind through its
 * wrapper, and a timed-out wait that shows what the bot under test did.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startParley, type RunningParley } from "parley/testing";
import { BASIC_WORLD } from "../helpers";

let parley: RunningParley;

beforeAll(async () => {
  parley = await startParley({ world: structuredClone(BASIC_WORLD), bot: "EchoBot" });
});

afterAll(async () => {
  await parley.stop();
});

const post = (content: string) =>
  fetch(`${parley.restBase}/channels/${parley.channelId("general")}/messages`, {
    method: "POST",
    headers: { Authorization: `Bot ${parley.tokenOf("EchoBot")}`, "Content-Type": "application/json" },
    body: JSON.stringify({ content }),
  });

test("faults.rest and faults.latency arm, list, answer and disarm", async () => {
  const { id } = await parley.faults.rest({
    route: "/channels/{channel_id}/messages",
    method: "POST",
    status: 429,
    retryAfter: 0.25,
    app: "EchoBot",
  });
  await parley.faults.latency({ route: "/users/@me", ms: 5 });
  expect((await parley.faults.list()).map((f) => [f.kind, f.remaining])).toEqual([
    ["rest", 1],
    ["latency", null],
  ]);
  const limited = await post("too soon");
  expect(limited.status).toBe(429);
  expect(await limited.json()).toEqual({ message: "You are being rate limited.", retry_after: 0.25, global: false, code: 0 });
  expect((await parley.faults.list()).map((f) => f.id)).not.toContain(id);
  for (const f of await parley.faults.list()) await parley.faults.delete(f.id);
  expect(await parley.faults.list()).toEqual([]);
  expect((await post("now")).status).toBe(200);
});

test("gateway faults by application name: close, invalid session, dropped ACKs", async () => {
  expect(await parley.faults.gatewayClose("EchoBot")).toEqual({ id: expect.any(String) });
  expect(await parley.faults.gatewayClose("EchoBot", 1000)).toEqual({ id: expect.any(String) });
  expect(await parley.faults.invalidSession("EchoBot")).toEqual({ id: expect.any(String) });
  await parley.faults.dropHeartbeatAcks("EchoBot", 2);
  expect(await parley.faults.list()).toEqual([
    expect.objectContaining({ kind: "heartbeat_ack", application_id: parley.world.applications.EchoBot.id, drop: 2, remaining: 2 }),
  ]);
  await expect(parley.faults.gatewayClose("EchoBot", 2)).rejects.toMatchObject({ status: 400, body: { code: 50035 } });
  await parley.reset();
  expect(await parley.faults.list()).toEqual([]);
  await parley.seed(structuredClone(BASIC_WORLD));
});

test("transcript and transcriptText show the bot's requests; a timed-out wait prints the transcript", async () => {
  await post("for the transcript");
  const t = await parley.transcript("EchoBot");
  expect(t.entries.at(-1)).toMatchObject({
    kind: "rest",
    method: "POST",
    route: "/channels/{channel_id}/messages",
    status: 200,
    request: { content: "for the transcript" },
  });
  expect((await parley.transcript("EchoBot", { after: t.cursor })).entries).toEqual([]);
  expect(await parley.transcriptText("EchoBot")).toContain('request {"content":"for the transcript"}');
  const err = await parley.waitForMessage("general", (m) => m.content === "pong", { timeoutMs: 50 }).catch((e) => e);
  expect(err.message).toMatch(
    /^waitForMessage: nothing matched within 50 ms; the newest in 'general' \(of 1\):\n  EchoBot: "for the transcript"\n\nTranscript of EchoBot \(1 entries\):\n\S+ rest +POST \/channels\/\d+\/messages -> 200/,
  );
  const bot = await parley.waitForBot("EchoBot", { timeoutMs: 50 }).catch((e) => e);
  expect(bot.message).toContain("Transcript of EchoBot");
});
