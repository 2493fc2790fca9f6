/**
 * A RESUME on another node in the instant it takes the session over (the claim,
 * gateway/shared-sessions.ts): each frame reaches the resumed session exactly once, in
 * order, numbered on without a gap, whichever node numbered it first.
 *
 * The two windows are put in place with the harness's `hold` fault (docs/harness.md):
 * - node A numbered a frame but its write to Redis waits (`session_writes`) while B, which
 *   heard the event before it held the session, claims it: the frame is not in the ring
 *   B reads, and A's late write is refused;
 * - node A wrote a frame before the claim, and B hears its event only after
 *   (`events`): the frame is in the ring B replays, and B must not send it again.
 * Then a stress check: a bot cut off mid-stream resumes on the other node while messages
 * are posted one after another, and its message ids have no gap and no duplicate.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RedisClient } from "bun";
import type { Cluster, ClusterNode } from "../support/cluster";
import { gatewayOf, within, startSharedNodes, type SharedNodes } from "../support/shared-nodes";
import { ENGINE_MS, type Redis } from "../support/engines";
import { BASIC_WORLD } from "../helpers";
import { Gw, I, type Frame } from "../gateway/client";

let nodes: SharedNodes;
let redis: Redis;
let cluster: Cluster;
let a: ClusterNode;
let b: ClusterNode;
let world: any;

beforeAll(async () => {
  nodes = await startSharedNodes({ world: BASIC_WORLD, redis: true });
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
const summary = (frames: Frame[]) => frames.map((f) => `${f.t}#${f.s}`);
const messageIds = (frames: Frame[]) => frames.filter((f) => f.t === "MESSAGE_CREATE").map((f) => f.d.id as string);

async function post(node: ClusterNode, content: string): Promise<string> {
  const res = await fetch(`${node.base}/api/v10/channels/${general()}/messages`, {
    method: "POST",
    headers: { Authorization: `Bot ${token()}`, "Content-Type": "application/json" },
    body: JSON.stringify({ content }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/** Redis as the test reads it: the session's ring length, its record's holder. */
async function redisSend(cmd: string, args: string[]): Promise<unknown> {
  const r = new RedisClient(redis.url);
  try {
    return await r.send(cmd, args);
  } finally {
    r.close();
  }
}
const ringLength = async (sessionId: string) => Number(await redisSend("LLEN", [`gr:${sessionId}`]));
const holderOf = async (sessionId: string) => String(await redisSend("HGET", [`gs:${sessionId}`, "node"]));

async function harness(node: ClusterNode, method: string, path: string, body?: unknown) {
  const res = await fetch(`${node.base}/api/harness/v1${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as any) };
}

/** Hold what a node would do now (the harness's `hold` fault); the answer lets it go on. */
async function hold(node: ClusterNode, what: "session_writes" | "events"): Promise<() => Promise<void>> {
  const r = await harness(node, "POST", "/faults", { kind: "hold", what });
  expect(r.status).toBe(200);
  let held = true;
  return async () => {
    if (!held) return;
    held = false;
    expect((await harness(node, "DELETE", `/faults/${r.body.id}`)).status).toBe(204);
  };
}

async function sessionOn(node: ClusterNode, sessionId: string): Promise<{ connected: boolean; seq: number } | undefined> {
  const r = await harness(node, "GET", `/applications/${world.applications.EchoBot.id}/sessions`);
  return (r.body as { session_id: string; connected: boolean; seq: number }[]).find((s) => s.session_id === sessionId);
}

/** Identify on `node`, wait for the GUILD_CREATE, and drop the socket: the session stays resumable there. */
async function identifiedThenGone(node: ClusterNode): Promise<{ sessionId: string; seq: number }> {
  const gw = await Gw.open(null as never, gatewayOf(node));
  const ready = await gw.identify(token(), ECHO);
  await gw.dispatch("GUILD_CREATE");
  const seq = gw.lastSeq;
  await gw.close();
  const sessionId = ready.d.session_id as string;
  await within(10_000, "the node to see the socket close", async () =>
    (await sessionOn(node, sessionId))?.connected === false ? true : undefined,
  );
  await within(10_000, "the node to write the session to Redis", async () => ((await ringLength(sessionId)) === seq ? true : undefined));
  return { sessionId, seq };
}

async function resume(node: ClusterNode, sessionId: string, seq: number): Promise<Gw> {
  const gw = await Gw.open(null as never, gatewayOf(node));
  gw.send({ op: 6, d: { token: token(), session_id: sessionId, seq } });
  return gw;
}

/** Waits (generously: the machine is shared) until `gw` has a frame matching `pred`. */
const frameOn = (gw: Gw, what: string, pred: (f: Frame) => boolean, ms = 15_000) => within(ms, what, () => gw.frames.find(pred));

describe("a RESUME on another node in the instant of its claim", () => {
  test("a frame A numbered but had not written when B claimed the session reaches it once, numbered by B", async () => {
    const { sessionId, seq } = await identifiedThenGone(a);
    // Another session of the bot, live on B: it shows when B has heard a message.
    const watcher = await Gw.open(null as never, gatewayOf(b));
    await watcher.identify(token(), ECHO);
    await watcher.dispatch("GUILD_CREATE");
    const release = await hold(a, "session_writes");
    let onB: Gw | null = null;
    try {
      const missed = await post(a, "in the instant of the claim");
      await frameOn(watcher, "node B to hear the message", (f) => f.t === "MESSAGE_CREATE" && f.d.id === missed);
      await within(10_000, "node A to number it", async () => ((await sessionOn(a, sessionId))?.seq === seq + 1 ? true : undefined));
      expect(await ringLength(sessionId)).toBe(seq); // A's write of it waits

      onB = await resume(b, sessionId, seq);
      await frameOn(onB, "RESUMED", (f) => f.t === "RESUMED");
      await release();
      // A's write is refused now (B holds the session): A forgets it.
      await within(10_000, "node A to forget the session", async () => ((await sessionOn(a, sessionId)) ? undefined : true));
      const after = await post(a, "after the claim");
      await frameOn(onB, "the message after", (f) => f.t === "MESSAGE_CREATE" && f.d.id === after);
      expect(summary(onB.dispatches())).toEqual([`MESSAGE_CREATE#${seq + 1}`, `RESUMED#${seq + 2}`, `MESSAGE_CREATE#${seq + 3}`]);
      expect(messageIds(onB.frames)).toEqual([missed, after]);
    } finally {
      await release();
      await onB?.close();
      await watcher.close();
    }
  }, 90_000);

  test("a frame A wrote before the claim, which B hears only after it, is replayed once and not sent again", async () => {
    const { sessionId, seq } = await identifiedThenGone(a);
    const release = await hold(b, "events");
    let onB: Gw | null = null;
    try {
      const early = await post(a, "written before the claim");
      await within(10_000, "node A to write the frame", async () => ((await ringLength(sessionId)) === seq + 1 ? true : undefined));
      const holder = await holderOf(sessionId);
      onB = await resume(b, sessionId, seq);
      await within(10_000, "node B to claim the session", async () => ((await holderOf(sessionId)) !== holder ? true : undefined));
      await release();
      await frameOn(onB, "RESUMED", (f) => f.t === "RESUMED");
      const after = await post(a, "after the claim");
      await frameOn(onB, "the message after", (f) => f.t === "MESSAGE_CREATE" && f.d.id === after);
      expect(summary(onB.dispatches())).toEqual([`MESSAGE_CREATE#${seq + 1}`, `RESUMED#${seq + 2}`, `MESSAGE_CREATE#${seq + 3}`]);
      expect(messageIds(onB.frames)).toEqual([early, after]);
    } finally {
      await release();
      await onB?.close();
    }
  }, 90_000);
});

