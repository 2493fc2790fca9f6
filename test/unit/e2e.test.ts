/**
 * The end-to-end scheme (src/e2e) on its own: every client runs this code, so what it
 * promises is checked here once: who can read, padding to buckets, tampering detected,
 * the "before this device" case, the envelope's shape rules and the fingerprints.
 */
import { describe, expect, test } from "bun:test";
import {
  BUCKETS,
  b64u,
  envelopeProblem,
  fromB64u,
  generateDeviceKeys,
  openMessage,
  pad,
  parseEnvelope,
  publicKeyProblem,
  publicKeysOf,
  safetyNumber,
  deviceFingerprint,
  sealMessage,
  unpad,
  type DeviceInfo,
  type DeviceKeys,
  type OwnDevice,
} from "../../src/e2e";

let n = 0;
const uuid = () => `0190${String(++n).padStart(4, "0")}-0000-7000-8000-000000000000`;

async function device(userId: string, createdAt = 1000, only?: "x25519" | "p256"): Promise<{ own: OwnDevice; info: DeviceInfo }> {
  const all = await generateDeviceKeys();
  const keys: DeviceKeys = only ? { [only]: all[only] } : all;
  const id = uuid();
  const pub = await publicKeysOf(keys);
  return { own: { id, keys, created_at: createdAt }, info: { id, user_id: userId, keys: pub, created_at: createdAt, removed_at: null } };
}

const ALICE = "01900000-0000-7000-8000-00000000000a";
const BOB = "01900000-0000-7000-8000-00000000000b";
const CAROL = "01900000-0000-7000-8000-00000000000c";
const DM = "01900000-0000-7000-8000-0000000000d1";
const PEOPLE = [ALICE, BOB];
const meta = (o: Partial<{ channelId: string; authorId: string; messageId: string; createdAt: number; edited: boolean }> = {}) => ({
  channelId: DM,
  authorId: ALICE,
  messageId: "01900000-0000-7000-8000-0000000000e1",
  createdAt: 2000,
  edited: false,
  ...o,
});

