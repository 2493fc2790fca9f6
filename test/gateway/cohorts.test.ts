/**
 * Fan-out by cohort (src/gateway/cohorts.ts): live sessions that share their next seq
 * and their intents get one frame, published once. Grouping must never show on the
 * wire: every session's numbering, payload view, ring and replay are checked against
 * what per-session delivery would give, through splits, merges, RESUME and
 * per-viewer payloads.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { Cohorts } from "../../src/gateway/cohorts";
import { Session, type Conn, type Views } from "../../src/gateway/session";
import { makeParley } from "../helpers";
import { Gw, I, seedGatewayWorld, type Frame, type World } from "./client";

let p: Parley;
let W: World;
let roleId: string;
const open: Gw[] = [];

const MSG = I.GUILDS | I.GUILD_MESSAGES;

interface S {
  g: Gw;
  id: string;
  token: string;
}

async function session(name: "AllBot" | "PlainBot", intents: number): Promise<S> {
  const g = await Gw.open(p);
  open.push(g);
  const token = W.w.applications[name].token;
  const ready = await g.identify(token, intents);
  await g.sync();
  return { g, id: ready.d.session_id, token };
}

async function syncAll(ss: S[]) {
  for (const s of ss) await s.g.sync();
}

function say(text: string, authorId = W.person("bob")) {
  return p.core.messages.create({ channelId: W.channel("Lab", "general"), authorId, content: text });
}

/** Each frame as [t, s, content]: what a session saw, comparable across sessions. */
const seen = (fs: Frame[]) => fs.map((f) => [f.t, f.s, f.d?.content]);
const last = (s: S) => seen(s.g.dispatches().slice(-1))[0];

async function resume(s: S, seq: number): Promise<Gw> {
  const g = await Gw.open(p);
  open.push(g);
  g.send({ op: 6, d: { token: s.token, session_id: s.id, seq } });
  await g.dispatch("RESUMED");
  return g;
}

beforeEach(() => {
  p = makeParley();
  W = seedGatewayWorld(p);
  // Created before any session so that its creation is in every GUILD_CREATE, not a dispatch.
  roleId = p.core.guilds.createRole(W.guild("Lab"), { name: "Tag" }).id;
  p.listen();
});

afterEach(async () => {
  for (const g of open.splice(0)) await g.close();
  await p.stop();
});

