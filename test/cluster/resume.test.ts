/**
 * Gateway sessions shared through Redis (`--redis`, gateway/shared-sessions.ts): a bot
 * that identified on node A and lost its socket RESUMEs on node B, which replays what
 * it missed (posted through B meanwhile) with the seq numbers A gave them, then RESUMED,
 * and carries the session on; A forgets it. Another bot's token or an unknown session
 * meets op 9 without taking anything over; a seq older than the ring is the spec's
 * (resumed, nothing replayed); with Redis away a RESUME on the other node meets op 9
 * ("session store unavailable") and IDENTIFY works. A killed node's sessions cannot be
 * claimed once it counts as gone; a node shut down hands its sessions over, so a bot
 * resuming on another node misses nothing (a rolling restart).
 * Sign-in attempts, and a person's writes, spread over two nodes meet one throttle.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RedisClient } from "bun";
import type { Cluster, ClusterNode } from "../support/cluster";
import { gatewayOf, within, startSharedNodes, type SharedNodes } from "../support/shared-nodes";
import { ENGINE_MS, type Redis } from "../support/engines";
import { BASIC_WORLD } from "../helpers";
import { Gw, I, type Frame } from "../gateway/client";
import { SIGN_IN_PER_NAME, WRITES_PER_PERSON } from "../../src/clientapi/limits";

let nodes: SharedNodes;
let redis: Redis;
let cluster: Cluster;
let a: ClusterNode;
let b: ClusterNode;
let world: any;

beforeAll(async () => {
  nodes = await startSharedNodes({
    world: {
      ...BASIC_WORLD,
      applications: [...BASIC_WORLD.applications, { name: "OtherBot", owner: "bob", intents: ["GUILDS"], install: ["Lab"] }],
    },
    redis: true,
  });
  ({ cluster, world } = nodes);
  redis = nodes.redis!;
  [a, b] = cluster.nodes;
}, ENGINE_MS);
afterAll(async () => {
  await nodes?.stop();
}, ENGINE_MS);

const ECHO = I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT;
const token = () => world.applications.EchoBot.token as string;
const general = () => world.guilds.Lab.channels.general as string;

async function post(node: ClusterNode, content: string) {
  const res = await fetch(`${node.base}/api/v10/channels/${general()}/messages`, {
    method: "POST",
    headers: { Authorization: `Bot ${token()}`, "Content-Type": "application/json" },
    body: JSON.stringify({ content }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string };
}

/** How many frames Redis holds for a session: the test's way to know node A has written what it recorded. */
async function ringLength(sessionId: string): Promise<number> {
  const r = new RedisClient(redis.url);
  try {
    return Number(await r.send("LLEN", [`gr:${sessionId}`]));
  } finally {
    r.close();
  }
}

/** The application's sessions a node holds (the harness's view). */
async function sessionsOn(node: ClusterNode): Promise<{ session_id: string; connected: boolean; seq: number }[]> {
  const res = await fetch(`${node.base}/api/harness/v1/applications/${world.applications.EchoBot.id}/sessions`);
  return (await res.json()) as any;
}

/** Identify on `node`, wait for the GUILD_CREATE, and drop the socket: the session stays resumable there. */
async function identifiedThenGone(node: ClusterNode): Promise<{ sessionId: string; seq: number }> {
  const gw = await Gw.open(null as never, gatewayOf(node));
  const ready = await gw.identify(token(), ECHO);
  await gw.dispatch("GUILD_CREATE");
  const seq = gw.lastSeq;
  await gw.close();
  const sessionId = ready.d.session_id as string;
  await within(5000, "the node to see the socket close", async () =>
    (await sessionsOn(node)).some((s) => s.session_id === sessionId && !s.connected) ? true : undefined,
  );
  return { sessionId, seq };
}

async function resume(node: ClusterNode, sessionId: string, seq: number, tok = token()): Promise<Gw> {
  const gw = await Gw.open(null as never, gatewayOf(node));
  gw.send({ op: 6, d: { token: tok, session_id: sessionId, seq } });
  return gw;
}

const readyz = async (node: ClusterNode) => (await (await fetch(`${node.base}/readyz`)).json()) as any;
const summary = (frames: Frame[]) => frames.map((f) => `${f.t}#${f.s}`);

