/**
 * Files' SHA-256 off the event loop (store/media-hash.ts): one worker an app starts when
 * it first hashes, fed each chunk once it is written (its buffer handed over when the
 * chunk is the whole of it, copied otherwise), several files at once told apart by id;
 * the event loop's own hasher when the worker cannot start or the switch is off; and a
 * worker that never keeps a process alive on its own, nor lets it end while a digest is
 * awaited.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hasher } from "../../src/store/media-hash";

const sha = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");
const hashers: Hasher[] = [];
afterEach(() => {
  for (const h of hashers.splice(0)) h.close();
});

function hasher(opts: ConstructorParameters<typeof Hasher>[0]): Hasher {
  const h = new Hasher(opts);
  hashers.push(h);
  return h;
}

function data(n: number, seed = 1): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7 + (i >> 9)) & 0xff;
  return b;
}

async function digestOf(h: Hasher, chunks: Uint8Array[], owned: boolean): Promise<string> {
  const d = await h.start();
  for (const c of chunks) await d.update(c, owned);
  return d.digest();
}

describe("the hashing worker", () => {
  test("answers what Bun.CryptoHasher answers, however the bytes are cut, and hashes in the worker", async () => {
    const h = hasher({ worker: true });
    const bytes = data(3 * 1024 * 1024 + 17);
    const expected = sha(bytes);
    expect(await digestOf(h, [bytes.slice()], true)).toBe(expected);
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < bytes.byteLength; at += 65_536) pieces.push(bytes.slice(at, at + 65_536));
    expect(await digestOf(h, pieces, true)).toBe(expected);
    expect(await digestOf(h, [], true)).toBe(sha(new Uint8Array()));
    expect(h.counts).toEqual({ worker: 3, inline: 0 });
  });

  test("hands over a chunk's buffer only when the chunk is the whole of it and it is the hasher's to take", async () => {
    const h = hasher({ worker: true });
    const bytes = data(200_000);
    const whole = bytes.slice();
    const d = await h.start();
    await d.update(whole, true);
    expect(whole.byteLength).toBe(0); // handed over, not copied
    const big = data(300_000, 2);
    const view = big.subarray(1000, 201_000);
    const d2 = await h.start();
    await d2.update(view, true);
    const caller = bytes.slice();
    await d2.update(caller, false);
    expect([view.byteLength, caller.byteLength]).toEqual([200_000, 200_000]); // copied: the caller keeps them
    const joined = new Uint8Array(400_000);
    joined.set(big.subarray(1000, 201_000));
    joined.set(bytes, 200_000);
    expect(await d.digest()).toBe(sha(bytes));
    expect(await d2.digest()).toBe(sha(joined));
  });

  test("several files at once are kept apart", async () => {
    const h = hasher({ worker: true });
    const files = Array.from({ length: 5 }, (_, i) => data(500_000 + i * 1000, i));
    const digests = await Promise.all(files.map(() => h.start()));
    for (let at = 0; at < 520_000; at += 40_000)
      for (const [i, f] of files.entries()) if (at < f.byteLength) await digests[i]!.update(f.slice(at, at + 40_000), true);
    expect(await Promise.all(digests.map((d) => d.digest()))).toEqual(files.map(sha));
  });

  test("hashes a file from its handle", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-hash-"));
    try {
      const bytes = data(2_500_000, 3);
      writeFileSync(join(dir, "f"), bytes);
      const fh = await open(join(dir, "f"), "r");
      try {
        expect(await hasher({ worker: true }).ofFile(fh)).toBe(sha(bytes));
      } finally {
        await fh.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a worker that cannot start: the same digests, on the event loop", async () => {
    const h = hasher({ worker: true, source: "throw new Error('no worker here')" });
    const bytes = data(100_000);
    const owned = bytes.slice();
    expect(await digestOf(h, [owned], true)).toBe(sha(bytes));
    expect(await digestOf(h, [bytes.slice(0, 10), bytes.slice(10)], true)).toBe(sha(bytes));
    expect(h.counts).toEqual({ worker: 0, inline: 2 });
  });

  test("switched off: never a worker", async () => {
    const h = hasher({ worker: false });
    const bytes = data(100_000);
    expect(await digestOf(h, [bytes.slice()], true)).toBe(sha(bytes));
    expect(h.counts).toEqual({ worker: 0, inline: 1 });
  });

  test("a closed hasher's digest under way fails, and nothing waits for it", async () => {
    const h = hasher({ worker: true });
    const d = await h.start();
    await d.update(data(1000), false);
    const pending = d.digest();
    h.close();
    await expect(pending).rejects.toThrow();
  });

  test("never keeps a process alive on its own, nor lets it end while a digest is awaited", async () => {
    const script = `
      import { Hasher } from ${JSON.stringify(join(import.meta.dir, "../../src/store/media-hash.ts"))};
      const h = new Hasher({ worker: true });
      // No top-level await: only the digest awaited keeps the process going.
      h.start().then((d) => {
        d.update(new Uint8Array(4 * 1024 * 1024).fill(7), true);
        d.digest().then((hex) => console.log(hex));
      });
    `;
    const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
    const killer = setTimeout(() => proc.kill("SIGKILL"), 20_000);
    const [code, out] = await Promise.all([proc.exited, new Response(proc.stdout).text()]);
    clearTimeout(killer);
    expect(code).toBe(0); // exited by itself, not killed
    expect(out.trim()).toBe(sha(new Uint8Array(4 * 1024 * 1024).fill(7)));
  }, 30_000);
});