describe("cohorts", () => {
  test("sessions identified apart come together, one cohort per intents, on their first shared frame", async () => {
    const content = [
      await session("AllBot", MSG | I.MESSAGE_CONTENT),
      await session("AllBot", MSG | I.MESSAGE_CONTENT),
      await session("AllBot", MSG | I.MESSAGE_CONTENT),
    ];
    const bare = [
      await session("AllBot", MSG),
      await session("AllBot", MSG),
      await session("PlainBot", MSG),
      await session("PlainBot", MSG),
    ];
    const all = [...content, ...bare];
    // READY and GUILD_CREATE are per session and per bot: nobody shares a frame yet.
    expect(p.gateway.cohortSizes()).toEqual([1, 1, 1, 1, 1, 1, 1]);

    say("one");
    await syncAll(all);
    expect(p.gateway.cohortSizes()).toEqual([4, 3]);
    for (const s of content) expect(last(s)).toEqual(["MESSAGE_CREATE", 3, "one"]);
    for (const s of bare) expect(last(s)).toEqual(["MESSAGE_CREATE", 3, ""]);

    say("two");
    await syncAll(all);
    expect(p.gateway.cohortSizes()).toEqual([4, 3]);
    for (const s of all) expect(s.g.dispatches("MESSAGE_CREATE").length).toBe(2);
    for (const s of content) expect(last(s)).toEqual(["MESSAGE_CREATE", 4, "two"]);
    for (const s of bare) expect(last(s)).toEqual(["MESSAGE_CREATE", 4, ""]);
  });

  test("a frame for part of a cohort splits it; numbering, RESUME and rings stay per session", async () => {
    const [a1, a2, p1, p2] = [
      await session("AllBot", MSG),
      await session("AllBot", MSG),
      await session("PlainBot", MSG),
      await session("PlainBot", MSG),
    ];
    const all = [a1, a2, p1, p2];
    say("one");
    await syncAll(all);
    expect(p.gateway.cohortSizes()).toEqual([4]);

    // The bot's own member update goes to AllBot's sessions only (reference-gaps 4).
    p.core.guilds.addMemberRole(W.guild("Lab"), W.botUser("AllBot"), roleId);
    await syncAll(all);
    expect(p.gateway.cohortSizes()).toEqual([2, 2]);
    for (const s of [a1, a2]) expect(last(s)).toEqual(["GUILD_MEMBER_UPDATE", 4, undefined]);
    for (const s of [p1, p2]) expect(s.g.dispatches("GUILD_MEMBER_UPDATE")).toEqual([]);

    say("two");
    await syncAll(all);
    for (const s of [a1, a2]) expect(last(s)).toEqual(["MESSAGE_CREATE", 5, ""]);
    for (const s of [p1, p2]) expect(last(s)).toEqual(["MESSAGE_CREATE", 4, ""]);

    // a1 drops; while closed it keeps numbering in its own ring.
    p.gateway.disconnect(a1.id, 4000);
    await a1.g.closed;
    say("three");
    await syncAll([a2, p1, p2]);
    expect(p.gateway.cohortSizes()).toEqual([2, 1]);
    expect(last(a2)).toEqual(["MESSAGE_CREATE", 6, ""]);

    const r1 = await resume(a1, 4);
    expect(seen(r1.dispatches())).toEqual([
      ["MESSAGE_CREATE", 5, ""],
      ["MESSAGE_CREATE", 6, ""],
      ["RESUMED", 7, undefined],
    ]);
    say("four");
    await syncAll([a2, p1, p2]);
    await r1.sync();
    expect(seen(r1.dispatches()).slice(-1)).toEqual([["MESSAGE_CREATE", 8, ""]]);
    expect(last(a2)).toEqual(["MESSAGE_CREATE", 7, ""]);
    for (const s of [p1, p2]) expect(last(s)).toEqual(["MESSAGE_CREATE", 6, ""]);
    expect(p.gateway.cohortSizes()).toEqual([2, 1, 1]);

    // Every ring holds exactly what its session was sent: RESUME from 0 replays it all.
    for (const s of [a2, p1]) {
      const live = s.g.dispatches().map((f) => [f.t, f.s, JSON.stringify(f.d)]);
      const again = await resume(s, 0);
      expect(
        again
          .dispatches()
          .slice(0, -1)
          .map((f) => [f.t, f.s, JSON.stringify(f.d)]),
      ).toEqual(live);
    }
    // The harness log numbers each session's frames 1, 2, 3, ... with no gap or repeat.
    const bySession = new Map<string, number[]>();
    for (const e of p.events!.after(0)) {
      const s = JSON.parse(e.frame).s as number;
      bySession.set(e.sessionId, [...(bySession.get(e.sessionId) ?? []), s]);
    }
    for (const ss of bySession.values()) expect(ss).toEqual(ss.map((_, i) => i + 1));
    expect(bySession.get(a1.id)!.length).toBe(8);
  });

  test("cohorts whose numbering realigns merge again on their next shared frame", async () => {
    const [a1, a2, p1, p2] = [
      await session("AllBot", MSG),
      await session("AllBot", MSG),
      await session("PlainBot", MSG),
      await session("PlainBot", MSG),
    ];
    const all = [a1, a2, p1, p2];
    say("one");
    p.core.guilds.addMemberRole(W.guild("Lab"), W.botUser("AllBot"), roleId);
    await syncAll(all);
    expect(p.gateway.cohortSizes()).toEqual([2, 2]);
    // PlainBot's sessions catch up by one frame of their own: both sides are at seq 4.
    p.core.guilds.addMemberRole(W.guild("Lab"), W.botUser("PlainBot"), roleId);
    await syncAll(all);
    expect(p.gateway.cohortSizes()).toEqual([2, 2]);

    say("two");
    await syncAll(all);
    expect(p.gateway.cohortSizes()).toEqual([4]);
    for (const s of all) expect(last(s)).toEqual(["MESSAGE_CREATE", 5, ""]);
    say("three");
    await syncAll(all);
    for (const s of all) expect(last(s)).toEqual(["MESSAGE_CREATE", 6, ""]);
  });

  test("different payloads at the same seq (reactions[].me) keep a cohort whole", async () => {
    const intents = MSG | I.GUILD_MESSAGE_REACTIONS;
    const [a1, a2, p1] = [await session("AllBot", intents), await session("AllBot", intents), await session("PlainBot", intents)];
    const all = [a1, a2, p1];
    const m = say("one");
    p.core.reactions.add(W.botUser("AllBot"), m.id, { id: null, name: "👍" });
    await syncAll(all);
    expect(p.gateway.cohortSizes()).toEqual([3]);
    for (const s of all) expect(last(s)).toEqual(["MESSAGE_REACTION_ADD", 4, undefined]);

    p.core.messages.edit(m.id, { content: "one, edited" });
    await syncAll(all);
    expect(p.gateway.cohortSizes()).toEqual([3]);
    const me = (s: S) => {
      const f = s.g.dispatches("MESSAGE_UPDATE")[0];
      expect(f.s).toBe(5);
      return f.d.reactions[0].me;
    };
    expect([me(a1), me(a2), me(p1)]).toEqual([true, true, false]);

    say("two");
    await syncAll(all);
    expect(p.gateway.cohortSizes()).toEqual([3]);
    for (const s of all) expect(last(s)).toEqual(["MESSAGE_CREATE", 6, ""]);

    // The cohort recorded each member's own view of that frame: RESUME replays it.
    for (const s of all) {
      const live = s.g.dispatches().map((f) => [f.t, f.s, JSON.stringify(f.d)]);
      const again = await resume(s, 0);
      expect(
        again
          .dispatches()
          .slice(0, -1)
          .map((f) => [f.t, f.s, JSON.stringify(f.d)]),
      ).toEqual(live);
    }
  });

  test("a session that closes leaves its cohort; the rest keep getting every frame once", async () => {
    const ss = [await session("AllBot", MSG), await session("AllBot", MSG), await session("AllBot", MSG)];
    say("one");
    await syncAll(ss);
    expect(p.gateway.cohortSizes()).toEqual([3]);
    await ss[0].g.close();
    for (let i = 0; i < 50 && p.gateway.cohortSizes()[0] !== 2; i++) await Bun.sleep(5);
    expect(p.gateway.cohortSizes()).toEqual([2]);
    say("two");
    await syncAll(ss.slice(1));
    for (const s of ss.slice(1))
      expect(seen(s.g.dispatches("MESSAGE_CREATE"))).toEqual([
        ["MESSAGE_CREATE", 3, ""],
        ["MESSAGE_CREATE", 4, ""],
      ]);
    expect(ss[0].g.dispatches("MESSAGE_CREATE").length).toBe(1);
  });

  test("messages after the first to a guild follow the plan it left, and give every session what visiting each would", async () => {
    const [c1, c2] = [await session("AllBot", MSG | I.MESSAGE_CONTENT), await session("AllBot", MSG | I.MESSAGE_CONTENT)];
    const [a1, p1, p2] = [await session("AllBot", MSG), await session("PlainBot", MSG), await session("PlainBot", MSG)];
    const all = [c1, c2, a1, p1, p2];
    const counts = () => p.gateway.fanOutCounts();
    say("one"); // brings the sessions together: cohorts change, nothing to remember
    say("two"); // the first visit that changes nothing: remembered
    const before = counts();
    say("three");
    say("four");
    await syncAll(all);
    expect(counts()).toEqual({ visits: before.visits, planned: before.planned + 2 });
    expect(p.gateway.cohortSizes()).toEqual([3, 2]);
    for (const s of [c1, c2])
      expect(seen(s.g.dispatches("MESSAGE_CREATE")).slice(-2)).toEqual([
        ["MESSAGE_CREATE", 5, "three"],
        ["MESSAGE_CREATE", 6, "four"],
      ]);
    for (const s of [a1, p1, p2])
      expect(seen(s.g.dispatches("MESSAGE_CREATE")).slice(-2)).toEqual([
        ["MESSAGE_CREATE", 5, ""],
        ["MESSAGE_CREATE", 6, ""],
      ]);

    // A message naming a bot that listens is per viewer: visited, and PlainBot reads it.
    say(`<@${W.botUser("PlainBot")}> hi`);
    await syncAll(all);
    expect(counts().visits).toBe(before.visits + 1);
    for (const s of [p1, p2]) expect(last(s)).toEqual(["MESSAGE_CREATE", 7, `<@${p.api.flakes.of(W.botUser("PlainBot"))}> hi`]);
    expect(last(a1)).toEqual(["MESSAGE_CREATE", 7, ""]);

    // A session that closes changes the audience: a visit, then a plan that records in its ring.
    p.gateway.disconnect(p1.id, 4000);
    await p1.g.closed;
    say("five");
    say("six");
    await syncAll([c1, c2, a1, p2]);
    expect(counts()).toEqual({ visits: before.visits + 2, planned: before.planned + 3 });
    expect(last(p2)).toEqual(["MESSAGE_CREATE", 9, ""]);
    const back = await resume(p1, 7);
    expect(seen(back.dispatches())).toEqual([
      ["MESSAGE_CREATE", 8, ""],
      ["MESSAGE_CREATE", 9, ""],
      ["RESUMED", 10, undefined],
    ]);

    // The resumed session and a new one change it again; every session still gets each frame once, in order.
    const fresh = await session("PlainBot", MSG);
    say("seven");
    say("eight");
    await syncAll([c1, c2, a1, p2, fresh]);
    await back.sync();
    expect(last(c1)).toEqual(["MESSAGE_CREATE", 11, "eight"]);
    expect(last(p2)).toEqual(["MESSAGE_CREATE", 11, ""]);
    expect(seen(back.dispatches()).slice(-2)).toEqual([
      ["MESSAGE_CREATE", 11, ""],
      ["MESSAGE_CREATE", 12, ""],
    ]);
    expect(last(fresh)).toEqual(["MESSAGE_CREATE", 4, ""]);
    const numbers = new Map<string, number[]>();
    for (const e of p.events!.after(0)) numbers.set(e.sessionId, [...(numbers.get(e.sessionId) ?? []), JSON.parse(e.frame).s]);
    for (const ss of numbers.values()) expect(ss).toEqual(ss.map((_, i) => i + 1));
  });

  test("cohorts whose numbering realigns while a plan holds merge on the next shared frame all the same", async () => {
    const [a1, a2, p1, p2] = [
      await session("AllBot", MSG),
      await session("AllBot", MSG),
      await session("PlainBot", MSG),
      await session("PlainBot", MSG),
    ];
    const all = [a1, a2, p1, p2];
    /** How a message was fanned out: "visit" or "plan". */
    const sayHow = (text: string) => {
      const c0 = p.gateway.fanOutCounts();
      say(text);
      const c1 = p.gateway.fanOutCounts();
      return c1.planned > c0.planned ? "plan" : c1.visits > c0.visits ? "visit" : "none";
    };
    say("one");
    p.core.guilds.addMemberRole(W.guild("Lab"), W.botUser("AllBot"), roleId); // splits AllBot's sessions off
    expect(sayHow("two")).toBe("visit"); // no cohort changes: its plan holds (two cohorts, at 5 and 4)
    expect(sayHow("two, again")).toBe("plan"); // 6 and 5
    p.core.guilds.addMemberRole(W.guild("Lab"), W.botUser("PlainBot"), roleId); // PlainBot's catch up: both at 6
    await syncAll(all);
    expect(p.gateway.cohortSizes()).toEqual([2, 2]);
    expect(sayHow("three")).toBe("visit");
    await syncAll(all);
    expect(p.gateway.cohortSizes()).toEqual([4]);
    expect(sayHow("four")).toBe("visit");
    expect(sayHow("five")).toBe("plan");
    await syncAll(all);
    for (const s of all)
      expect(seen(s.g.dispatches("MESSAGE_CREATE")).slice(-3)).toEqual([
        ["MESSAGE_CREATE", 7, ""],
        ["MESSAGE_CREATE", 8, ""],
        ["MESSAGE_CREATE", 9, ""],
      ]);
  });
});