describe("sealing and opening", () => {
  test("both people's devices read it; a third person's device and a device added later do not", async () => {
    const a = await device(ALICE);
    const b = await device(BOB);
    const b2 = await device(BOB);
    const c = await device(CAROL);
    const devices = [a.info, b.info, b2.info];
    const ct = await sealMessage("hello bob 👋", { channelId: DM, authorId: ALICE, editOf: null }, a.own, devices, PEOPLE);
    expect(ct).not.toContain("hello");
    for (const d of [a, b, b2]) expect(await openMessage(ct, meta(), d.own, devices)).toEqual({ state: "ok", text: "hello bob 👋" });
    expect((await openMessage(ct, meta(), c.own, [...devices, c.info])).state).toBe("failed");
    const later = await device(BOB, 5000);
    expect(await openMessage(ct, meta(), later.own, [...devices, later.info])).toEqual({ state: "before_device" });
    // Only the devices it was sealed for are named in it.
    const env = parseEnvelope(ct);
    expect(env.ok && env.envelope.wraps.map((w) => w.device).sort()).toEqual(devices.map((d) => d.id).sort());
  });

  test("removed devices get no key; devices without X25519 exchange keys on P-256", async () => {
    const a = await device(ALICE);
    const old = await device(BOB);
    const p256Only = await device(BOB, 1000, "p256");
    expect(p256Only.info.keys.x25519).toBeNull();
    const devices = [a.info, { ...old.info, removed_at: 1500 }, p256Only.info];
    const ct = await sealMessage("on p-256", { channelId: DM, authorId: ALICE, editOf: null }, a.own, devices, PEOPLE);
    expect(await openMessage(ct, meta(), p256Only.own, devices)).toEqual({ state: "ok", text: "on p-256" });
    expect((await openMessage(ct, meta(), old.own, devices)).state).toBe("failed");
  });

  test("any changed byte, a moved or re-attributed message, or a forged edit is 'failed', never other text", async () => {
    const a = await device(ALICE);
    const b = await device(BOB);
    const devices = [a.info, b.info];
    const ct = await sealMessage("the original", { channelId: DM, authorId: ALICE, editOf: null }, a.own, devices, PEOPLE);
    const parts = ct.split(".");
    const flip = (s: string, i: number) => {
      const bytes = fromB64u(s)!;
      bytes[i] ^= 1;
      return b64u(bytes);
    };
    const variants = [
      [parts[0], parts[1], flip(parts[2], 0), ...parts.slice(3)].join("."), // nonce
      [...parts.slice(0, 3), flip(parts[3], 7), ...parts.slice(4)].join("."), // body
      [...parts.slice(0, 3), flip(parts[3], fromB64u(parts[3])!.length - 1), ...parts.slice(4)].join("."), // tag
      [...parts.slice(0, 4), ...parts.slice(4).map((w) => `${w.split(":")[0]}:${flip(w.split(":")[1], 3)}`)].join("."), // wraps
    ];
    for (const v of variants) expect((await openMessage(v, meta(), b.own, devices)).state).toBe("failed");
    expect((await openMessage(ct, meta({ channelId: "01900000-0000-7000-8000-0000000000d2" }), b.own, devices)).state).toBe("failed");
    expect((await openMessage(ct, meta({ authorId: BOB }), b.own, devices)).state).toBe("failed");
    expect((await openMessage(ct, meta({ edited: true }), b.own, devices)).state).toBe("failed");
    // A sending device the author does not own.
    const stranger = { ...a.info, user_id: CAROL };
    expect((await openMessage(ct, meta(), b.own, [stranger, b.info])).state).toBe("failed");
    // An edit is bound to the message it replaces.
    const edit = await sealMessage("edited", { channelId: DM, authorId: ALICE, editOf: meta().messageId }, a.own, devices, PEOPLE);
    expect(await openMessage(edit, meta({ edited: true }), b.own, devices)).toEqual({ state: "ok", text: "edited" });
    expect((await openMessage(edit, meta({ edited: true, messageId: "01900000-0000-7000-8000-0000000000e2" }), b.own, devices)).state).toBe(
      "failed",
    );
  });
});

describe("padding", () => {
  test("every text fills a whole bucket, and only what pad wrote unpads", () => {
    for (const [text, size] of [
      ["", 128],
      ["hi", 128],
      ["x".repeat(123), 128],
      ["x".repeat(124), 256],
      ["é".repeat(2000), 4096],
      ["😀".repeat(1000), 4096],
      ["€".repeat(2000), 8192],
    ] as const) {
      const block = pad(text)!;
      expect(block.length).toBe(size);
      expect(unpad(block)).toBe(text);
    }
    expect(pad("x".repeat(8188))).toBeNull();
    const block = pad("hi")!;
    block[100] = 1;
    expect(unpad(block)).toBeNull();
    expect(BUCKETS.length).toBeGreaterThan(3);
  });

  test("two texts of one bucket make envelopes of one length", async () => {
    const a = await device(ALICE);
    const devices = [a.info];
    const short = await sealMessage("ok", { channelId: DM, authorId: ALICE, editOf: null }, a.own, devices, PEOPLE);
    const longer = await sealMessage(
      "a much longer message, still in the first bucket",
      { channelId: DM, authorId: ALICE, editOf: null },
      a.own,
      devices,
      PEOPLE,
    );
    expect(short.length).toBe(longer.length);
  });
});

