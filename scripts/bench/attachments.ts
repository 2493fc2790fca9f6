/**
 * A message with 10 attachments fanned out to bot sessions, beside a plain message
 * fanned out the same way (issue 31): the server's CPU per frame delivered, target
 * <= 1.2x the plain one's. Both Parley sides are gateway-side.ts's: half the bots hold
 * MESSAGE_CONTENT, so every message goes out in two views, half the frames carrying the
 * Attachment objects and half with them withheld.
 *
 * Beside them, in the same run, raw Bun publish of frames exactly as large as each
 * Parley side's two views, to the same two halves of as many sockets: the ceiling, what
 * the frames' bytes alone cost. A larger frame costs the kernel and Bun more per socket
 * whoever sends it, so the second reading printed is Parley's cost over raw publish of
 * its own frames, the attachment message's against the plain one's: what Parley adds
 * per frame, with the bytes' cost taken out.
 *
 * All four sides are up at once and measured in rounds, one burst each, the order
 * rotating every round, so a neighbour's spell of work on this shared machine lands on
 * all four alike. Each side's CPU per frame is pooled over its bursts; the ratios are
 * also given per round (their median and range show how steady the run was).
 *
 * The files are uploaded before the measurement (small PNGs, each slot filled and
 * flushed as a person's upload is): what is measured is sending a message that names
 * them and fanning it out, not the uploads. A person may hold 100 open slots, so the
 * messages are spread over enough people.
 *
 *   bun scripts/bench/attachments.ts [--sessions 1000] [--rounds 8] [--burst 25] [--trials 1] [--json]
 */
import { BENCH_TEXT, parleySide, type BenchGuild } from "./gateway-side";
import { heap, warmUp, type Setup, type Side } from "./paired";
import { Clients } from "./clients";
import { argOf, fmt, pct, printJson, type Row } from "./lib";
import { png } from "../../test/support/png";
import type { Parley } from "../../src/app";
import { messageJson } from "../../src/wire/serializers/message";
import { dispatchFrame } from "../../src/gateway/protocol";

const SESSIONS = argOf("sessions", 1000);
const ROUNDS = argOf("rounds", 8);
const BURST = argOf("burst", 25);
const TRIALS = argOf("trials", 1);
const FILES = 10;
const WARM = 50;
/** Messages one side sends in a trial: the warm-up's, then one burst a round. */
const MESSAGES = WARM + ROUNDS * BURST;
const PER_PERSON = 10; // 100 open slots a person / 10 files a message
const PEOPLE = Array.from({ length: Math.ceil(MESSAGES / PER_PERSON) }, (_, i) => `p${i}`);
const IMAGES = Array.from({ length: FILES }, (_, i) => png(64, 48, i));

/** A Parley sender, and the last message it sent (whose two views' frames the raw side copies). */
interface Sender {
  send: () => unknown;
  last: () => string;
}

/** Every message's ten files uploaded beforehand; each send names the next ten. */
async function withFiles({ p, channelId, people }: BenchGuild, out: (s: Sender) => void): Promise<() => unknown> {
  const ready: { author: string; uploads: string[] }[] = [];
  for (let m = 0; m < MESSAGES; m++) {
    const author = people[Math.floor(m / PER_PERSON)];
    const files = IMAGES.map((b, i) => ({ filename: `photo-${i}.png`, size: b.byteLength, description: `photo ${i}` }));
    const slots = p.core.media.openAttachments(author, channelId, files);
    for (const [i, s] of slots.entries()) await p.core.media.receive(author, s.id, IMAGES[i]);
    ready.push({ author, uploads: slots.map((s) => s.id) });
  }
  let last = "";
  const send = () => {
    const next = ready.shift();
    if (!next) throw new Error("the bench sent more messages than it prepared");
    last = p.core.messages.send(next.author, channelId, {
      content: BENCH_TEXT,
      attachments: next.uploads.map((uploadId) => ({ uploadId })),
    }).id;
  };
  out({ send, last: () => last });
  return send;
}

/** The plain side sends as the same people, one message each in turn. */
function plain({ p, channelId, people }: BenchGuild, out: (s: Sender) => void): () => unknown {
  let m = 0;
  let last = "";
  const send = () => {
    last = p.core.messages.send(people[Math.floor(m++ / PER_PERSON)], channelId, { content: BENCH_TEXT }).id;
  };
  out({ send, last: () => last });
  return send;
}

/**
 * The two frames a message went out as (with and without MESSAGE_CONTENT), serialized as
 * the gateway does, with a seq as long as the measured ones': what the raw side sends.
 */
