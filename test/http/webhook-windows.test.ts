/**
 * The rate-limit window of a webhook-token route is its id and token (reference-gaps 7.1),
 * not its id alone: a webhook's id is public (every message it posts carries it), and an
 * interaction follow-up's path names the application, which all of a bot's interactions
 * share. Keyed by the id alone, anyone could spend a webhook's window with wrong tokens,
 * and a bot answering six interactions at once met a 429 no library could foresee.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { call, interactionPayload, invoke, liveBot, makeParley, refusal, seedAdmin, seedBasic } from "../helpers";
import type { Parley } from "../../src/app";

let p: Parley;
beforeEach(() => {
  p = makeParley();
  p.clock.set(Date.parse("2026-03-01T00:00:00Z"));
});

describe("webhook-token routes count per id and token", () => {
  test("wrong tokens spend their own windows, never the webhook's", async () => {
    const w = seedAdmin(p);
    const created = await call(p, "POST", `/channels/${w.guilds.Lab.channels.general}/webhooks`, {
      token: w.applications.ModBot.token,
      body: { name: "Alerts" },
    });
    const h = created.body as { id: string; token: string };
    for (let i = 0; i < 5; i++)
      expect(refusal(await call(p, "POST", `/webhooks/${h.id}/wrong`, { body: { content: "x" } }))).toEqual([401, 0]);
    // The same wrong token again is over its own limit...
    expect(refusal(await call(p, "POST", `/webhooks/${h.id}/wrong`, { body: { content: "x" } }))).toEqual([429, 0]);
    // ...and the webhook's own token still has all five.
    for (let i = 0; i < 5; i++)
      expect((await call(p, "POST", `/webhooks/${h.id}/${h.token}`, { body: { content: `m${i}` } })).status).toBe(204);
    expect(refusal(await call(p, "POST", `/webhooks/${h.id}/${h.token}`, { body: { content: "sixth" } }))).toEqual([429, 0]);
  });

  test("follow-ups of different interactions of one bot have a window each", async () => {
    const w = seedBasic(p);
    const app = w.applications.EchoBot.id;
    const channel = w.guilds.Lab.channels.general;
    await call(p, "PUT", `/applications/${app}/commands`, {
      token: w.applications.EchoBot.token,
      body: [{ name: "ping", description: "Ping" }],
    });
    liveBot(p);
    const tokens: string[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await invoke(p, "alice", { channel_id: channel, application_id: app, name: "ping" });
      const { id, token } = await interactionPayload(p, r.body.id);
      expect((await call(p, "POST", `/interactions/${id}/${token}/callback`, { body: { type: 5 } })).status).toBe(204);
      tokens.push(token);
    }
    for (const [i, token] of tokens.entries())
      expect((await call(p, "POST", `/webhooks/${app}/${token}`, { body: { content: `answer ${i}` } })).status).toBe(200);
  });
});
