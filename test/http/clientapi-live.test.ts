/**
 * The people's live connection (/api/client/v1/live) over real sockets: hello with the
 * session token in the first frame, who hears what, resume without loss, presence for
 * people and bots, interaction states for the person who ran the command.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { client, makeParley, seedBasic } from "../helpers";
import { Gw, I } from "../gateway/client";
import { LiveConn, liveConnections } from "./live-client";
import type { Parley } from "../../src/app";

let p: Parley;
const open: LiveConn[] = [];

function world() {
  p = makeParley();
  const w = seedBasic(p);
  p.listen();
  const id = (f: string) => p.api.flakes.uuid(f)!;
  const u = (name: string) => ({ token: w.users[name].token, id: id(w.users[name].id) });
  return {
    w,
    id,
    alice: u("alice"),
    bob: u("bob"),
    carol: u("carol"),
    general: id(w.guilds.Lab.channels.general),
    lab: id(w.guilds.Lab.id),
  };
}

async function hello(token: string, resume?: { stream: string; seq: number }) {
  const r = await LiveConn.hello(p, token, resume);
  open.push(r.c);
  return r;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  await p?.stop();
});

describe("hello", () => {
  test("the session token in the first frame gets ready; the person is online and the people around them see it", async () => {
    const t = world();
    const { c: a, ready } = await hello(t.alice.token);
    expect(ready).toMatchObject({ op: "ready", seq: 1, resumed: false, user: { id: t.alice.id, presence: "online" } });
    const { ready: rb } = await hello(t.bob.token);
    expect(rb.stream).not.toBe(ready.stream);
    expect((await a.event("presence.updated")).data).toEqual({ user_id: t.bob.id, status: "online" });
    expect((await client(p, "GET", "/users/@me", t.bob.token)).body.presence).toBe("online");
  });

  test("a bad token, or any other first frame, closes with 4001; a frame that is not a JSON object closes with 4002", async () => {
    world();
    const bad = await LiveConn.open(p);
    bad.send({ op: "hello", token: "ps_not-a-token" });
    expect((await bad.closed).code).toBe(4001);
    const other = await LiveConn.open(p);
    other.send({ op: "ping" });
    expect((await other.closed).code).toBe(4001);
    const junk = await LiveConn.open(p);
    junk.send("[1, 2]");
    expect((await junk.closed).code).toBe(4002);
  });

  test("no hello within 10 s closes with 4001; a connection silent for 75 s closes with 4003, pings keep it", async () => {
    const t = world();
    const quiet = await LiveConn.open(p);
    const { c } = await hello(t.alice.token);
    p.clock.advance(10_000);
    expect((await quiet.closed).code).toBe(4001);
    p.clock.advance(60_000);
    await c.sync();
    p.clock.advance(60_000);
    await c.sync();
    expect(c.isClosed).toBe(false);
    p.clock.advance(75_000);
    expect((await c.closed).code).toBe(4003);
  });
});

describe("who hears what", () => {
  test("a server's messages reach its members only; an ephemeral message only its viewer", async () => {
    const t = world();
    const { c: bob } = await hello(t.bob.token);
    const { c: carol } = await hello(t.carol.token);
    const sent = await client(p, "POST", `/channels/${t.general}/messages`, t.alice.token, { content: "hello lab" });
    expect((await bob.event("message.created")).data).toEqual(sent.body);
    const bot = p.core.users.botNamed("EchoBot")!;
    p.core.messages.create({ channelId: t.general, authorId: bot.id, content: "just for alice", ephemeralUserId: t.alice.id });
    const { c: alice } = await hello(t.alice.token);
    p.core.messages.create({ channelId: t.general, authorId: bot.id, content: "just for bob", ephemeralUserId: t.bob.id });
    const eph = await bob.event("message.created", (m) => m.ephemeral);
    expect(eph.data).toMatchObject({ content: "just for bob", ephemeral: true });
    await Promise.all([bob.sync(), carol.sync(), alice.sync()]);
    expect(carol.events().filter((e) => e.startsWith("message."))).toEqual([]);
    expect(alice.events().filter((e) => e.startsWith("message."))).toEqual([]);
  });

  test("reactions carry the count after the change; an edited message's `me` is each viewer's own", async () => {
    const t = world();
    const { c: bob } = await hello(t.bob.token);
    const m = (await client(p, "POST", `/channels/${t.general}/messages`, t.alice.token, { content: "react to me" })).body;
    await client(p, "PUT", `/channels/${t.general}/messages/${m.id}/reactions/%F0%9F%91%8D`, t.bob.token);
    expect((await bob.event("reaction.added")).data).toEqual({
      message_id: m.id,
      channel_id: t.general,
      user_id: t.bob.id,
      emoji: "👍",
      count: 1,
    });
    const { c: alice } = await hello(t.alice.token);
    await client(p, "PATCH", `/channels/${t.general}/messages/${m.id}`, t.alice.token, { content: "edited" });
    expect((await bob.event("message.updated")).data.reactions).toEqual([{ emoji: "👍", count: 1, me: true }]);
    expect((await alice.event("message.updated")).data.reactions).toEqual([{ emoji: "👍", count: 1, me: false }]);
  });

  test("joining a server brings it to the joiner and the member to the others; leaving takes it away", async () => {
    const t = world();
    const { c: carol } = await hello(t.carol.token);
    const { c: bob } = await hello(t.bob.token);
    const invite = (await client(p, "POST", `/channels/${t.general}/invites`, t.alice.token, {})).body;
    await client(p, "POST", `/invites/${invite.code}`, t.carol.token);
    expect((await carol.event("guild.created")).data).toMatchObject({ id: t.lab, name: "Lab" });
    expect((await bob.event("member.added")).data).toMatchObject({ guild_id: t.lab, member: { user: { id: t.carol.id } } });
    // Her connection now follows the server's messages (one publish reaches every member)...
    await client(p, "POST", `/channels/${t.general}/messages`, t.alice.token, { content: "welcome" });
    expect((await carol.event("message.created")).data.content).toBe("welcome");
    await client(p, "DELETE", `/users/@me/guilds/${t.lab}`, t.carol.token);
    expect((await carol.event("guild.deleted")).data).toEqual({ id: t.lab, cause: "left" });
    expect((await bob.event("member.removed")).data).toEqual({ guild_id: t.lab, user_id: t.carol.id });
    // ...and no longer once she has left.
    await client(p, "POST", `/channels/${t.general}/messages`, t.alice.token, { content: "after she left" });
    await bob.event("message.created", (m) => m.content === "after she left");
    await carol.sync();
    expect(carol.frames.filter((f) => f.data?.content === "after she left")).toEqual([]);
  });
});

describe("resume", () => {
  test("a reconnecting client gets every event it missed, in order, then new ones", async () => {
    const t = world();
    const { c: first, ready } = await hello(t.bob.token);
    await client(p, "POST", `/channels/${t.general}/messages`, t.alice.token, { content: "one" });
    await first.event("message.created");
    const seen = first.lastSeq;
    await first.close();
    await liveConnections(p, 0);
    await client(p, "POST", `/channels/${t.general}/messages`, t.alice.token, { content: "two" });
    await client(p, "POST", `/channels/${t.general}/messages`, t.alice.token, { content: "three" });
    const { c: again, ready: r2 } = await hello(t.bob.token, { stream: ready.stream!, seq: seen });
    expect(r2).toMatchObject({ stream: ready.stream, resumed: true });
    const replayed = [await again.next(), await again.next(), await again.next(), await again.next()];
    expect(replayed.map((f) => [f.seq, f.type, f.data.content ?? f.data.status])).toEqual([
      [seen + 1, "presence.updated", "offline"],
      [seen + 2, "message.created", "two"],
      [seen + 3, "message.created", "three"],
      [seen + 4, "presence.updated", "online"],
    ]);
    await client(p, "POST", `/channels/${t.general}/messages`, t.alice.token, { content: "four" });
    expect((await again.event("message.created")).seq).toBe(seen + 5);
  });

  test("an unknown stream starts afresh (resumed false); two connections of one person share one stream", async () => {
    const t = world();
    const { ready: a } = await hello(t.bob.token, { stream: "not-a-stream", seq: 3 });
    expect(a.resumed).toBe(false);
    const { c: second, ready: b } = await hello(t.bob.token);
    expect(b).toMatchObject({ stream: a.stream, seq: a.seq, resumed: false });
    await client(p, "POST", `/channels/${t.general}/messages`, t.alice.token, { content: "both" });
    expect((await second.event("message.created")).seq).toBe(a.seq! + 1);
  });
});

describe("presence", () => {
  test("the last connection closing takes a person offline; a chosen dnd stays through connections", async () => {
    const t = world();
    const { c: alice } = await hello(t.alice.token);
    const { c: b1 } = await hello(t.bob.token);
    const { c: b2 } = await hello(t.bob.token);
    await alice.event("presence.updated", (d) => d.status === "online");
    await b1.close();
    await liveConnections(p, 2);
    await b2.close();
    expect((await alice.event("presence.updated")).data).toEqual({ user_id: t.bob.id, status: "offline" });
    await client(p, "PUT", "/users/@me/presence", t.carol.token, { status: "dnd" });
    const { ready } = await hello(t.carol.token);
    expect(ready.user.presence).toBe("dnd");
  });

  test("a bot is online while it holds a live gateway session, and READY stays its first dispatch", async () => {
    const t = world();
    const { c: alice } = await hello(t.alice.token);
    const bot = p.core.users.botNamed("EchoBot")!;
    const gw = await Gw.open(p);
    const ready = await gw.identify(t.w.applications.EchoBot.token, I.GUILDS | I.GUILD_MESSAGES);
    expect(ready.s).toBe(1);
    expect((await alice.event("presence.updated")).data).toEqual({ user_id: bot.id, status: "online" });
    const members = (await client(p, "GET", `/guilds/${t.lab}/members`, t.alice.token)).body as any[];
    expect(members.find((m) => m.user.id === bot.id).user).toMatchObject({ bot: true, presence: "online" });
    await gw.close();
    expect((await alice.event("presence.updated")).data).toEqual({ user_id: bot.id, status: "offline" });
  });
});

describe("interactions", () => {
  test("the person who ran a command sees it pending, deferred ('thinking') and answered; others do not", async () => {
    const t = world();
    p.gateway.hasLiveSession = () => true;
    const app = t.id(t.w.applications.EchoBot.id);
    p.core.commands.upsert(app, null, { name: "think", description: "think" });
    const { c: bob } = await hello(t.bob.token);
    const { c: alice } = await hello(t.alice.token);
    const ran = (await client(p, "POST", `/channels/${t.general}/interactions`, t.bob.token, { application_id: app, name: "think" })).body;
    expect((await bob.event("interaction.created")).data).toMatchObject({
      id: ran.id,
      application_id: app,
      channel_id: t.general,
      state: "pending",
    });
    const auth = p.core.interactionResponses.authorize(p.core.interactions.tokenFor(ran.id)!, { interactionId: ran.id });
    p.core.interactionResponses.callback(auth, 5, undefined);
    // The "thinking" message comes first, then the state.
    expect((await bob.event("message.created")).data.flags & 128).toBe(128);
    expect((await bob.event("interaction.updated")).data.state).toBe("deferred");
    p.core.interactionResponses.edit(auth, "@original", { content: "done" });
    expect((await bob.event("interaction.updated")).data.state).toBe("responded");
    await alice.sync();
    expect(alice.events().filter((e) => e.startsWith("interaction."))).toEqual([]);
  });
});

test("a harness reset closes every live connection with 4004", async () => {
  const t = world();
  const { c } = await hello(t.alice.token);
  p.reset();
  expect((await c.closed).code).toBe(4004);
});
