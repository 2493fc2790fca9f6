/**
 * Behind a reverse proxy every client has the proxy's address. With --trusted-proxy the
 * per-address sign-in throttle counts each client by the X-Forwarded-For the proxy wrote;
 * without it, a header counts for nothing (a client could otherwise name itself anyone).
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SIGN_IN_PER_ADDRESS } from "../../src/clientapi/limits";
import { serve } from "./support";

const dir = mkdtempSync(join(tmpdir(), "parley-trusted-proxy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One failed sign-in as `forwardedFor` (a new name each time: only the address's count grows); answers its status. */
let n = 0;
async function guess(base: string, forwardedFor: string): Promise<number> {
  const r = await fetch(`${base}/api/client/v1/auth/signin`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": forwardedFor },
    body: JSON.stringify({ username: `nobody${n++}`, password: "not-the-password" }),
  });
  await r.text();
  return r.status;
}

/** Uses up one client's free sign-ins; answers the status of the next one. */
async function throttled(base: string, forwardedFor: string): Promise<number> {
  for (let i = 0; i <= SIGN_IN_PER_ADDRESS.free; i++) expect(await guess(base, forwardedFor)).not.toBe(429);
  return guess(base, forwardedFor);
}

test("with --trusted-proxy, each client behind the proxy has its own sign-in count", async () => {
  const s = await serve(["--port", "0", "--data", join(dir, "trusted"), "--trusted-proxy", "127.0.0.1,::1"]);
  try {
    expect(await throttled(s.base, "203.0.113.1")).toBe(429);
    expect(await guess(s.base, "203.0.113.2")).not.toBe(429);
    // What a client wrote itself before the proxy's hop does not count.
    expect(await guess(s.base, "203.0.113.2, 203.0.113.1")).toBe(429);
  } finally {
    expect(await s.stop()).toBe(0);
  }
}, 60_000);

test("without it, X-Forwarded-For is ignored: the peer's address counts", async () => {
  const s = await serve(["--port", "0", "--data", join(dir, "plain")]);
  try {
    expect(await throttled(s.base, "203.0.113.1")).toBe(429);
    expect(await guess(s.base, "203.0.113.2")).toBe(429);
  } finally {
    expect(await s.stop()).toBe(0);
  }
}, 60_000);
