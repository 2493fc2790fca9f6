/**
 * Files (issue 31), against Parley from source in a child process (servers/files.ts) and
 * beside a bare Bun server in another (the ceiling, the same transport):
 * - media.upload10mb: a 10 MiB upload through the people's API (open the slot, PUT the
 *   bytes; Parley writes them under the slot's name, sniffs them and commits the slot's
 *   row before it answers, then hashes them in its worker thread, moves them under their
 *   hash and flushes them behind the answer) beside a PUT whose body the bare server
 *   writes to a new file with Bun.write; target >= 0.8. After each of Parley's uploads,
 *   outside the timing, a message names the file: it waits for the work behind the
 *   answer, so that work is never timed on the other side's round;
 * - media.download10mb: the 10 MiB attachment fetched from its signed link beside a bare
 *   Bun.file response; target >= 0.8;
 * - media.download100: 100 concurrent downloads of it, the server's peak resident memory
 *   above its idle; target <= 20 MB (the bare server's printed beside it).
 * The sides alternate round by round, so a neighbour's spell of work lands on both; the
 * best round of each is kept. Loopback only; both children are killed at the end.
 *   bun scripts/bench/media.ts [--rounds 5] [--downloads 8] [--concurrent 100] [--json]
 */
import { argOf, fmt, report, rssMiB, startChild, type Child, type Row } from "./lib";

const MIB = 1024 * 1024;
const SIZE = 10 * MIB;
const ROUNDS = argOf("rounds", 5);
const DOWNLOADS = argOf("downloads", 8);
const CONCURRENT = argOf("concurrent", 100);
const API = "/api/client/v1";

interface ParleyInfo {
  port: number;
  token: string;
  channel: string;
}

const bytes = new Uint8Array(SIZE);
for (let i = 0; i < SIZE; i += 4096) bytes[i] = (i / 4096) & 0xff;

function api(info: ParleyInfo, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`http://127.0.0.1:${info.port}${API}${path}`, {
    method,
    headers: { Authorization: `Session ${info.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function ok(r: Response): Promise<Response> {
  if (!r.ok) throw new Error(`${r.url}: ${r.status} ${await r.text()}`);
  return r;
}

/** A person's upload of `data`: open a slot, PUT the bytes; answers the slot's id once the server acknowledged them. */
async function parleyUpload(info: ParleyInfo, data: Uint8Array<ArrayBuffer>, filename: string): Promise<string> {
  const slot = await ok(await api(info, "POST", `/channels/${info.channel}/attachments`, { files: [{ filename, size: data.byteLength }] }));
  const [{ id }] = (await slot.json()) as { id: string }[];
  await ok(
    await fetch(`http://127.0.0.1:${info.port}${API}/uploads/${id}`, {
      method: "PUT",
      headers: { Authorization: `Session ${info.token}`, "Content-Type": "application/octet-stream" },
      body: data,
    }),
  );
  return id;
}

/** Fetch a URL, reading (and dropping) the body as it streams; answers the bytes read. */
async function drain(url: string): Promise<number> {
  const r = await fetch(url);
  if (!r.ok || !r.body) throw new Error(`${url}: ${r.status}`);
  const reader = r.body.getReader();
  let n = 0;
  for (let c = await reader.read(); !c.done; c = await reader.read()) n += c.value.byteLength;
  return n;
}

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await f();
  return (performance.now() - t0) / 1000;
}

/** MiB/s of one side's best round. */
const best = (secs: number[], mib: number) => mib / Math.min(...secs);

async function uploads(parley: Child<ParleyInfo>, bare: Child<{ port: number }>): Promise<[number, number]> {
  const sides: [number[], number[]] = [[], []];
  for (let r = 0; r < ROUNDS; r++) {
    const data = bytes.slice();
    data[1] = r; // fresh bytes every round: nothing is stored already
    const bareUrl = `http://127.0.0.1:${bare.info.port}/`;
    for (const k of r % 2 ? [1, 0] : [0, 1]) {
      if (k === 1) {
        sides[1].push(await timed(async () => ok(await fetch(bareUrl, { method: "PUT", body: data }))));
        continue;
      }
      let id = "";
      sides[0].push(await timed(async () => (id = await parleyUpload(parley.info, data, `round-${r}.bin`))));
      // Outside the timing: a message naming the file, which waits for what runs behind the
      // answer (hashing, placing, flushing), so none of it lands on the next side's round.
      const sent = await api(parley.info, "POST", `/channels/${parley.info.channel}/messages`, { attachments: [{ upload_id: id }] });
      await ok(sent);
    }
  }
  return [best(sides[0], 10), best(sides[1], 10)];
}

