/**
 * A person closes a DM: it leaves their list (and their other browsers' lists) and
 * nothing else changes; the other person keeps it, the history stays. A new message in
 * it from either side, or opening it again, brings it back. A bot's DELETE of a DM still
 * answers the channel (spec: "DM: close").
 */
import { afterEach, expect, test } from "bun:test";
import { call, client, makeParley, refusal, seedBasic } from "../helpers";
import { LiveConn } from "./live-client";
import type { Parley } from "../../src/app";

let p: Parley;
const open: LiveConn[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  await p?.stop();
});

function world() {
  p = makeParley();
  const w = seedBasic(p);
  p.listen();
  const id = (f: string) => p.api.flakes.uuid(f)!;
  const u = (name: string) => ({ token: w.users[name].token, id: id(w.users[name].id) });
  return { w, alice: u("alice"), bob: u("bob"), carol: u("carol") };
}

async function hello(token: string) {
  const r = await LiveConn.hello(p, token);
  open.push(r.c);
  return r.c;
}

const listed = async (token: string) => ((await client(p, "GET", "/users/@me/dms", token)).body as { id: string }[]).map((c) => c.id);

test("closing takes the DM out of one's own list only; the other browser hears dm.closed", async () => {
  const t = world();
  const dm = (await client(p, "POST", "/users/@me/dms", t.alice.token, { recipient_id: t.bob.id })).body;
  p.core.messages.send(t.bob.id, dm.id, { content: "hello alice" });
  const tab = await hello(t.alice.token);

  const r = await client(p, "DELETE", `/channels/${dm.id}`, t.alice.token);
  expect(r.status).toBe(204);
  expect((await tab.event("dm.closed")).data).toEqual({ id: dm.id });
  expect(await listed(t.alice.token)).not.toContain(dm.id);
  expect(await listed(t.bob.token)).toContain(dm.id);
  // Nothing is deleted: the history is there for whoever opens it again.
  const history = await client(p, "GET", `/channels/${dm.id}/messages`, t.alice.token);
  expect(history.status).toBe(200);
  expect(history.body.map((m: { content: string }) => m.content)).toEqual(["hello alice"]);
  // Closing again changes nothing and says nothing more.
  expect((await client(p, "DELETE", `/channels/${dm.id}`, t.alice.token)).status).toBe(204);
  await tab.sync();
  expect(tab.frames.filter((f) => f.type === "dm.closed")).toHaveLength(1);
});

test("a new message from the other side brings it back, before the message itself", async () => {
  const t = world();
  const dm = (await client(p, "POST", "/users/@me/dms", t.alice.token, { recipient_id: t.bob.id })).body;
  await client(p, "DELETE", `/channels/${dm.id}`, t.alice.token);
  const tab = await hello(t.alice.token);

  p.core.messages.send(t.bob.id, dm.id, { content: "are you there?" });
  const back = await tab.event("channel.created");
  expect(back.data).toMatchObject({ id: dm.id, guild_id: null, recipients: [{ id: t.bob.id }] });
  const message = await tab.event("message.created");
  expect(tab.frames.indexOf(back)).toBeLessThan(tab.frames.indexOf(message));
  expect(await listed(t.alice.token)).toContain(dm.id);
});

test("opening it again brings it back for the opener only, and the other keeps their choice", async () => {
  const t = world();
  const dm = (await client(p, "POST", "/users/@me/dms", t.alice.token, { recipient_id: t.bob.id })).body;
  await client(p, "DELETE", `/channels/${dm.id}`, t.alice.token);
  await client(p, "DELETE", `/channels/${dm.id}`, t.bob.token);
  const bobTab = await hello(t.bob.token);

  const again = await client(p, "POST", "/users/@me/dms", t.alice.token, { recipient_id: t.bob.id });
  expect(again.status).toBe(200);
  expect(again.body.id).toBe(dm.id);
  expect(await listed(t.alice.token)).toContain(dm.id);
  expect(await listed(t.bob.token)).not.toContain(dm.id);
  await bobTab.sync();
  expect(bobTab.frames.some((f) => f.type === "channel.created")).toBe(false);
});

test("someone else's DM cannot be closed: 404, and its people keep it", async () => {
  const t = world();
  const dm = (await client(p, "POST", "/users/@me/dms", t.alice.token, { recipient_id: t.bob.id })).body;
  expect(refusal(await client(p, "DELETE", `/channels/${dm.id}`, t.carol.token))).toEqual([404, 10003]);
  expect(await listed(t.alice.token)).toContain(dm.id);
  expect(await listed(t.bob.token)).toContain(dm.id);
});

test("a bot closing its DM gets the channel back, as the reference answers", async () => {
  const t = world();
  const bot = t.w.applications.EchoBot;
  const opened = await call(p, "POST", "/users/@me/channels", { token: bot.token, body: { recipient_id: t.w.users.alice.id } });
  expect(opened.status).toBe(200);
  const closed = await call(p, "DELETE", `/channels/${opened.body.id}`, { token: bot.token });
  expect(closed.status).toBe(200);
  expect(closed.body).toMatchObject({ id: opened.body.id, type: 1 });
  // The person's list is theirs: a bot closing its side changes nothing there.
  expect(await listed(t.alice.token)).toContain(p.api.flakes.uuid(opened.body.id)!);
});