describe("per-viewer frames", () => {
  test("a bot's own messages in a shared cohort: each session sees its view, and RESUME replays exactly what it got", async () => {
    // Neither holds MESSAGE_CONTENT: each reads the content of its own bot's messages only (spec 5.9).
    const [a1, a2, p1, p2] = [
      await session("AllBot", MSG),
      await session("AllBot", MSG),
      await session("PlainBot", MSG),
      await session("PlainBot", MSG),
    ];
    const all = [a1, a2, p1, p2];
    say("one");
    await syncAll(all);
    expect(p.gateway.cohortSizes()).toEqual([4]);

    say("from AllBot", W.botUser("AllBot"));
    say("from PlainBot", W.botUser("PlainBot"));
    await syncAll(all);
    expect(p.gateway.cohortSizes()).toEqual([4]);
    for (const s of [a1, a2])
      expect(seen(s.g.dispatches("MESSAGE_CREATE")).slice(-2)).toEqual([
        ["MESSAGE_CREATE", 4, "from AllBot"],
        ["MESSAGE_CREATE", 5, ""],
      ]);
    for (const s of [p1, p2])
      expect(seen(s.g.dispatches("MESSAGE_CREATE")).slice(-2)).toEqual([
        ["MESSAGE_CREATE", 4, ""],
        ["MESSAGE_CREATE", 5, "from PlainBot"],
      ]);

    // One leaves the cohort (its frames become its own), the others stay in it.
    p.gateway.disconnect(p1.id, 4000);
    await p1.g.closed;
    say("while p1 is away", W.botUser("PlainBot"));
    await syncAll([a1, a2, p2]);
    for (const s of [a1, a2, p2, p1]) {
      const live = s.g.dispatches().map((f) => [f.t, f.s, JSON.stringify(f.d)]);
      const again = await resume(s, 0);
      const replayed = again
        .dispatches()
        .slice(0, -1)
        .map((f) => [f.t, f.s, JSON.stringify(f.d)]);
      if (s === p1) {
        // Closed, it recorded one more frame than it was sent live.
        expect(replayed.slice(0, -1)).toEqual(live);
        expect(seen(again.dispatches()).slice(-2)).toEqual([
          ["MESSAGE_CREATE", 6, "while p1 is away"],
          ["RESUMED", 7, undefined],
        ]);
      } else expect(replayed).toEqual(live);
    }
  });
});

