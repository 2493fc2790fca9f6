/** Signed attachment links (src/wire/files.ts): their shape and their signature, which links already handed out depend on. */
import { describe, expect, test } from "bun:test";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { FileLinks } from "../../src/wire/files";

const SERVER_KEY = new Uint8Array(32).map((_, i) => i * 7);
const HOUR_MS = 3_600_000;
const CHANNEL = "0b9d8f2e-0000-4000-8000-000000000001";
const ATTACHMENT = "0b9d8f2e-0000-4000-8000-000000000002";

function links(now: { t: number }) {
  return new FileLinks(SERVER_KEY, { base: "https://parley.test" }, { now: () => now.t }, 24 * HOUR_MS);
}

/** The signature as the scheme defines it: HMAC-SHA256 under a key derived from the server key, over the ids and both times. */
function expected(ex: string, is: string): string {
  const key = hmac(sha256, SERVER_KEY, new TextEncoder().encode("parley attachments v1"));
  return Buffer.from(hmac(sha256, key, new TextEncoder().encode(`${CHANNEL}/${ATTACHMENT}/${ex}/${is}`))).toString("hex");
}

describe("signed attachment links", () => {
  test("the signature is HMAC-SHA256 of the ids and times under the derived key, issued at the hour", () => {
    const now = { t: 1_700_000_123_456 };
    const sig = links(now).sign(CHANNEL, ATTACHMENT);
    const is = Math.floor(now.t / HOUR_MS) * 3600;
    expect(sig.is).toBe(is.toString(16));
    expect(sig.ex).toBe((is + 24 * 3600 + 3600).toString(16));
    expect(sig.hm).toBe(expected(sig.ex, sig.is));
  });

  test("every view within the hour signs alike, and the link carries the reference's query shape", () => {
    const now = { t: 1_700_000_000_000 };
    const l = links(now);
    const a = { id: ATTACHMENT, channel_id: CHANNEL, filename: "a b.png" };
    const first = l.attachment(a, null);
    now.t += 60_000;
    expect(l.attachment(a, null)).toBe(first);
    const s = l.sign(CHANNEL, ATTACHMENT);
    expect(first).toBe(`/attachments/${CHANNEL}/${ATTACHMENT}/a%20b.png?ex=${s.ex}&is=${s.is}&hm=${s.hm}&`);
  });

  test("verify takes its own signature and refuses another id, a changed byte, and an expired link", () => {
    const now = { t: 1_700_000_000_000 };
    const l = links(now);
    const s = l.sign(CHANNEL, ATTACHMENT);
    expect(l.verify(CHANNEL, ATTACHMENT, s)).toBe(true);
    expect(l.verify(CHANNEL, CHANNEL, s)).toBe(false);
    expect(l.verify(CHANNEL, ATTACHMENT, { ...s, hm: (s.hm[0] === "0" ? "1" : "0") + s.hm.slice(1) })).toBe(false);
    now.t = parseInt(s.ex, 16) * 1000 + 1;
    expect(l.verify(CHANNEL, ATTACHMENT, s)).toBe(false);
  });
});