describe("a RESUME on another node while messages keep coming", () => {
  const POSTS = 200;
  // Posts through B (each node hears them in the order they commit), through A, then
  // through both in turn (where a node may hear another's commit after its own later one).
  const rounds: [string, (i: number) => ClusterNode, boolean][] = [
    ["through B", () => b, true],
    ["through A", () => a, true],
    ["through both nodes in turn", (i) => (i % 2 ? b : a), false],
  ];
  for (const [name, via, ordered] of rounds)
    test(`posted ${name}: no message missed or repeated across the resume, seq numbers without a gap`, async () => {
      const gw = await Gw.open(null as never, gatewayOf(a));
      const ready = await gw.identify(token(), ECHO);
      await gw.dispatch("GUILD_CREATE");
      const sessionId = ready.d.session_id as string;
      const posted: string[] = [];
      let onB: Gw | null = null;
      // A node may still be hearing the round before's last messages (the other node
      // posted them): a session live then gets them too, so this round's are told by their text.
      const tag = `${name}:`;
      const ours = (frames: Frame[]) => frames.filter((f) => f.t === "MESSAGE_CREATE" && String(f.d.content).startsWith(tag));
      const posting = (async () => {
        for (let i = 0; i < POSTS; i++) posted.push(await post(via(i), `${tag} ${i}`));
      })();
      try {
        // Cut off mid-stream, and straight back on the other node with the last seq it got.
        await within(30_000, "a quarter of the messages", () => (ours(gw.frames).length >= POSTS / 4 ? true : undefined));
        await gw.close();
        const seq = gw.lastSeq;
        onB = await resume(b, sessionId, seq);
        await posting;
        const resumed = onB;
        // Posted through both nodes, B may hear the last one before an earlier one from A:
        // wait for every message (one never sent fails here, by name), not the last alone.
        const seenOnB = () => new Set(messageIds([...gw.dispatches().filter((f) => f.s! <= seq), ...resumed.dispatches()]));
        await within(60_000, "every posted message on node B", () => (posted.every((id) => seenOnB().has(id)) ? true : undefined)).catch(
          (e: Error) => {
            // What B answered says which it was: a message lost, or the resume refused (op 9, a close).
            const missing = posted.filter((id) => !seenOnB().has(id));
            const head = resumed.frames.slice(0, 4).map((f) => `${f.op}${f.t ? `:${f.t}` : ""}`);
            throw new Error(
              `${e.message}: resumed from seq ${seq}, ${missing.length} of ${posted.length} missing (first at #${posted.indexOf(missing[0])}); ` +
                `B sent ${resumed.frames.length} frames, starting ${head.join(" ")}, close ${resumed.closeCode}`,
            );
          },
        );

        const before = gw.dispatches().filter((f) => f.s! <= seq);
        const frames = [...before, ...resumed.dispatches()];
        // Every frame numbered once, consecutively, from READY on.
        expect(frames.map((f) => f.s)).toEqual(frames.map((_, i) => i + 1));
        expect(frames.filter((f) => f.t === "RESUMED")).toHaveLength(1);
        const all = messageIds(frames);
        expect(new Set(all).size).toBe(all.length);
        const got = messageIds(ours(frames));
        expect(got.length).toBe(POSTS);
        expect(new Set(got).size).toBe(POSTS);
        expect([...got].sort()).toEqual([...posted].sort());
        if (ordered) expect(got).toEqual(posted);
      } finally {
        await posting.catch(() => {});
        await gw.close();
        await onB?.close();
      }
    }, 180_000);
});
