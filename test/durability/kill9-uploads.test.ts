/**
 * Files under kill -9 (issue 31): a child `parley serve` takes 20 concurrent uploads and
 * is killed with SIGKILL once some are acknowledged, others still in flight. After a
 * restart every acknowledged upload can be sent and serves its bytes exactly, and the
 * uploads cut short left nothing behind. An upload is answered before its bytes are
 * flushed (a killed process leaves them in the page cache, so they survive it); a message
 * that names one commits only once they are, and names them intact after a kill too.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const UPLOADS = 20;
const SIZE = 512 * 1024;
const MAIN = join(import.meta.dir, "../../src/main.ts");
const dir = mkdtempSync(join(tmpdir(), "parley-kill9-uploads-"));
const children: ReturnType<typeof Bun.spawn>[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

async function start(seed: boolean, data = "data"): Promise<{ proc: ReturnType<typeof Bun.spawn>; base: string; seeded: any }> {
  const args = [process.execPath, MAIN, "serve", "--port", "0", "--data", join(dir, data), "--rate-limits", "off"];
  if (seed) args.push("--seed", join(dir, "world.json"));
  const proc = Bun.spawn(args, { stdout: "pipe", stderr: "inherit" });
  children.push(proc);
  const reader = proc.stdout.getReader();
  let text = "";
  while (!/listening on (\S+)/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited before listening: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const seededLine = /seeded world: (.*)/.exec(text);
  return { proc, base: /listening on (\S+)/.exec(text)![1], seeded: seededLine ? JSON.parse(seededLine[1]) : null };
}

const sha = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

const WORLD = {
  users: [{ name: "alice", password: "correct horse battery" }],
  guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }] }],
};

/** The people's API of the server at `base`, as the person holding `token`. */
function peopleApi(token: string) {
  return async (base: string, method: string, path: string, body?: unknown) => {
    const r = await fetch(`${base}/api/client/v1${path}`, {
      method,
      headers: { Authorization: `Session ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json().catch(() => null)) as any };
  };
}

test(`kill -9 during ${UPLOADS} uploads: every acknowledged one is intact after restart`, async () => {
  writeFileSync(join(dir, "world.json"), JSON.stringify(WORLD));
  const first = await start(true);
  const token = first.seeded.users.alice.token as string;
  const auth = { Authorization: `Session ${token}` };
  const api = peopleApi(token);
  const guild = (await api(first.base, "GET", "/guilds")).body[0];
  const channel = guild.channels.find((c: { name: string }) => c.name === "general").id as string;

  const acked: { id: string; sha: string }[] = [];
  let killed = false;
  const one = async (i: number) => {
    const bytes = new Uint8Array(SIZE).map((_, k) => (k * 31 + i * 7) & 0xff);
    const slot = await api(first.base, "POST", `/channels/${channel}/attachments`, { files: [{ filename: `f${i}.bin`, size: SIZE }] });
    if (slot.status !== 200) return;
    const id = slot.body[0].id as string;
    // Slowly, in chunks, so some are still arriving when the kill lands.
    const body = new ReadableStream<Uint8Array>({
      async start(c) {
        for (let at = 0; at < SIZE; at += 64 * 1024) {
          c.enqueue(bytes.subarray(at, at + 64 * 1024));
          await Bun.sleep(5 + i * 3);
        }
        c.close();
      },
    });
    try {
      const r = await fetch(`${first.base}/api/client/v1/uploads/${id}`, {
        method: "PUT",
        headers: { ...auth, "Content-Length": String(SIZE) },
        body,
        duplex: "half",
      } as RequestInit);
      if (r.status === 200 && !killed) acked.push({ id, sha: sha(bytes) });
    } catch {
      // cut off by the kill
    }
  };
  const all = Array.from({ length: UPLOADS }, (_, i) => one(i));
  const deadline = Date.now() + 20_000;
  while (acked.length < 5 && Date.now() < deadline) await Bun.sleep(5);
  killed = true;
  first.proc.kill("SIGKILL");
  await first.proc.exited;
  await Promise.all(all);
  expect(acked.length).toBeGreaterThanOrEqual(5);
  expect(acked.length).toBeLessThan(UPLOADS); // the kill landed while uploads were in flight

  const again = await start(false);
  try {
    for (const a of acked) {
      const m = await api(again.base, "POST", `/channels/${channel}/messages`, { attachments: [{ upload_id: a.id }] });
      expect(m.status).toBe(200);
      const res = await fetch(`${again.base}${m.body.attachments[0].url}`);
      expect(sha(new Uint8Array(await res.arrayBuffer()))).toBe(a.sha);
    }
    // What was cut short is gone from the temporary directory once the server is up.
    const deadline2 = Date.now() + 5000;
    while (readdirSync(join(dir, "data", "media", "tmp")).length && Date.now() < deadline2) await Bun.sleep(20);
    expect(readdirSync(join(dir, "data", "media", "tmp"))).toEqual([]);
  } finally {
    again.proc.kill("SIGKILL");
    await again.proc.exited;
  }
}, 60_000);

test("a message posted right after its upload names intact bytes after a kill -9", async () => {
  writeFileSync(join(dir, "world.json"), JSON.stringify(WORLD));
  const first = await start(true, "data2");
  const token = first.seeded.users.alice.token as string;
  const api = peopleApi(token);
  const guild = (await api(first.base, "GET", "/guilds")).body[0];
  const channel = guild.channels.find((c: { name: string }) => c.name === "general").id as string;
  const sent: { message: string; sha: string }[] = [];
  for (let i = 0; i < 5; i++) {
    const bytes = new Uint8Array(2 * SIZE).map((_, k) => (k * 13 + i * 101) & 0xff);
    const slot = await api(first.base, "POST", `/channels/${channel}/attachments`, {
      files: [{ filename: `m${i}.bin`, size: bytes.byteLength }],
    });
    const id = slot.body[0].id as string;
    const put = await fetch(`${first.base}/api/client/v1/uploads/${id}`, {
      method: "PUT",
      headers: { Authorization: `Session ${token}` },
      body: bytes,
    });
    expect(put.status).toBe(200);
    // At once, while the upload's flush may still be under way.
    const m = await api(first.base, "POST", `/channels/${channel}/messages`, { attachments: [{ upload_id: id }] });
    expect(m.status).toBe(200);
    sent.push({ message: m.body.id, sha: sha(bytes) });
  }
  first.proc.kill("SIGKILL");
  await first.proc.exited;

  const again = await start(false, "data2");
  try {
    const page = await api(again.base, "GET", `/channels/${channel}/messages?limit=10`);
    expect(page.status).toBe(200);
    for (const s of sent) {
      const m = page.body.find((x: { id: string }) => x.id === s.message);
      const res = await fetch(`${again.base}${m.attachments[0].url}`);
      expect(sha(new Uint8Array(await res.arrayBuffer()))).toBe(s.sha);
    }
  } finally {
    again.proc.kill("SIGKILL");
    await again.proc.exited;
  }
}, 60_000);