describe("RESUME on any node (sessions in Redis)", () => {
  test("identified on A, gone, messages posted through B: RESUME on B replays them in order with A's seq numbers, then RESUMED", async () => {
    const { sessionId, seq } = await identifiedThenGone(a);
    expect(seq).toBe(2); // READY, GUILD_CREATE
    const posted = [];
    for (const n of [1, 2, 3]) posted.push(await post(b, `missed ${n}`));
    await within(5000, "node A to write the missed frames to Redis", async () => ((await ringLength(sessionId)) === 5 ? true : undefined));

    const onB = await resume(b, sessionId, seq);
    try {
      const resumed = await onB.dispatch("RESUMED");
      const replayed = onB.dispatches().filter((f) => f.t === "MESSAGE_CREATE");
      expect(summary(onB.dispatches())).toEqual(["MESSAGE_CREATE#3", "MESSAGE_CREATE#4", "MESSAGE_CREATE#5", "RESUMED#6"]);
      expect(replayed.map((f) => f.d.id)).toEqual(posted.map((m) => m.id));
      expect(replayed.map((f) => f.d.content)).toEqual(["missed 1", "missed 2", "missed 3"]);
      expect(resumed.s).toBe(6);

      // The session lives on B now: what is posted through A reaches it, numbered on.
      const later = await post(a, "after the resume");
      const next = await onB.dispatch("MESSAGE_CREATE");
      expect(next.s).toBe(7);
      expect(next.d.id).toBe(later.id);
      // A learnt at its next write that B holds the session, and forgot it.
      await within(5000, "node A to forget the session", async () =>
        (await sessionsOn(a)).some((s) => s.session_id === sessionId) ? undefined : true,
      );
      expect((await sessionsOn(b)).find((s) => s.session_id === sessionId)).toMatchObject({ connected: true, seq: 7 });
    } finally {
      await onB.close();
    }
  }, 60_000);

  test("a RESUME on the other node with a seq the client already had replays nothing and goes on from there", async () => {
    const { sessionId, seq } = await identifiedThenGone(b);
    const onA = await resume(a, sessionId, seq);
    try {
      expect((await onA.dispatch("RESUMED")).s).toBe(seq + 1);
      expect(summary(onA.dispatches())).toEqual([`RESUMED#${seq + 1}`]);
    } finally {
      await onA.close();
    }
  }, 60_000);

  test("a seq older than the ring: resumed on the other node with nothing replayed, as on its own node (spec 3.2)", async () => {
    const { sessionId } = await identifiedThenGone(a);
    for (const n of [1, 2]) await post(b, `old ${n}`);
    await within(5000, "node A to write the frames", async () => ((await ringLength(sessionId)) === 4 ? true : undefined));
    // A ring that kept only its newest frame (as one past REPLAY_RING frames does): seq 1 is older than it.
    const r = new RedisClient(redis.url);
    await r.send("LTRIM", [`gr:${sessionId}`, "-1", "-1"]);
    r.close();
    const onB = await resume(b, sessionId, 1);
    try {
      expect((await onB.dispatch("RESUMED")).s).toBe(5);
      expect(summary(onB.dispatches())).toEqual(["RESUMED#5"]);
    } finally {
      await onB.close();
    }
  }, 60_000);

  test("an unknown session, or another bot's token, meets op 9 on the other node and takes nothing over", async () => {
    const { sessionId, seq } = await identifiedThenGone(a);
    const unknown = await resume(b, "0".repeat(32), 1);
    expect((await unknown.next((f) => f.op === 9)).d).toBe(false);
    await unknown.closed;
    // Another bot's token: the claim refuses it.
    const wrong = await resume(b, sessionId, seq, world.applications.OtherBot.token);
    expect((await wrong.next((f) => f.op === 9)).d).toBe(false);
    await wrong.closed;
    // Still A's, and resumable there.
    const onA = await resume(a, sessionId, seq);
    try {
      expect((await onA.dispatch("RESUMED")).s).toBe(seq + 1);
    } finally {
      await onA.close();
    }
  }, 60_000);

  test("Redis away: a RESUME on the other node meets op 9 and IDENTIFY there works; /readyz says what degrades", async () => {
    const { sessionId, seq } = await identifiedThenGone(a);
    await redis.stop();
    try {
      const onB = await resume(b, sessionId, seq);
      expect((await onB.next((f) => f.op === 9)).d).toBe(false);
      await onB.closed;
      const fresh = await Gw.open(null as never, gatewayOf(b));
      try {
        expect((await fresh.identify(token(), ECHO)).d.session_id).not.toBe(sessionId);
      } finally {
        await fresh.close();
      }
      // The node notices within a second or so (its next command, or its alive beat, fails).
      const ready = await within(10_000, "node B to say what degrades", async () => {
        const r = await readyz(b);
        return r.degraded ? r : undefined;
      });
      expect(ready.status).toBe("ready");
      expect(ready.degraded).toEqual(
        expect.arrayContaining([
          "Redis: not reachable; a RESUME on another node than the session's gets op 9 (the bot identifies)",
          "Redis: not reachable; sign-in throttles and people's write windows are counted per node",
        ]),
      );
      // Its own node still resumes it from memory.
      const onA = await resume(a, sessionId, seq);
      try {
        expect((await onA.dispatch("RESUMED")).s).toBe(seq + 1);
      } finally {
        await onA.close();
      }
    } finally {
      await redis.start();
    }
    // Back: both nodes use Redis again (each notices within a second or so), the session A
    // held is written whole again, and it resumes on B.
    for (const node of [a, b])
      await within(15_000, "the node to use Redis again", async () => ((await readyz(node)).degraded === undefined ? true : undefined));
    await within(15_000, "node A to write its sessions again", async () => ((await ringLength(sessionId)) > 0 ? true : undefined));
    const onB = await resume(b, sessionId, seq + 1);
    try {
      expect((await onB.dispatch("RESUMED")).s).toBe(seq + 2);
    } finally {
      await onB.close();
    }
  }, 60_000);
});