function viewsOf(p: Parley, messageId: string): [string, string] {
  const row = p.core.messages.get(messageId)!;
  const model = p.core.reads.messages.message(row, { member: true, viewerId: null });
  const frame = (content: boolean) =>
    dispatchFrame("MESSAGE_CREATE", 100 + MESSAGES, JSON.stringify(messageJson(p.api.flakes, model, { content, gateway: true })));
  return [frame(true), frame(false)];
}

/** Parley with `sender`'s messages, and the two frames of the last one it sent. */
async function parley(sender: (g: BenchGuild, out: (s: Sender) => void) => unknown): Promise<Setup & { views: () => [string, string] }> {
  let app: Parley | null = null;
  let s: Sender | null = null;
  const setup = await parleySide(
    SESSIONS,
    (g) => {
      app = g.p;
      return sender(g, (x) => (s = x)) as (() => unknown) | Promise<() => unknown>;
    },
    PEOPLE,
  );
  return { ...setup, views: () => viewsOf(app!, s!.last()) };
}

/**
 * The ceiling: a raw Bun server whose sockets are split as the bots are (even ones get
 * the first frame, odd ones the second, as gateway-side.ts grants MESSAGE_CONTENT), each
 * message one publish per half.
 */
async function rawViews(n: number, [a, b]: [string, string]): Promise<Setup> {
  let next = 0;
  const server = Bun.serve<number>({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req, srv) => (srv.upgrade(req, { data: next++ % 2 }) ? undefined : new Response("no", { status: 400 })),
    websocket: {
      open(ws) {
        ws.subscribe(ws.data === 0 ? "a" : "b");
        ws.send("hello");
      },
      message() {},
    },
  });
  const clients = new Clients();
  const before = heap();
  const ready = clients.expect(n);
  await clients.connect(
    `ws://127.0.0.1:${server.port}/`,
    Array.from({ length: n }, () => null),
  );
  await ready;
  const send = () => {
    server.publish("a", a);
    server.publish("b", b);
  };
  return {
    side: { clients, sockets: n, send },
    memPerSocket: (heap() - before) / n,
    async stop() {
      await clients.close();
      server.stop(true);
    },
  };
}

interface Tally {
  cpuUs: number;
  /** The system's part of cpuUs (the kernel's socket writes, mostly). */
  sysUs: number;
  frames: number;
  ms: number;
  bytes: number;
  /** CPU per frame of each round's burst. */
  perRound: number[];
}

/** One burst of `size` messages on one side: its CPU (user + system, this process: all four servers, no clients), frames and time. */
async function burst(s: Side, size: number, into: Tally): Promise<void> {
  const [frames0, bytes0] = [s.clients.frames, s.clients.bytes];
  const arrived = s.clients.expect(s.sockets * size);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: size }, s.send));
  await arrived;
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const frames = s.sockets * size;
  into.ms += ms;
  into.cpuUs += cpu.user + cpu.system;
  into.sysUs += cpu.system;
  into.frames += frames;
  into.bytes += s.clients.bytes - bytes0;
  into.perRound.push((cpu.user + cpu.system) / frames);
  if (s.clients.frames - frames0 !== frames) throw new Error("a side received other frames than it was sent");
}

/** Sides in the order [files, plain, raw files, raw plain]. */
const NAMES = ["files", "plain", "raw files", "raw plain"] as const;

/** One trial: the four sides up at once, warmed, then ROUNDS rounds of one burst each in rotating order. */
async function trial(): Promise<Tally[]> {
  const files = await parley(withFiles);
  const bare = await parley(plain);
  await warmUp(files.side);
  await warmUp(bare.side);
  const [filesViews, plainViews] = [files.views(), bare.views()];
  const raws = [await rawViews(SESSIONS, filesViews), await rawViews(SESSIONS, plainViews)];
  for (const r of raws) await warmUp(r.side);
  const sides = [files.side, bare.side, raws[0].side, raws[1].side];
  const tallies: Tally[] = sides.map(() => ({ cpuUs: 0, sysUs: 0, frames: 0, ms: 0, bytes: 0, perRound: [] }));
  for (let r = 0; r < ROUNDS; r++) {
    // Rotated, and reversed every other round: no side always follows the same one.
    const order = [0, 1, 2, 3].map((k) => (k + r) % 4);
    if (r % 2) order.reverse();
    for (const k of order) await burst(sides[k], BURST, tallies[k]);
  }
  for (const s of [files, bare, ...raws]) await s.stop();
  return tallies;
}