async function downloads(parleyUrl: string, bareUrl: string): Promise<[number, number]> {
  const sides: [number[], number[]] = [[], []];
  const round = (url: string) => timed(() => Promise.all(Array.from({ length: DOWNLOADS }, () => drain(url))));
  await round(parleyUrl); // warm both: the first read of a file is the disk's, not the server's
  await round(bareUrl);
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? [1, 0] : [0, 1];
    for (const k of order) sides[k].push(await round(k === 0 ? parleyUrl : bareUrl));
  }
  return [best(sides[0], 10 * DOWNLOADS), best(sides[1], 10 * DOWNLOADS)];
}

/** The server's resident memory at its peak during CONCURRENT downloads at once, above its idle before them, MiB. */
async function concurrentRss(pid: number, url: string): Promise<{ above: number; idle: number }> {
  await Bun.sleep(200);
  const idle = rssMiB(pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 5);
  const read = await Promise.all(Array.from({ length: CONCURRENT }, () => drain(url)));
  clearInterval(sampler);
  peak = Math.max(peak, rssMiB(pid));
  if (read.some((n) => n !== SIZE)) throw new Error("a download came back short");
  return { above: peak - idle, idle };
}

const parley = await startChild<ParleyInfo>("servers/files.ts", ["parley"]);
const bare = await startChild<{ port: number }>("servers/files.ts", ["bare"]);
try {
  const [upP, upB] = await uploads(parley, bare);
  // The file to download: a person's message names it; its link is signed.
  const id = await parleyUpload(parley.info, bytes, "big.bin");
  const sent = await ok(await api(parley.info, "POST", `/channels/${parley.info.channel}/messages`, { attachments: [{ upload_id: id }] }));
  const url = ((await sent.json()) as { attachments: { url: string }[] }).attachments[0].url;
  const parleyUrl = url.startsWith("http") ? url : `http://127.0.0.1:${parley.info.port}${url}`;
  await ok(await fetch(`http://127.0.0.1:${bare.info.port}/`, { method: "PUT", body: bytes }));
  const bareUrl = `http://127.0.0.1:${bare.info.port}/`;
  if ((await drain(parleyUrl)) !== SIZE) throw new Error("Parley served another size");
  const [downP, downB] = await downloads(parleyUrl, bareUrl);
  const memP = await concurrentRss(parley.proc.pid, parleyUrl);
  const memB = await concurrentRss(bare.proc.pid, bareUrl);
  const rows: Row[] = [
    {
      path: "media.upload10mb: a 10 MiB upload (people's API)",
      parley: `${fmt(upP)} MiB/s`,
      ceiling: `${fmt(upB)} MiB/s (PUT, Bun.write)`,
      ratio: upP / upB,
      target: ">= 0.8",
      met: upP / upB >= 0.8,
      detail: `best of ${ROUNDS} each, alternating; Parley sniffs before answering, hashes (worker), places and flushes behind`,
    },
    {
      path: "media.download10mb: a 10 MiB attachment",
      parley: `${fmt(downP)} MiB/s`,
      ceiling: `${fmt(downB)} MiB/s (bare Bun.file)`,
      ratio: downP / downB,
      target: ">= 0.8",
      met: downP / downB >= 0.8,
      detail: `${DOWNLOADS} at once, best of ${ROUNDS} each, alternating; signed link`,
    },
    {
      path: `media.download100: ${CONCURRENT} concurrent 10 MiB downloads (RSS)`,
      parley: `+${fmt(memP.above, 1)} MiB (idle ${fmt(memP.idle)} MiB)`,
      ceiling: `+${fmt(memB.above, 1)} MiB (bare Bun.file, idle ${fmt(memB.idle)} MiB)`,
      ratio: null,
      target: "<= 20 MB above idle",
      met: memP.above * MIB <= 20e6,
      detail: "peak resident memory sampled every 5 ms",
    },
  ];
  report(rows);
} finally {
  await parley.stop();
  await bare.stop();
}
process.exit(0);
