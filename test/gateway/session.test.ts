/**
 * The session state machine of spec 3.2 and the ops of 6.1, over a real socket. Time
 * is the virtual clock: deadlines are reached with p.clock.advance, never by sleeping.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { makeParley, call } from "../helpers";
import { Gw, I, ALL_GRANT, PLAIN_GRANT, seedGatewayWorld, type World } from "./client";

let p: Parley;
let W: World;
let allToken: string;
let plainToken: string;
const open: Gw[] = [];

async function connect(url?: string): Promise<Gw> {
  const g = await Gw.open(p, url);
  open.push(g);
  return g;
}

function say(content = "hello", channel = W.channel("Lab", "general"), author = W.person("bob")) {
  return p.core.messages.create({ channelId: channel, authorId: author, content });
}

beforeEach(() => {
  p = makeParley();
  W = seedGatewayWorld(p);
  allToken = W.w.applications.AllBot.token;
  plainToken = W.w.applications.PlainBot.token;
  p.listen();
  p.clock.advance(0); // virtual time from here on: only advance() moves deadlines
});

afterEach(async () => {
  for (const g of open.splice(0)) await g.close();
  await p.stop();
});

describe("connection and HELLO", () => {
  test("HELLO (op 10) arrives at once with heartbeat_interval 41250", async () => {
    const g = await connect();
    expect(g.frames[0]).toEqual({ op: 10, d: { heartbeat_interval: 41250 }, s: null, t: null });
  });

  test("query parameters are accepted and ignored", async () => {
    const g = await connect(`${p.api.urls.gateway}?v=10&encoding=json&compress=zlib-stream`);
    const ready = await g.identify(allToken, I.GUILDS);
    expect(ready.s).toBe(1);
  });

  test("GET /gateway and /gateway/bot answer the socket's address", async () => {
    const a = await call(p, "GET", "/gateway");
    expect(a.body.url).toBe(p.api.urls.gateway);
    const b = await call(p, "GET", "/gateway/bot", { token: allToken });
    expect(b.body.url).toBe(p.api.urls.gateway);
  });
});

describe("awaiting the first frame", () => {
  test("no IDENTIFY within 30 s: plain close, no 4xxx and no op 9", async () => {
    const g = await connect();
    p.clock.advance(29_999);
    await g.sync(); // a heartbeat is not an IDENTIFY, and is answered
    expect(g.isClosed).toBe(false);
    p.clock.advance(1);
    const { code } = await g.closed;
    expect(code).toBe(1000);
    expect(g.frames.some((f) => f.op === 9)).toBe(false);
  });

  test("valid IDENTIFY: READY with s 1 and the fields of 6.1, then one GUILD_CREATE per guild", async () => {
    const g = await connect();
    const ready = await g.identify(allToken, I.GUILDS | I.GUILD_MESSAGES);
    expect(ready.s).toBe(1);
    expect(ready.d.v).toBe(10);
    expect(ready.d.user.id).toBe(W.w.applications.AllBot.bot_user_id);
    expect(ready.d.user.bot).toBe(true);
    expect(ready.d.guilds).toEqual([{ id: W.w.guilds.Lab.id, unavailable: true }]);
    expect(ready.d.session_id).toMatch(/^[0-9a-f]{32}$/);
    expect(ready.d.resume_gateway_url).toBe(p.api.urls.gateway);
    expect(ready.d.application).toEqual({ id: W.w.applications.AllBot.id, flags: expect.any(Number) });
    expect(ready.d.shard).toEqual([0, 1]);
    const gc = await g.dispatch("GUILD_CREATE");
    expect(gc.s).toBe(2);
    expect(gc.d.id).toBe(W.w.guilds.Lab.id);
    expect(gc.d.channels.map((c: any) => c.name).sort()).toEqual(["general", "staff"]);
    expect(gc.d.roles.some((r: any) => r.id === W.w.guilds.Lab.id)).toBe(true);
    expect(gc.d.members.some((m: any) => m.user.id === W.w.applications.AllBot.bot_user_id)).toBe(true);
    expect(gc.d.presences).toEqual([]); // no GUILD_PRESENCES asked for
    // Listed in READY as unavailable, so this one says it became available (discord.py
    // takes `unavailable: false` for available and its absence for a join).
    expect(gc.d.unavailable).toBe(false);
    await g.sync();
    expect(g.dispatches().length).toBe(2);
  });

  test("GUILD_CREATE carries presences only with GUILD_PRESENCES", async () => {
    p.core.users.setPresence(W.person("bob"), "online");
    const g = await connect();
    await g.identify(allToken, I.GUILDS | I.GUILD_PRESENCES);
    const gc = await g.dispatch("GUILD_CREATE");
    expect(gc.d.presences).toEqual([expect.objectContaining({ user: { id: W.w.users.bob.id }, status: "online" })]);
  });

  test("without GUILDS nothing follows READY", async () => {
    const g = await connect();
    await g.identify(allToken, I.GUILD_MESSAGES);
    await g.sync();
    expect(g.dispatches().map((f) => f.t)).toEqual(["READY"]);
  });

  test("intents beyond the token's grant: close 4014 before any READY", async () => {
    const g = await connect();
    g.send({ op: 2, d: { token: plainToken, intents: PLAIN_GRANT | I.MESSAGE_CONTENT } });
    const { code } = await g.closed;
    expect(code).toBe(4014);
    expect(g.dispatches()).toEqual([]);
    expect(g.frames.some((f) => f.op === 9)).toBe(false);
  });

  test("an unknown intent bit is beyond every grant", async () => {
    const g = await connect();
    g.send({ op: 2, d: { token: allToken, intents: 2 ** 40 } });
    expect((await g.closed).code).toBe(4014);
  });

  test("bad, malformed and rotated tokens: op 9 d false then plain close", async () => {
    const old = allToken;
    const rotated = await call(p, "POST", `/api/harness/v1/applications/${W.w.applications.AllBot.id}/rotate`);
    expect(rotated.status).toBe(200);
    for (const token of [old, "nonsense", 42, plainToken.slice(0, -2) + "AA"]) {
      const g = await connect();
      g.send({ op: 2, d: { token, intents: I.GUILDS } });
      const inv = await g.next((f) => f.op === 9);
      expect(inv).toEqual({ op: 9, d: false, s: null, t: null });
      expect((await g.closed).code).toBe(1000);
      expect(g.dispatches()).toEqual([]);
    }
    const fresh = await connect();
    expect((await fresh.identify(rotated.body.token, I.GUILDS)).s).toBe(1);
  });

  test("invalid first frames: op 9 d false then plain close", async () => {
    const bad: (string | Uint8Array)[] = [
      "not json",
      "[1,2]",
      JSON.stringify({ d: {} }),
      JSON.stringify({ op: 99, d: null }),
      JSON.stringify({ op: 3, d: { status: "online" } }),
      JSON.stringify({ op: 2, d: { token: "x" } }),
      JSON.stringify({ op: 2, d: { intents: 1 } }),
      JSON.stringify({ op: 2, d: { token: allToken, intents: "1" } }),
      JSON.stringify({ op: 6, d: null }),
      new TextEncoder().encode(JSON.stringify({ op: 2, d: { token: allToken, intents: 1 } })),
    ];
    for (const frame of bad) {
      const g = await connect();
      g.ws.send(frame);
      await g.next((f) => f.op === 9);
      expect((await g.closed).code).toBe(1000);
      expect(g.dispatches()).toEqual([]);
    }
  });

  test("resume_gateway_url accepts IDENTIFY as well", async () => {
    const g = await connect();
    const ready = await g.identify(allToken, 0);
    const h = await connect(ready.d.resume_gateway_url);
    expect((await h.identify(allToken, 0)).s).toBe(1);
  });

  test("IDENTIFY ignores shard, large_threshold and presence; an IDENTIFY prefixed 'Bot ' works", async () => {
    const g = await connect();
    g.send({ op: 2, d: { token: `Bot ${allToken}`, intents: 0, shard: [3, 7], large_threshold: 50, presence: { status: "dnd" } } });
    const ready = await g.dispatch("READY");
    expect(ready.d.shard).toEqual([0, 1]);
  });
});

describe("active session", () => {
  test("op 1 is answered by op 11", async () => {
    const g = await connect();
    await g.identify(allToken, 0);
    g.send({ op: 1, d: 1 });
    expect(await g.next((f) => f.op === 11)).toEqual({ op: 11, d: null, s: null, t: null });
  });

  test("ops 3, 4 and 8 are accepted and ignored", async () => {
    const g = await connect();
    await g.identify(allToken, I.GUILDS);
    g.send({ op: 3, d: { since: null, activities: [], status: "online", afk: false } });
    g.send({ op: 4, d: { guild_id: W.w.guilds.Lab.id, channel_id: null, self_mute: false, self_deaf: false } });
    g.send({ op: 8, d: { guild_id: W.w.guilds.Lab.id, query: "", limit: 0 } });
    await g.sync();
    expect(g.isClosed).toBe(false);
    expect(g.frames.filter((f) => f.op !== 0 && f.op !== 10 && f.op !== 11)).toEqual([]);
  });

  test("no heartbeat for 2.5 x interval counted from HELLO: close 4000", async () => {
    const g = await connect();
    p.clock.advance(20_000);
    await g.identify(allToken, 0);
    p.clock.advance(103_125 - 20_000 - 1);
    expect(p.gateway.sessionsOf(W.app("AllBot"))[0].connected).toBe(true);
    p.clock.advance(1);
    expect((await g.closed).code).toBe(4000);
    expect(g.frames.some((f) => f.op === 9 || f.op === 7)).toBe(false);
  });

  test("each heartbeat re-arms the deadline", async () => {
    const g = await connect();
    await g.identify(allToken, 0);
    for (let i = 0; i < 5; i++) {
      p.clock.advance(100_000);
      await g.sync();
      expect(g.isClosed).toBe(false);
    }
    p.clock.advance(103_124);
    // Checked on the server's side: a heartbeat here would itself re-arm the deadline.
    expect(p.gateway.sessionsOf(W.app("AllBot"))[0].connected).toBe(true);
    p.clock.advance(1);
    expect((await g.closed).code).toBe(4000);
  });

  test("a second IDENTIFY on an active socket is refused with op 9", async () => {
    const g = await connect();
    await g.identify(allToken, 0);
    g.send({ op: 2, d: { token: allToken, intents: 0 } });
    await g.next((f) => f.op === 9);
    expect((await g.closed).code).toBe(1000);
  });

  test("bad JSON after IDENTIFY ends the session: op 9, close, not resumable", async () => {
    const g = await connect();
    const ready = await g.identify(allToken, 0);
    g.send("{oops");
    expect(await g.next((f) => f.op === 9)).toEqual({ op: 9, d: false, s: null, t: null });
    expect((await g.closed).code).toBe(1000);
    expect(p.gateway.sessionsOf(W.app("AllBot")).map((s) => s.session_id)).not.toContain(ready.d.session_id);
    const h = await connect();
    h.send({ op: 6, d: { token: allToken, session_id: ready.d.session_id, seq: 1 } });
    expect((await h.next((f) => f.op === 9)).d).toBe(false);
    expect((await h.closed).code).toBe(1000);
    expect(h.frames.some((f) => f.t === "RESUMED")).toBe(false);
  });
});

describe("RESUME", () => {
  async function liveThenClosed(intents = I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT) {
    const g = await connect();
    const ready = await g.identify(allToken, intents);
    await g.sync();
    const seq = g.lastSeq;
    await g.close();
    return { sessionId: ready.d.session_id as string, seq };
  }

  test("replays every frame after seq in order, then RESUMED with s continuing", async () => {
    const { sessionId, seq } = await liveThenClosed();
    expect(seq).toBe(2); // READY, GUILD_CREATE
    say("one");
    say("two");
    say("three");
    const h = await connect();
    h.send({ op: 6, d: { token: allToken, session_id: sessionId, seq } });
    const resumed = await h.dispatch("RESUMED");
    expect(resumed.s).toBe(6);
    expect(h.dispatches().map((f) => [f.t, f.s, f.d?.content])).toEqual([
      ["MESSAGE_CREATE", 3, "one"],
      ["MESSAGE_CREATE", 4, "two"],
      ["MESSAGE_CREATE", 5, "three"],
      ["RESUMED", 6, undefined],
    ]);
    // Live again: new events continue the numbering.
    say("four");
    expect((await h.dispatch("MESSAGE_CREATE")).s).toBe(7);
  });

  test("resume from an earlier seq replays READY-era frames too", async () => {
    const { sessionId } = await liveThenClosed();
    const h = await connect();
    h.send({ op: 6, d: { token: allToken, session_id: sessionId, seq: 0 } });
    await h.dispatch("RESUMED");
    expect(h.dispatches().map((f) => f.t)).toEqual(["READY", "GUILD_CREATE", "RESUMED"]);
  });

  test("the ring keeps the newest 1000 frames: within it everything is replayed, beyond it nothing", async () => {
    const { sessionId } = await liveThenClosed();
    for (let i = 0; i < 1100; i++) say(`m${i}`);
    // seq is now 1102; the ring holds 103..1102.
    const h = await connect();
    h.send({ op: 6, d: { token: allToken, session_id: sessionId, seq: 102 } });
    const r1 = await h.dispatch("RESUMED");
    expect(r1.s).toBe(1103);
    const replayed = h.dispatches("MESSAGE_CREATE");
    expect(replayed.length).toBe(1000);
    expect(replayed[0].s).toBe(103);
    expect(replayed[999].s).toBe(1102);
    expect(replayed.every((f, i) => f.s === 103 + i)).toBe(true);
    await h.close();

    const k = await connect();
    k.send({ op: 6, d: { token: allToken, session_id: sessionId, seq: 50 } });
    const r2 = await k.dispatch("RESUMED");
    expect(r2.s).toBe(1104);
    expect(k.dispatches().map((f) => f.t)).toEqual(["RESUMED"]);
  });

  test("unknown session, another bot's session, or a bad token: op 9 then plain close", async () => {
    const { sessionId, seq } = await liveThenClosed();
    const cases = [
      { token: allToken, session_id: "0".repeat(32), seq },
      { token: plainToken, session_id: sessionId, seq },
      { token: "nonsense", session_id: sessionId, seq },
    ];
    for (const d of cases) {
      const h = await connect();
      h.send({ op: 6, d });
      await h.next((f) => f.op === 9);
      expect((await h.closed).code).toBe(1000);
      expect(h.dispatches()).toEqual([]);
    }
    // Those refusals did not spend the session: its own bot still resumes it.
    const ok = await connect();
    ok.send({ op: 6, d: { token: allToken, session_id: sessionId, seq } });
    await ok.dispatch("RESUMED");
  });

  test("a closed session expires 5 minutes after its last heartbeat or dispatch", async () => {
    const { sessionId, seq } = await liveThenClosed(I.GUILDS);
    p.clock.advance(299_999);
    let h = await connect();
    h.send({ op: 6, d: { token: allToken, session_id: sessionId, seq } });
    await h.dispatch("RESUMED");
    await h.close();
    // RESUMED was a dispatch: the 5 minutes count from it.
    p.clock.advance(300_000);
    h = await connect();
    h.send({ op: 6, d: { token: allToken, session_id: sessionId, seq } });
    await h.next((f) => f.op === 9);
    expect((await h.closed).code).toBe(1000);
  });

  test("a heartbeating live session never expires", async () => {
    const g = await connect();
    const ready = await g.identify(allToken, 0);
    for (let i = 0; i < 30; i++) {
      p.clock.advance(40_000);
      await g.sync();
    }
    expect(g.isClosed).toBe(false);
    const seq = g.lastSeq;
    await g.close();
    const h = await connect();
    h.send({ op: 6, d: { token: allToken, session_id: ready.d.session_id, seq } });
    await h.dispatch("RESUMED");
  });

  test("after a 4000 close the bot resumes and gets what it missed", async () => {
    const g = await connect();
    const ready = await g.identify(allToken, I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT);
    await g.sync();
    p.clock.advance(103_125);
    expect((await g.closed).code).toBe(4000);
    say("while you were away");
    const h = await connect();
    h.send({ op: 6, d: { token: allToken, session_id: ready.d.session_id, seq: g.lastSeq } });
    await h.dispatch("RESUMED");
    expect(h.dispatches().map((f) => f.d?.content ?? f.t)).toEqual(["while you were away", "RESUMED"]);
  });

  test("events while no session existed are not replayed; a closed session records them", async () => {
    say("before any session");
    const { sessionId, seq } = await liveThenClosed();
    const lab = W.guild("Lab");
    const res = p.gateway.sessionsOf(W.app("AllBot"));
    expect(res).toEqual([{ session_id: sessionId, intents: expect.any(Number), connected: false, seq }]);
    say("after");
    expect(p.gateway.sessionsOf(W.app("AllBot"))[0].seq).toBe(seq + 1);
    const h = await connect();
    h.send({ op: 6, d: { token: allToken, session_id: sessionId, seq: 0 } });
    await h.dispatch("RESUMED");
    const contents = h.dispatches("MESSAGE_CREATE").map((f) => f.d.content);
    expect(contents).toEqual(["after"]);
    expect(lab).toBeTruthy();
  });

  test("RESUME of a session still attached to another socket takes it over", async () => {
    const g = await connect();
    const ready = await g.identify(allToken, I.GUILDS);
    await g.sync();
    const h = await connect();
    h.send({ op: 6, d: { token: allToken, session_id: ready.d.session_id, seq: g.lastSeq } });
    await h.dispatch("RESUMED");
    await g.closed;
    expect(p.gateway.sessionsOf(W.app("AllBot"))).toEqual([expect.objectContaining({ connected: true })]);
  });

  test("intents no longer granted: op 9", async () => {
    // Simulate a token whose grant shrank under a live session id (defence in depth).
    const { sessionId, seq } = await liveThenClosed(ALL_GRANT);
    p.store.db.query("UPDATE applications SET token_intents = ? WHERE id = ?").run(I.GUILDS, W.app("AllBot"));
    const h = await connect();
    h.send({ op: 6, d: { token: allToken, session_id: sessionId, seq } });
    expect((await h.next((f) => f.op === 9)).d).toBe(false);
    expect((await h.closed).code).toBe(1000);
    // Nothing was replayed or resumed under the narrower grant.
    expect(h.frames.filter((f) => f.op === 0)).toEqual([]);
  });
});

describe("token rotation, deletion, reset", () => {
  test("rotation via the harness: live sessions get op 9 and close; none can be resumed", async () => {
    const g = await connect();
    const ready = await g.identify(allToken, I.GUILDS);
    const other = await connect();
    await other.identify(plainToken, I.GUILDS);
    const closedOne = await connect();
    const r2 = await closedOne.identify(allToken, 0);
    await closedOne.close();

    const res = await call(p, "POST", `/api/harness/v1/applications/${W.w.applications.AllBot.id}/rotate`);
    await g.next((f) => f.op === 9);
    expect((await g.closed).code).toBe(1000);
    await other.sync();
    expect(other.isClosed).toBe(false); // another application is untouched

    for (const sid of [ready.d.session_id, r2.d.session_id]) {
      const h = await connect();
      h.send({ op: 6, d: { token: res.body.token, session_id: sid, seq: 1 } });
      await h.next((f) => f.op === 9);
    }
    expect(p.gateway.sessionsOf(W.app("AllBot"))).toEqual([]);
    expect(p.gateway.hasLiveSession(W.botUser("AllBot"))).toBe(false);
  });

  test("rotation via core also closes", async () => {
    const g = await connect();
    await g.identify(allToken, 0);
    p.core.apps.rotateToken(W.app("AllBot"));
    expect((await g.next((f) => f.op === 9)).d).toBe(false);
    expect((await g.closed).code).toBe(1000);
    expect(p.gateway.sessionsOf(W.app("AllBot"))).toEqual([]);
  });

  test("deleting the application: GUILD_DELETE for its guilds, then op 9 and close", async () => {
    const g = await connect();
    await g.identify(allToken, I.GUILDS);
    await g.dispatch("GUILD_CREATE");
    p.core.apps.delete(W.app("AllBot"));
    const del = await g.dispatch("GUILD_DELETE");
    expect(del.d).toEqual({ id: W.w.guilds.Lab.id });
    await g.next((f) => f.op === 9);
    await g.closed;
    expect(p.gateway.sessionsOf(W.app("AllBot"))).toEqual([]);
  });

  test("harness reset closes every socket and forgets every session", async () => {
    const bot = W.botUser("AllBot");
    const g = await connect();
    await g.identify(allToken, 0);
    const r = await call(p, "POST", "/api/harness/v1/reset");
    expect(r.status).toBe(204);
    await g.closed;
    expect(p.gateway.hasLiveSession(bot)).toBe(false);
  });

  test("hasLiveSession follows connect and close", async () => {
    const bot = W.botUser("AllBot");
    expect(p.gateway.hasLiveSession(bot)).toBe(false);
    const g = await connect();
    expect(p.gateway.hasLiveSession(bot)).toBe(false); // connected but not identified
    await g.identify(allToken, 0);
    expect(p.gateway.hasLiveSession(bot)).toBe(true);
    await g.close();
    await Bun.sleep(0);
    for (let i = 0; i < 50 && p.gateway.hasLiveSession(bot); i++) await Bun.sleep(5);
    expect(p.gateway.hasLiveSession(bot)).toBe(false);
  });

  test("op 7 is never sent", async () => {
    const g = await connect();
    await g.identify(allToken, ALL_GRANT);
    say("x");
    p.clock.advance(103_125);
    await g.closed;
    expect(g.frames.some((f) => f.op === 7)).toBe(false);
  });
});