describe("the envelope's shape (what the server checks)", () => {
  test("a sealed message passes; malformed ones name their problem", async () => {
    const a = await device(ALICE);
    const ct = await sealMessage("shape", { channelId: DM, authorId: ALICE, editOf: null }, a.own, [a.info], PEOPLE);
    expect(envelopeProblem(ct)).toBeNull();
    const [v, from, nonce, body, wrap] = ct.split(".");
    expect(envelopeProblem(["dm2", from, nonce, body, wrap].join("."))).toContain("not a dm1");
    expect(envelopeProblem([v, "me", nonce, body, wrap].join("."))).toContain("sending device");
    expect(envelopeProblem([v, from, nonce + "A", body, wrap].join("."))).toContain("nonce");
    expect(envelopeProblem([v, from, nonce, body.slice(4), wrap].join("."))).toContain("body");
    expect(envelopeProblem([v, from, nonce, body].join("."))).toContain("wrapped keys");
    expect(envelopeProblem([v, from, nonce, body, wrap, wrap].join("."))).toContain("two wrapped keys");
    expect(envelopeProblem([v, from, nonce, body.replace(/.$/, "+"), wrap].join("."))).toContain("base64url");
    expect(envelopeProblem("v1.aXY.Y2lwaGVy")).toContain("not a dm1");
  });

  test("public keys: the right size and encoding per curve", async () => {
    const pub = await publicKeysOf(await generateDeviceKeys());
    expect(publicKeyProblem("x25519", pub.x25519!)).toBeNull();
    expect(publicKeyProblem("p256", pub.p256!)).toBeNull();
    expect(publicKeyProblem("x25519", pub.p256!)).toContain("length");
    expect(publicKeyProblem("p256", b64u(new Uint8Array(65)))).toContain("uncompressed");
  });
});

describe("fingerprints", () => {
  test("the safety number is the same on both sides and changes with a new device", async () => {
    const a = await device(ALICE);
    const b = await device(BOB);
    const n1 = await safetyNumber([a.info, b.info]);
    expect(n1).toMatch(/^\d{5}( \d{5}){5}$/);
    expect(await safetyNumber([b.info, a.info])).toBe(n1);
    const b2 = await device(BOB);
    expect(await safetyNumber([a.info, b.info, b2.info])).not.toBe(n1);
    expect(await deviceFingerprint(a.info.keys)).toMatch(/^[0-9a-f]{4}( [0-9a-f]{4}){3}$/);
  });
});

describe("key backup", () => {
  test("the passphrase opens the sealed keys, which open what was sealed for the backup; nothing else does", async () => {
    const { createBackup, openBackup, backupProblem } = await import("../../src/e2e");
    const b = await createBackup("a long enough passphrase");
    expect(backupProblem(b.sealed)).toBeNull();
    expect(b.sealed).not.toContain("passphrase");
    const backupInfo = { id: uuid(), user_id: BOB, keys: b.publicKeys, created_at: 1000, removed_at: null };
    const a = await device(ALICE);
    const devices = [a.info, backupInfo];
    const ct = await sealMessage("kept for later", { channelId: DM, authorId: ALICE, editOf: null }, a.own, devices, PEOPLE);
    const keys = await openBackup(b.sealed, "a long enough passphrase", b.publicKeys);
    expect(keys).not.toBeNull();
    expect(await openMessage(ct, meta(), { id: backupInfo.id, keys: keys!, created_at: 1000 }, devices)).toEqual({
      state: "ok",
      text: "kept for later",
    });
    expect(keys!.x25519!.privateKey.extractable).toBe(false);
    expect(await openBackup(b.sealed, "the wrong passphrase!", b.publicKeys)).toBeNull();
    // Bound to its public keys: the server cannot pass it off as another backup's.
    expect(await openBackup(b.sealed, "a long enough passphrase", a.info.keys)).toBeNull();
    const [v, salt, iv, body] = b.sealed.split(".");
    const bytes = fromB64u(body)!;
    bytes[0] ^= 1;
    expect(await openBackup([v, salt, iv, b64u(bytes)].join("."), "a long enough passphrase", b.publicKeys)).toBeNull();
    expect(backupProblem("kb2.x.y.z")).toContain("not a kb1");
    expect(backupProblem([v, salt.slice(1), iv, body].join("."))).toContain("salt");
  });
});