describe("people's throttles in Redis", () => {
  test("failed sign-ins spread over two nodes meet one throttle", async () => {
    const signIn = async (node: ClusterNode) =>
      (
        await fetch(`${node.base}/api/client/v1/auth/signin`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ username: "bob", password: "not bob's password at all" }),
        })
      ).status;
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_PER_NAME.free; i++) statuses.push(await signIn(i % 2 ? b : a));
    expect(statuses).toEqual(Array(SIGN_IN_PER_NAME.free).fill(401));
    // The sixth try is counted and locks the name; the seventh, B's third alone, is refused.
    const sixth = await signIn(a);
    expect([sixth, await signIn(b)]).toEqual([401, 429]);
  }, 60_000);
});

describe("a node that dies", () => {
  test("its sessions cannot be claimed once it is gone (nobody recorded their frames): op 9, and IDENTIFY works", async () => {
    const { sessionId, seq } = await identifiedThenGone(a);
    await a.kill9();
    try {
      // It counts as gone 3 s after it last said it was alive.
      await Bun.sleep(3500);
      const onB = await resume(b, sessionId, seq);
      expect((await onB.next((f) => f.op === 9)).d).toBe(false);
      await onB.closed;
      const fresh = await Gw.open(null as never, gatewayOf(b));
      try {
        expect((await fresh.identify(token(), ECHO)).d.session_id).not.toBe(sessionId);
      } finally {
        await fresh.close();
      }
    } finally {
      await a.start();
    }
  }, 60_000);
});

describe("a node that shuts down", () => {
  test("hands its sessions over: a RESUME on the other node replays what was posted before and after the stop", async () => {
    const { sessionId, seq } = await identifiedThenGone(a);
    const before = await post(b, "before the stop");
    await within(5000, "node A to write the frame to Redis", async () => ((await ringLength(sessionId)) === 3 ? true : undefined));
    expect(await a.stop()).toBe(0);
    try {
      // Posted while no node holds the session: the node it resumes on replays it from what it published itself.
      const after = await post(b, "while A is stopped");
      const onB = await resume(b, sessionId, seq);
      try {
        const resumed = await onB.dispatch("RESUMED");
        expect(summary(onB.dispatches())).toEqual(["MESSAGE_CREATE#3", "MESSAGE_CREATE#4", "RESUMED#5"]);
        expect(
          onB
            .dispatches()
            .filter((f) => f.t === "MESSAGE_CREATE")
            .map((f) => f.d.id),
        ).toEqual([before.id, after.id]);
        expect(resumed.s).toBe(5);
        const later = await post(b, "after the resume");
        const next = await onB.dispatch("MESSAGE_CREATE");
        expect([next.s, next.d.id]).toEqual([6, later.id]);
      } finally {
        await onB.close();
      }
    } finally {
      await a.start();
    }
  }, 60_000);
});

describe("people's write windows in Redis", () => {
  test("a person's writes spread over two nodes meet one window", async () => {
    const signedUp = await fetch(`${a.base}/api/client/v1/auth/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: "dave", password: "violet tractor moonbeam" }),
    });
    expect(signedUp.status).toBe(200);
    const { token: session } = (await signedUp.json()) as { token: string };
    const edit = async (node: ClusterNode, i: number) =>
      (
        await fetch(`${node.base}/api/client/v1/users/@me`, {
          method: "PATCH",
          headers: { Authorization: `Session ${session}`, "Content-Type": "application/json" },
          body: JSON.stringify({ global_name: `Dave ${i}` }),
        })
      ).status;
    const statuses: number[] = [];
    for (let i = 0; i < WRITES_PER_PERSON.limit; i++) statuses.push(await edit(i % 2 ? b : a, i));
    expect(statuses).toEqual(Array(WRITES_PER_PERSON.limit).fill(200));
    // Each node has seen only half the window's writes: refused all the same.
    expect(await edit(a, WRITES_PER_PERSON.limit)).toBe(429);
  }, 60_000);
});
