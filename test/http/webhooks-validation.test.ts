import { beforeEach, expect, test } from "bun:test";
import { call, makeUnlimitedParley, seedAdmin } from "../helpers";
import type { Parley } from "../../src/app";

let p: Parley;
let hook: string;

beforeEach(async () => {
  p = makeUnlimitedParley();
  const w = seedAdmin(p);
  const r = await call(p, "POST", `/channels/${w.guilds.Lab.channels.general}/webhooks`, { token: w.applications.ModBot.token, body: { name: "Relay" } });
  expect(r.status).toBe(200);
  hook = `/webhooks/${r.body.id}/${r.body.token}`;
});

test("webhook messages use the one message validator: limits at the bound pass, one past is 50035 with the path", async () => {
  const ok = await call(p, "POST", `${hook}?wait=true`, { body: { content: "x".repeat(2000), embeds: [{ title: "t".repeat(256) }] } });
  expect(ok.status).toBe(200);
  expect(ok.body.webhook_id).toBeTruthy();
  for (const [body, path] of [
    [{ content: "x".repeat(2001) }, "content"],
    [{ embeds: [{ title: "t".repeat(257) }] }, "embeds[0].title"],
    [{ content: "a", components: [{ type: 1, components: [{ type: 2, style: 1, label: "no id" }] }] }, "components[0].components[0].custom_id"],
  ] as const) {
    const r = await call(p, "POST", hook, { body });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(50035);
    expect(r.body.message).toContain(path);
  }
  const empty = await call(p, "POST", hook, { body: { username: "only a name" } });
  expect([empty.status, empty.body.code]).toEqual([400, 50035]);
});

test("editing a webhook message replaces embeds when present and keeps them when absent", async () => {
  const m = await call(p, "POST", `${hook}?wait=1`, { body: { content: "v1", embeds: [{ title: "a" }] } });
  const e1 = await call(p, "PATCH", `${hook}/messages/${m.body.id}`, { body: { content: "v2" } });
  expect(e1.body).toMatchObject({ content: "v2", embeds: [{ title: "a" }] });
  const e2 = await call(p, "PATCH", `${hook}/messages/${m.body.id}`, { body: { embeds: [] } });
  expect(e2.body).toMatchObject({ content: "v2", embeds: [] });
  const bad = await call(p, "PATCH", `${hook}/messages/${m.body.id}`, { body: { embeds: [{ color: 0x1000000 }] } });
  expect([bad.status, bad.body.code]).toEqual([400, 50035]);
  expect(bad.body.message).toContain("embeds[0].color");
});
