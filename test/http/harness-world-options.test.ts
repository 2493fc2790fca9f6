/**
 * A test world's options (docs/harness.md "World options"), each a departure from the
 * spec that a test asks for, test mode only and off by default:
 * - interaction_deadline: the reference's 3-second first-response rule (reference-gaps
 *   5.1): an interaction still pending 3 s after it fired expires (10062);
 * - reference_dms: a person's DM to a bot carries its text, as on the reference, so a
 *   bot's DM commands can be tested (spec 1.6 says a bot sees only the envelope).
 */
import { beforeEach, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { BASIC_WORLD, call, harness, interactionPayload, invoke, liveBot, makeParley, recordEvents, refusal } from "../helpers";
import { SPEC_RATE_LIMITS, testConfig } from "../../src/config";
import { createParley } from "../../src/app";

let p: Parley;

beforeEach(() => {
  p = makeParley({ rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } });
});

const seed = async (options: Record<string, unknown> = {}) => {
  const r = await harness(p, "POST", "/seed", { ...structuredClone(BASIC_WORLD), ...options });
  expect(r.status).toBe(200);
  return r.body;
};

describe("interaction_deadline", () => {
  async function slash(w: any) {
    const token = w.applications.EchoBot.token;
    await call(p, "PUT", `/applications/${w.applications.EchoBot.id}/commands`, { token, body: [{ name: "ping", description: "Ping" }] });
    liveBot(p);
    const r = await invoke(p, "alice", {
      channel_id: w.guilds.Lab.channels.general,
      application_id: w.applications.EchoBot.id,
      name: "ping",
    });
    const payload = await interactionPayload(p, r.body.id);
    const answer = () =>
      call(p, "POST", `/interactions/${r.body.id}/${payload.token}/callback`, { body: { type: 4, data: { content: "pong" } } });
    const state = async () => (await harness(p, "GET", `/interactions/${r.body.id}`)).body.state;
    return { answer, state };
  }

  test("on: a first response after 3 s is 10062 and the interaction is expired; within 3 s it is taken", async () => {
    const w = await seed({ start_time: "2030-01-01T00:00:00.000Z", interaction_deadline: true });
    const late = await slash(w);
    p.clock.advance(2999);
    expect(await late.state()).toBe("pending");
    p.clock.advance(1);
    expect(await late.state()).toBe("expired");
    expect(refusal(await late.answer())).toEqual([404, 10062]);
    const timely = await slash(w);
    p.clock.advance(2500);
    expect((await timely.answer()).status).toBe(204);
    // Answered in time, the token then lives its 15 minutes for follow-ups.
    p.clock.advance(60_000);
    expect(await timely.state()).toBe("responded");
  });

  test("off by default (the spec: 15 minutes), and off again after a reset", async () => {
    const w = await seed({ start_time: "2030-01-01T00:00:00.000Z" });
    const slow = await slash(w);
    p.clock.advance(60_000);
    expect((await slow.answer()).status).toBe(204);
    await seed({ interaction_deadline: true, users: [{ name: "dora" }], guilds: [], applications: [] });
    expect((await harness(p, "POST", "/reset")).status).toBe(204);
    const again = await slash(await seed({ start_time: "2030-01-01T00:00:00.000Z" }));
    p.clock.advance(10_000);
    expect(await again.state()).toBe("pending");
  });
});

describe("reference_dms", () => {
  const dmBot = (content: string) => harness(p, "POST", "/users/alice/dms", { recipient_id: "EchoBot", content });

  test("on: a person's DM to a bot carries its text, to the bot's gateway and REST reads; the bot's answer reads back", async () => {
    const w = await seed({ reference_dms: true });
    const events = recordEvents(p);
    const sent = await dmBot("!help");
    expect(sent.status).toBe(200);
    const token = w.applications.EchoBot.token;
    const read = await call(p, "GET", `/channels/${sent.body.channel_id}/messages`, { token });
    expect(read.body[0]).toMatchObject({ id: sent.body.id, content: "!help", service_e2e_encrypted: false });
    expect(events.count("message.created")).toBe(1);
    const answer = await call(p, "POST", `/channels/${sent.body.channel_id}/messages`, { token, body: { content: "here is help" } });
    expect(answer.status).toBe(200);
    const seen = await harness(p, "GET", `/channels/${sent.body.channel_id}/messages?as=alice`);
    expect(seen.body.map((m: any) => m.content)).toEqual(["here is help", "!help"]);
    // A later message in the same DM (say) and an edit keep the text too.
    const more = await harness(p, "POST", "/users/alice/messages", { channel_id: sent.body.channel_id, content: "!help again" });
    expect((await harness(p, "PATCH", `/users/alice/messages/${more.body.id}`, { content: "!help edited" })).status).toBe(204);
    expect((await call(p, "GET", `/channels/${sent.body.channel_id}/messages`, { token })).body[0].content).toBe("!help edited");
  });

  test("DMs between people stay end-to-end encrypted in such a world", async () => {
    await seed({ reference_dms: true });
    const sent = await harness(p, "POST", "/users/alice/dms", { recipient_id: "bob", content: "just us" });
    const rows = p.store.db.query("SELECT content, ciphertext FROM messages").all() as { content: string; ciphertext: string | null }[];
    expect(rows).toEqual([{ content: "", ciphertext: expect.any(String) }]);
    expect((await harness(p, "GET", `/channels/${sent.body.channel_id}/messages?as=bob`)).body[0].content).toBe("just us");
  });

  test("off by default: the bot sees the envelope (spec 1.6)", async () => {
    const w = await seed();
    const sent = await dmBot("!help");
    const read = await call(p, "GET", `/channels/${sent.body.channel_id}/messages`, { token: w.applications.EchoBot.token });
    expect(read.body[0]).toMatchObject({ content: "", service_e2e_encrypted: true });
  });
});

test("outside test mode the options are refused whole, naming the field", () => {
  const plain = createParley(testConfig({ harness: false }));
  try {
    for (const option of ["interaction_deadline", "reference_dms"]) {
      let caught: any;
      try {
        plain.seed({ users: [{ name: "erin" }], [option]: true });
      } catch (e) {
        caught = e;
      }
      expect(caught?.issues?.[0]?.path).toBe(option);
      expect(plain.core.users.byUsername("erin")).toBeNull();
    }
  } finally {
    void plain.stop();
  }
});

test("a non-boolean option is 400 50035", async () => {
  const r = await harness(p, "POST", "/seed", { reference_dms: "yes" });
  expect(refusal(r)).toEqual([400, 50035]);
});
