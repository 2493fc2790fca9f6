/**
 * A message with 10 attachments fanned out to bot sessions, beside a plain message
 * fanned out the same way (issue 31): the server's CPU per frame delivered, target
 * <= 1.2x the plain one's. Both sides are Parley (gateway-side.ts: half the bots hold
 * MESSAGE_CONTENT, so half the frames carry the Attachment objects and half have them
 * withheld), both up at once and measured alternately (paired.ts).
 *
 * The files are uploaded before the measurement (small PNGs, each slot filled and flushed
 * as a person's upload is): what is measured is sending a message that names them and
 * fanning it out, not the uploads. A person may hold 100 open slots, so the messages are
 * spread over enough people. Beside them, raw Bun publish of frames of both sizes,
 * measured the same way: how much of the difference the frames' bytes alone make.
 *
 *   bun scripts/bench/attachments.ts [--sessions 1000] [--messages 100] [--bursts 4] [--trials 1] [--json]
 */
import { BENCH_TEXT, parleySide, type BenchGuild } from "./gateway-side";
import { frameOf, paired, pool, rawSide, resultLine, warmUp, type SideResult } from "./paired";
import { argOf, fmt, pct, printJson, type Row } from "./lib";
import { png } from "../../test/support/png";

const SESSIONS = argOf("sessions", 1000);
const OPTIONS = { messages: argOf("messages", 100), bursts: argOf("bursts", 4), burst: 50 };
const TRIALS = argOf("trials", 1);
const FILES = 10;
/** Messages one side sends in a trial: the warm-up's 50, then the paired measurement's. */
const MESSAGES = 50 + OPTIONS.messages + OPTIONS.bursts * OPTIONS.burst;
const PER_PERSON = 10; // 100 open slots a person / 10 files a message
const PEOPLE = Array.from({ length: Math.ceil(MESSAGES / PER_PERSON) }, (_, i) => `p${i}`);
const IMAGES = Array.from({ length: FILES }, (_, i) => png(64, 48, i));

/** Every message's ten files uploaded beforehand; each send names the next ten. */
async function withFiles({ p, channelId, people }: BenchGuild): Promise<() => unknown> {
  const ready: { author: string; uploads: string[] }[] = [];
  for (let m = 0; m < MESSAGES; m++) {
    const author = people[Math.floor(m / PER_PERSON)];
    const files = IMAGES.map((b, i) => ({ filename: `photo-${i}.png`, size: b.byteLength, description: `photo ${i}` }));
    const slots = p.core.media.openAttachments(author, channelId, files);
    for (const [i, s] of slots.entries()) await p.core.media.receive(author, s.id, IMAGES[i]);
    ready.push({ author, uploads: slots.map((s) => s.id) });
  }
  return () => {
    const next = ready.shift();
    if (!next) throw new Error("the bench sent more messages than it prepared");
    p.core.messages.send(next.author, channelId, { content: BENCH_TEXT, attachments: next.uploads.map((uploadId) => ({ uploadId })) });
  };
}

/** The plain side sends as the same people, one message each in turn. */
function plain({ p, channelId, people }: BenchGuild): () => unknown {
  let m = 0;
  return () => void p.core.messages.send(people[Math.floor(m++ / PER_PERSON)], channelId, { content: BENCH_TEXT });
}

/** Both Parley sides, then raw publish of frames as large as each side's: [files, plain, raw large, raw small]. */
async function trial(): Promise<SideResult[]> {
  const files = await parleySide(SESSIONS, withFiles, PEOPLE);
  const bare = await parleySide(SESSIONS, plain, PEOPLE);
  const sizes = [await warmUp(files.side), await warmUp(bare.side)];
  const result = await paired(files.side, bare.side, OPTIONS);
  await files.stop();
  await bare.stop();
  const frame = (bytes: number) => frameOf(bytes, (d) => JSON.stringify({ op: 0, s: 100, t: "MESSAGE_CREATE", d }));
  const [large, small] = [await rawSide(SESSIONS, "hello", frame(sizes[0])), await rawSide(SESSIONS, "hello", frame(sizes[1]))];
  const raw = await paired(large.side, small.side, OPTIONS);
  await large.stop();
  await small.stop();
  return [...result, ...raw];
}

console.log(
  `MESSAGE_CREATE with ${FILES} attachments vs a plain message, ${SESSIONS} bot sessions each (half with MESSAGE_CONTENT), measured alternately; ${TRIALS} trial(s)`,
);
console.log(
  "sessions | files frames/s | plain frames/s | ratio | files p50/p99 ms | plain p50/p99 ms | frame bytes | files CPU us/frame | plain CPU us/frame",
);
const trials: SideResult[][] = [];
for (let i = 0; i < TRIALS; i++) trials.push(await trial());
const [f, b, rawLarge, rawSmall] = [0, 1, 2, 3].map((k) => pool(trials.map((t) => t[k])));
console.log(resultLine(SESSIONS, f, b));
const ratio = b.cpuUsPerFrame / f.cpuUsPerFrame;
const rows: Row[] = [
  {
    path: `fanout.attachments10: MESSAGE_CREATE with ${FILES} files, ${fmt(SESSIONS)} sockets (CPU/frame)`,
    parley: `${fmt(f.cpuUsPerFrame, 2)} us/frame`,
    ceiling: `${fmt(b.cpuUsPerFrame, 2)} us/frame (a plain message)`,
    ratio,
    target: "CPU <= 1.2x plain",
    met: f.cpuUsPerFrame <= 1.2 * b.cpuUsPerFrame,
    detail: `raw Bun publish of frames these sizes: ${fmt(rawLarge.cpuUsPerFrame, 2)} vs ${fmt(rawSmall.cpuUsPerFrame, 2)} us/frame; ${fmt(f.framesPerSec)} frames/s (plain ${fmt(b.framesPerSec)}); frames ${f.frameBytes} B (plain ${b.frameBytes} B); p99 ${fmt(pct(f.lat, 0.99), 1)} ms (plain ${fmt(pct(b.lat, 0.99), 1)})`,
  },
];
printJson(rows);
process.exit(0);
