import { describe, expect, test, beforeEach } from "bun:test";
import { call, interactionPayload, invoke, liveBot, makeParley, seedBasic, refusal } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";
import { SPEC_RATE_LIMITS } from "../../src/config";

let p: Parley;
let w: SeedAnswer;
let app: string;
let general: string;
let events: { type: string }[];
let panel: any; // the bot's message carrying the components

const ROWS = [
  {
    type: 1,
    components: [
      { type: 2, style: 1, custom_id: "yes", label: "Yes" },
      { type: 2, style: 4, custom_id: "off", label: "Off", disabled: true },
      { type: 2, style: 5, url: "https://example.com", label: "Docs" },
    ],
  },
  {
    type: 1,
    components: [
      {
        type: 3,
        custom_id: "colour",
        min_values: 1,
        max_values: 2,
        options: [
          { label: "Red", value: "r" },
          { label: "Blue", value: "b" },
          { label: "Green", value: "g" },
        ],
      },
    ],
  },
  { type: 1, components: [{ type: 5, custom_id: "people" }] },
];

const count = (type: string) => events.filter((e) => e.type === type).length;
const state = async (id: string) => (await call(p, "GET", `/api/harness/v1/interactions/${id}`)).body;

beforeEach(async () => {
  p = makeParley({ rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } });
  w = seedBasic(p);
  const token = w.applications.EchoBot.token;
  app = w.applications.EchoBot.id;
  general = w.guilds.Lab.channels.general;
  await call(p, "POST", `/applications/${app}/commands`, { token, body: { name: "panel", description: "Show the panel" } });
  liveBot(p);
  // The bot answers /panel with the components (the way a real bot puts them on a message).
  const r = await invoke(p, "alice", { channel_id: general, application_id: app, name: "panel" });
  const d = await interactionPayload(p, r.body.id);
  const cb = await call(p, "POST", `/interactions/${d.id}/${d.token}/callback?with_response=true`, {
    body: { type: 4, data: { content: "Pick", components: ROWS } },
  });
  panel = cb.body.resource.message;
  events = liveBot(p).events;
});

async function click(custom_id: string, values?: string[], user = "bob") {
  const r = await invoke(p, user, { channel_id: general, message_id: panel.id, custom_id, ...(values ? { values } : {}) });
  return r;
}

async function clicked(custom_id: string, values?: string[]) {
  const r = await click(custom_id, values);
  expect(r.status).toBe(200);
  expect(r.body.delivered).toBe(true);
  const payload = await interactionPayload(p, r.body.id);
  return { id: r.body.id as string, token: payload.token as string, payload };
}

describe("component interactions", () => {
  test("a button click: type 3 with custom_id, component_type and the full message", async () => {
    const { payload: d } = await clicked("yes");
    expect(d.type).toBe(3);
    expect(d.data).toEqual({ custom_id: "yes", component_type: 2 });
    expect(d.message.id).toBe(panel.id);
    expect(d.message.content).toBe("Pick");
    expect(d.message.components).toMatchObject(ROWS); // as stored: normalised by the one message validator
    expect(d.member.user.id).toBe(w.users.bob.id);
    expect(d.channel_id).toBe(general);
    expect(d.channel.id).toBe(general);
    expect(d.entitlements).toEqual([]);
    expect(count("interaction.created")).toBe(1);
  });

  test("a select: values always present and checked against the options and min/max", async () => {
    const { payload } = await clicked("colour", ["r", "b"]);
    expect(payload.data).toEqual({ custom_id: "colour", component_type: 3, values: ["r", "b"] });
    for (const values of [[], ["r", "b", "g"], ["x"], undefined]) {
      const r = await click("colour", values);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
    }
    expect(count("interaction.created")).toBe(1);
  });

  test("types 5 to 8, disabled buttons, link buttons and unknown custom ids never produce an interaction", async () => {
    for (const id of ["people", "off", "nope"]) {
      const r = await click(id);
      expect([id, r.status, r.body.code]).toEqual([id, 400, 50035]);
    }
    expect(refusal(await click("yes", ["a"]))).toEqual([400, 50035]);
    expect(count("interaction.created")).toBe(0);
  });

  test("a person who cannot see the message cannot click it", async () => {
    const r = await click("yes", undefined, "carol");
    expect(refusal(r)).toEqual([404, 10003]);
  });

  test("type 7 edits the message the component sits on; responded", async () => {
    const i = await clicked("yes");
    const r = await call(p, "POST", `/interactions/${i.id}/${i.token}/callback?with_response=true`, {
      body: { type: 7, data: { content: "Thanks!", components: [] } },
    });
    expect(r.status).toBe(200);
    expect(r.body.resource.type).toBe(7);
    expect(r.body.resource.message).toMatchObject({ id: panel.id, content: "Thanks!", components: [] });
    expect(r.body.interaction.response_message_id).toBe(panel.id);
    const s = await state(i.id);
    expect(s.state).toBe("responded");
    expect(s.response.id).toBe(panel.id);
    expect(count("message.updated")).toBe(1);
    expect(count("message.created")).toBe(0);
    expect(
      (await call(p, "POST", `/interactions/${i.id}/${i.token}/callback`, { body: { type: 7, data: { content: "again" } } })).body.code,
    ).toBe(40060);
  });

  test("type 6 acknowledges; PATCH @original then edits the component's message", async () => {
    const i = await clicked("yes");
    expect((await call(p, "POST", `/interactions/${i.id}/${i.token}/callback`, { body: { type: 6 } })).status).toBe(204);
    expect((await state(i.id)).state).toBe("deferred");
    expect(count("message.updated") + count("message.created")).toBe(0);
    const r = await call(p, "PATCH", `/webhooks/${app}/${i.token}/messages/%40original`, { body: { content: "Edited later" } });
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(panel.id);
    expect(r.body.content).toBe("Edited later");
    expect(r.body.components).toHaveLength(3);
    expect((await state(i.id)).state).toBe("responded");
    expect(count("message.updated")).toBe(1);
  });

  test("type 4 on a component: a new message with interaction_metadata.interacted_message_id", async () => {
    const i = await clicked("yes");
    await call(p, "POST", `/interactions/${i.id}/${i.token}/callback`, { body: { type: 4, data: { content: "Noted", flags: 64 } } });
    const s = await state(i.id);
    expect(s.response.content).toBe("Noted");
    expect(s.response.flags).toBe(64);
    expect(s.response.interaction_metadata).toMatchObject({
      id: i.id,
      type: 3,
      interacted_message_id: panel.id,
      user: { id: w.users.bob.id },
    });
    expect(count("message.created")).toBe(1);
  });

  test("type 5 on a component: a loading message, filled by a follow-up", async () => {
    const i = await clicked("colour", ["g"]);
    await call(p, "POST", `/interactions/${i.id}/${i.token}/callback`, { body: { type: 5 } });
    const loading = (await state(i.id)).response;
    expect(loading.flags & 128).toBe(128);
    const f = await call(p, "POST", `/webhooks/${app}/${i.token}`, { body: { content: "green it is" } });
    expect(f.body.id).toBe(loading.id);
    expect(f.body.flags & 128).toBe(0);
  });
});
