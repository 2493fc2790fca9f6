/**
 * Webhook messages go through the one message validator, as a scenario table
 * (test/scenarios.ts): every row a fresh ADMIN_WORLD with a webhook ModBot made in
 * #general ({hook} is its token path), one request by nobody (the token is the key).
 */
import { expect } from "bun:test";
import { ADMIN_WORLD, call } from "../helpers";
import { scenarios, type Scenario, type ScenarioContext } from "../scenarios";
import { SPEC_RATE_LIMITS } from "../../src/config";

/** ModBot makes the webhook; with `message`, the webhook also posts it first ({msg}). */
function withHook(message?: unknown): Scenario["setup"] {
  return async ({ p, w, fill }: ScenarioContext): Promise<Record<string, string>> => {
    const r = await call(p, "POST", fill("/channels/{channel:general}/webhooks"), {
      token: w.applications.ModBot.token,
      body: { name: "Relay" },
    });
    expect(r.status).toBe(200);
    const hook = `/webhooks/${r.body.id}/${r.body.token}`;
    if (message === undefined) return { hook };
    const m = await call(p, "POST", `${hook}?wait=1`, { body: message });
    expect(m.status).toBe(200);
    return { hook, msg: m.body.id as string };
  };
}

/** One past a bound: 400 50035, the message names the path, nothing posted. */
const pastBound = (name: string, body: unknown, path: string): Scenario => ({
  name,
  actor: "anon",
  method: "POST",
  path: "{hook}",
  body,
  status: 400,
  code: 50035,
  contains: [`Invalid Form Body (${path}:`],
  events: { "*": 0 },
  setup: withHook(),
});

const table = { world: ADMIN_WORLD, config: { rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } } };

scenarios(
  "webhook messages use the one message validator",
  [
    {
      name: "content and an embed title at their bounds pass",
      actor: "anon",
      method: "POST",
      path: "{hook}?wait=true",
      body: { content: "x".repeat(2000), embeds: [{ title: "t".repeat(256) }] },
      status: 200,
      events: { "message.created": 1, "*": 0 },
      setup: withHook(),
      after: ({ res }) => expect(res.body.webhook_id).toBeTruthy(),
    },
    pastBound("content one past 2000 is 50035 naming content", { content: "x".repeat(2001) }, "content"),
    pastBound("an embed title one past 256 is 50035 naming embeds[0].title", { embeds: [{ title: "t".repeat(257) }] }, "embeds[0].title"),
    pastBound(
      "a button without custom_id is 50035 naming its path",
      { content: "a", components: [{ type: 1, components: [{ type: 2, style: 1, label: "no id" }] }] },
      "components[0].components[0].custom_id",
    ),
    {
      name: "a username alone is an empty message: 50035",
      actor: "anon",
      method: "POST",
      path: "{hook}",
      body: { username: "only a name" },
      status: 400,
      code: 50035,
      events: { "*": 0 },
      setup: withHook(),
    },
  ],
  table,
);

scenarios(
  "editing a webhook message",
  [
    {
      name: "embeds absent from the edit are kept",
      actor: "anon",
      method: "PATCH",
      path: "{hook}/messages/{msg}",
      body: { content: "v2" },
      status: 200,
      events: { "message.updated": 1, "*": 0 },
      setup: withHook({ content: "v1", embeds: [{ title: "a" }] }),
      after: ({ res }) => expect(res.body).toMatchObject({ content: "v2", embeds: [{ title: "a" }] }),
    },
    {
      name: "embeds present in the edit replace them; the content is kept",
      actor: "anon",
      method: "PATCH",
      path: "{hook}/messages/{msg}",
      body: { embeds: [] },
      status: 200,
      events: { "message.updated": 1, "*": 0 },
      setup: withHook({ content: "v2", embeds: [{ title: "a" }] }),
      after: ({ res }) => expect(res.body).toMatchObject({ content: "v2", embeds: [] }),
    },
    {
      name: "an edit past a bound is 50035 naming embeds[0].color",
      actor: "anon",
      method: "PATCH",
      path: "{hook}/messages/{msg}",
      body: { embeds: [{ color: 0x1000000 }] },
      status: 400,
      code: 50035,
      contains: ["Invalid Form Body (embeds[0].color:"],
      events: { "*": 0 },
      setup: withHook({ content: "v2", embeds: [{ title: "a" }] }),
    },
  ],
  table,
);