/** A session on a socket that only records what it is sent (Cohorts.server unset: every frame goes by sendText). */
function fakeSession(id: string, bot: string): { s: Session; sent: string[] } {
  const s = new Session(id, { appId: `app-${bot}`, appFlake: `flake-${bot}`, botUserId: bot }, MSG, 0);
  const sent: string[] = [];
  const ws = { subscribe() {}, unsubscribe() {}, sendText: (f: string) => void sent.push(f) };
  s.conn = {
    id: 0,
    ws,
    state: "active",
    session: s,
    lastBeat: 0,
    firstFrameTimer: null,
    zombieTimer: null,
    framesBeforeIdentify: 0,
  } as unknown as Conn;
  return { s, sent };
}

describe("a cohort's ring", () => {
  test("per-viewer frames keep one payload per differing bot, and replay equals what each session got", () => {
    const cohorts = new Cohorts("t:");
    const bots = ["b0", "b1", "b2", "b3"];
    const members = bots.flatMap((b) => [0, 1, 2].map((i) => fakeSession(`${b}-${i}`, b)));
    const ss = members.map((m) => m.s);
    for (const s of ss) cohorts.join(s);
    cohorts.send(
      "A",
      ss,
      ss.map(() => '"common"'),
      1,
    );
    expect(cohorts.all.size).toBe(1);
    const [c] = cohorts.all;

    // The author's view of its own message differs from everyone else's: one bot, then two.
    const own = (s: Session) => `"seen by ${s.owner.botUserId}"`;
    cohorts.send(
      "B",
      ss,
      ss.map((s) => (s.owner.botUserId === "b1" ? own(s) : '"plain"')),
      2,
    );
    cohorts.send(
      "C",
      ss,
      ss.map((s) => (s.owner.botUserId === "b2" || s.owner.botUserId === "b3" ? own(s) : '"plain"')),
      3,
    );
    // GUILD_CREATE's kind: known to differ per bot, never compared.
    cohorts.send("D", ss, ss.map(own), 4, true);
    expect(cohorts.all.size).toBe(1);

    const entry = (seq: number) => c.ring!.d[seq] as Views;
    // Not a payload per member: the common one, and the one bot that saw another.
    expect(entry(2).d).toBe('"plain"');
    expect([entry(2).d, [...entry(2).except!]]).toEqual(['"plain"', [["b1", '"seen by b1"']]]);
    expect([entry(3).d, [...entry(3).except!.keys()].sort()]).toEqual(['"plain"', ["b2", "b3"]]);
    // One payload per bot: the first bot's as the common one, the three others beside it.
    expect(entry(4).except!.size).toBe(3);
    for (const seq of [2, 3, 4]) expect(entry(seq).each).toBeNull();

    // Two sessions of one bot with different payloads (no delivery makes these today): kept per session.
    cohorts.send(
      "E",
      ss,
      ss.map((s) => (s.id === "b0-0" ? '"odd"' : '"plain"')),
      5,
    );
    expect(entry(5).each!.size).toBe(ss.length);

    // A member that leaves takes its own views along; the rest replay from the cohort's ring.
    cohorts.leave(members[4].s);
    cohorts.send(
      "F",
      ss.filter((s) => s !== members[4].s),
      ss.slice(0, -1).map(() => '"after"'),
      6,
    );
    for (const m of members) {
      expect(m.s.replayAfter(0)).toEqual(m.sent);
      expect(m.sent.length).toBe(m === members[4] ? 5 : 6);
    }
    expect(members[4].s.replayAfter(0)[1]).toBe('{"op":0,"s":2,"t":"B","d":"seen by b1"}');
  });
});