const perFrame = (t: Tally) => t.cpuUs / t.frames;
const median = (xs: number[]) => pct(xs, 0.5);
const range = (xs: number[]) => `${fmt(Math.min(...xs), 2)}-${fmt(Math.max(...xs), 2)}`;

console.log(
  `MESSAGE_CREATE with ${FILES} attachments vs a plain message, ${SESSIONS} bot sessions each (half with MESSAGE_CONTENT), beside raw publish of the same frames; ${ROUNDS} rounds of ${BURST} messages a side, ${TRIALS} trial(s)`,
);
const trials: Tally[][] = [];
for (let i = 0; i < TRIALS; i++) trials.push(await trial());
// Pooled over trials: every trial ran as many bursts.
const pooled: Tally[] = NAMES.map((_, k) => ({
  cpuUs: trials.reduce((a, t) => a + t[k].cpuUs, 0),
  sysUs: trials.reduce((a, t) => a + t[k].sysUs, 0),
  frames: trials.reduce((a, t) => a + t[k].frames, 0),
  ms: trials.reduce((a, t) => a + t[k].ms, 0),
  bytes: trials.reduce((a, t) => a + t[k].bytes, 0),
  perRound: trials.flatMap((t) => t[k].perRound),
}));
const [f, b, rf, rb] = pooled.map(perFrame);
const roundRatio = (x: number, y: number) => pooled[x].perRound.map((v, r) => v / pooled[y].perRound[r]);
const filesOverPlain = roundRatio(0, 1);
const rawOverRaw = roundRatio(2, 3);
const overRaw = filesOverPlain.map((v, r) => v / rawOverRaw[r]);

console.log("side       | CPU us/frame | user + system | per round (min-max) | frame bytes | frames/s");
pooled.forEach((t, k) =>
  console.log(
    [
      NAMES[k].padEnd(10),
      fmt(perFrame(t), 3).padStart(12),
      `${fmt((t.cpuUs - t.sysUs) / t.frames, 2)} + ${fmt(t.sysUs / t.frames, 2)}`.padStart(13),
      range(t.perRound).padStart(19),
      fmt(t.bytes / t.frames).padStart(11),
      fmt(t.frames / (t.ms / 1000)).padStart(8),
    ].join(" | "),
  ),
);
console.log(
  `files / plain:                 ${fmt(f / b, 2)}x (rounds: median ${fmt(median(filesOverPlain), 2)}, ${range(filesOverPlain)}); target <= 1.2`,
);
console.log(`raw files / raw plain (bytes): ${fmt(rf / rb, 2)}x (rounds: median ${fmt(median(rawOverRaw), 2)}, ${range(rawOverRaw)})`);
console.log(
  `Parley over raw, per frame:    files ${fmt(f / rf, 2)}x (+${fmt(f - rf, 2)} us), plain ${fmt(b / rb, 2)}x (+${fmt(b - rb, 2)} us); files' over plain's ${fmt(f / rf / (b / rb), 2)}x (rounds: median ${fmt(median(overRaw), 2)}, ${range(overRaw)})`,
);

const bytes = (k: number) => fmt(pooled[k].bytes / pooled[k].frames);
const rows: Row[] = [
  {
    path: `fanout.attachments10: MESSAGE_CREATE with ${FILES} files, ${fmt(SESSIONS)} sockets (CPU/frame)`,
    parley: `${fmt(f, 2)} us/frame`,
    ceiling: `${fmt(b, 2)} us/frame (a plain message)`,
    ratio: b / f,
    target: "CPU <= 1.2x plain",
    met: f <= 1.2 * b,
    detail: `raw Bun publish of the same frames: ${fmt(rf, 2)} vs ${fmt(rb, 2)} us/frame (${fmt(rf / rb, 2)}x, the bytes alone); frames ${bytes(0)} B (plain ${bytes(1)} B); per round files/plain median ${fmt(median(filesOverPlain), 2)}x; four sides measured in rotating rounds, trials pooled`,
  },
  {
    path: `fanout.attachments10: Parley's CPU/frame over raw publish of its frames, files vs plain`,
    parley: `${fmt(f / rf, 2)}x raw (+${fmt(f - rf, 2)} us/frame)`,
    ceiling: `${fmt(b / rb, 2)}x raw (+${fmt(b - rb, 2)} us/frame) (a plain message)`,
    ratio: b / rb / (f / rf),
    target: "<= 1.2x plain's (bytes' cost taken out)",
    met: f / rf <= 1.2 * (b / rb),
    detail: `per round median ${fmt(median(overRaw), 2)}x (${range(overRaw)})`,
  },
];
printJson(rows);
process.exit(0);