/**
 * The plain paths behind the `cohorts` and `cohortRings` switches (config/fast-paths.ts):
 * what each session is sent and replays is the same; only where frames are kept differs.
 * test/diff compares them with the fast paths through a whole session.
 */
describe("with the fast paths off", () => {
  const own = (s: Session) => `"seen by ${s.owner.botUserId}"`;

  function script(cohorts: Cohorts) {
    const members = ["b0", "b1"].flatMap((b) => [0, 1].map((i) => fakeSession(`${b}-${i}`, b)));
    const ss = members.map((m) => m.s);
    for (const s of ss) cohorts.join(s);
    cohorts.send(
      "A",
      ss,
      ss.map(() => '"common"'),
      1,
    );
    cohorts.send(
      "B",
      ss,
      ss.map((s) => (s.owner.botUserId === "b1" ? own(s) : '"plain"')),
      2,
    );
    cohorts.leave(members[3].s);
    cohorts.send(
      "C",
      ss.slice(0, 3),
      ss.slice(0, 3).map(() => '"after"'),
      3,
    );
    return members;
  }

  test("cohortRings off: no cohort keeps a ring; each member records what it was sent, and replays it", () => {
    const cohorts = new Cohorts("t:", null, null, { rings: false });
    const members = script(cohorts);
    expect(cohorts.all.size).toBe(1);
    for (const c of cohorts.all) expect(c.ring).toBeNull();
    for (const m of members) expect(m.s.replayAfter(0)).toEqual(m.sent);
    expect(members[3].sent).toEqual(['{"op":0,"s":1,"t":"A","d":"common"}', '{"op":0,"s":2,"t":"B","d":"seen by b1"}']);
  });

  test("cohorts off: every live session is a cohort of its own, sent its own frames", () => {
    const cohorts = new Cohorts("t:", null, null, { grouped: false });
    const members = script(cohorts);
    expect([...cohorts.all].map((c) => c.members.size)).toEqual([1, 1, 1]);
    for (const m of members) expect(m.s.replayAfter(0)).toEqual(m.sent);
    expect(members[2].sent.map((f) => JSON.parse(f).d)).toEqual(["common", "seen by b1", "after"]);
  });
});
