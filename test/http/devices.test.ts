/**
 * Devices for end-to-end encrypted DMs on the people's API: register public keys (shape
 * checked, never meaning), list and remove one's own, key backups, read a DM's devices
 * (both people, removed ones included), and who hears of a device; the harness's own
 * device per person.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { client, harness, internalId, peopleWorld, recordEvents, refusal, rowCounts } from "../helpers";
import { shapedEnvelope } from "../e2e-helpers";
import { b64u, createBackup, generateDeviceKeys, MAX_DEVICES, publicKeysOf } from "../../src/e2e";
import { LiveDispatcher } from "../../src/clientapi/live-events";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let alice: string;
let bob: string;
let carol: string;
let general: string;
let keys: { x25519: string | null; p256: string | null };

beforeEach(async () => {
  ({ p, w, alice, bob, carol, general } = peopleWorld());
  keys = await publicKeysOf(await generateDeviceKeys());
});

const register = (token: string, body: unknown = { name: "Laptop", keys }) => client(p, "POST", "/users/@me/devices", token, body);

describe("register, list, remove", () => {
  test("a device's public keys come back as registered; nothing secret is asked for", async () => {
    const ev = recordEvents(p);
    const r = await register(alice);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: expect.any(String),
      user_id: internalId(p, w.users.alice.id),
      name: "Laptop",
      keys,
      created_at: expect.any(String),
      removed_at: null,
      last_used_at: expect.any(String),
      backup: false,
    });
    expect(ev.of("device.added")).toEqual([{ type: "device.added", deviceId: r.body.id, userId: internalId(p, w.users.alice.id) }]);
    // One curve is enough (a platform without X25519 registers P-256 only); the name defaults.
    const p256Only = await register(alice, { keys: { p256: keys.p256 } });
    expect(p256Only.body).toMatchObject({ name: "Device", keys: { x25519: null, p256: keys.p256 } });
    expect((await client(p, "GET", "/users/@me/devices", alice)).body.map((d: any) => d.id)).toEqual([r.body.id, p256Only.body.id]);
    expect((await client(p, "GET", "/users/@me/devices", bob)).body).toEqual([]);
  });

  test("keys of the wrong shape, no key, a long name or extra fields are 400 50035 and write nothing", async () => {
    const before = rowCounts(p, ["devices"]);
    const cases: [unknown, string][] = [
      [{ keys: {} }, "keys"],
      [{ keys: { x25519: null, p256: null } }, "keys"],
      [{ keys: { x25519: keys.p256 } }, "keys.x25519"],
      [{ keys: { p256: b64u(new Uint8Array(65)) } }, "keys.p256"],
      [{ keys: { x25519: "not base64!" } }, "keys.x25519"],
      [{ keys: { x25519: `${keys.x25519}=` } }, "keys.x25519"],
      [{ name: "x".repeat(65), keys }, "name"],
      [{ keys: { ...keys, ed25519: "AAAA" } }, "keys"],
      [{ keys, private_key: "AAAA" }, "private_key"],
    ];
    for (const [body, field] of cases) {
      const r = await register(alice, body);
      expect({ field, r: refusal(r) }).toEqual({ field, r: [400, 50035] });
      expect(r.body.message).toContain(field);
    }
    expect(rowCounts(p, ["devices"])).toEqual(before);
    expect(refusal(await client(p, "POST", "/users/@me/devices", null, { keys }))).toEqual([401, 0]);
  });

  test(`at most ${MAX_DEVICES} current devices; removing one makes room; only one's own can be removed`, async () => {
    const made: string[] = [];
    for (let i = 0; i < MAX_DEVICES; i++) made.push((await register(alice)).body.id);
    const over = await register(alice);
    expect(refusal(over)).toEqual([400, 50035]);
    expect(over.body.message).toContain(`${MAX_DEVICES} devices`);
    expect(refusal(await client(p, "DELETE", `/users/@me/devices/${made[0]}`, bob))).toEqual([404, 10003]);
    expect(refusal(await client(p, "DELETE", "/users/@me/devices/not-an-id", alice))).toEqual([404, 10003]);
    const ev = recordEvents(p);
    const gone = await client(p, "DELETE", `/users/@me/devices/${made[0]}`, alice);
    expect(gone.status).toBe(204);
    expect(ev.count("device.removed")).toBe(1);
    expect(refusal(await client(p, "DELETE", `/users/@me/devices/${made[0]}`, alice))).toEqual([404, 10003]);
    expect((await client(p, "GET", "/users/@me/devices", alice)).body.length).toBe(MAX_DEVICES - 1);
    expect((await register(alice)).status).toBe(200);
  });
});

describe("key backups", () => {
  test("a backup is a device with sealed keys: shown only to its person, replaced by the next, kept for older messages", async () => {
    const { createBackup } = await import("../../src/e2e");
    const first = await createBackup("first passphrase here");
    const made = await register(bob, { name: "Key backup", keys: first.publicKeys, backup: first.sealed });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ name: "Key backup", backup: true });
    expect(made.body.sealed).toBeUndefined();
    const dm = (await client(p, "POST", "/users/@me/dms", alice, { recipient_id: internalId(p, w.users.bob.id) })).body.id;
    const seenByAlice = (await client(p, "GET", `/channels/${dm}/devices`, alice)).body;
    expect(seenByAlice).toEqual([expect.objectContaining({ id: made.body.id, backup: true })]);
    expect(JSON.stringify(seenByAlice)).not.toContain(first.sealed.split(".")[3]);

    const second = await createBackup("second passphrase here");
    const ev = recordEvents(p);
    const replaced = await register(bob, { name: "Key backup", keys: second.publicKeys, backup: second.sealed });
    expect(ev.of("device.removed")).toEqual([expect.objectContaining({ deviceId: made.body.id })]);
    expect((await client(p, "GET", "/users/@me/devices", bob)).body.map((d: any) => d.id)).toEqual([replaced.body.id]);
    const backups = await client(p, "GET", "/users/@me/key-backups", bob);
    expect(backups.body.map((b: any) => [b.id, b.sealed, b.removed_at === null])).toEqual([
      [replaced.body.id, second.sealed, true],
      [made.body.id, first.sealed, false],
    ]);
    expect((await client(p, "GET", "/users/@me/key-backups", alice)).body).toEqual([]);
    const bad = await register(bob, { keys: second.publicKeys, backup: "kb1.not.sealed" });
    expect(refusal(bad)).toEqual([400, 50035]);
    expect(bad.body.message).toContain("backup");
  });
});

describe("a DM's devices", () => {
  test("both people's devices, removed ones included; others and server channels are refused", async () => {
    const dm = (await client(p, "POST", "/users/@me/dms", alice, { recipient_id: internalId(p, w.users.bob.id) })).body.id;
    const a = (await register(alice)).body;
    const b1 = (await register(bob)).body;
    const b2 = (await register(bob)).body;
    await register(carol);
    await client(p, "DELETE", `/users/@me/devices/${b1.id}`, bob);
    const seen = await client(p, "GET", `/channels/${dm}/devices`, alice);
    expect(seen.status).toBe(200);
    expect(seen.body.map((d: any) => d.id).sort()).toEqual([a.id, b1.id, b2.id].sort());
    expect(seen.body.find((d: any) => d.id === b1.id).removed_at).toEqual(expect.any(String));
    expect((await client(p, "GET", `/channels/${dm}/devices`, bob)).body.length).toBe(3);
    expect(refusal(await client(p, "GET", `/channels/${dm}/devices`, carol))).toEqual([404, 10003]);
    expect(refusal(await client(p, "GET", `/channels/${general}/devices`, alice))).toEqual([400, 50035]);
    expect(refusal(await client(p, "GET", "/channels/01900000-0000-7000-8000-000000000000/devices", alice))).toEqual([404, 10003]);
  });

  test("a device change reaches its person and the people they share a DM with, no one else", async () => {
    await client(p, "POST", "/users/@me/dms", alice, { recipient_id: internalId(p, w.users.bob.id) });
    const ev = recordEvents(p);
    await register(bob);
    const live = new LiveDispatcher(p.core, null);
    const [d] = live.deliveriesFor(ev.of("device.added")[0] as never);
    expect([...d.users].sort()).toEqual([internalId(p, w.users.alice.id), internalId(p, w.users.bob.id)].sort());
    expect(JSON.parse(d.data(internalId(p, w.users.alice.id)))).toMatchObject({ user_id: internalId(p, w.users.bob.id), removed_at: null });
  });
});

describe("the harness's device per person", () => {
  test("made once per person, listed like any device, made again once removed; bots have none", async () => {
    const first = await harness(p, "POST", "/users/bob/device");
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ id: expect.any(String), created_at: expect.any(String) });
    expect((await harness(p, "POST", "/users/bob/device")).body.id).toBe(first.body.id);
    expect((await client(p, "GET", "/users/@me/devices", bob)).body).toMatchObject([{ id: first.body.id, name: "Harness" }]);
    expect(refusal(await harness(p, "POST", "/users/EchoBot/device"))).toEqual([400, 50035]);
    // Removed from a browser: the harness makes a new one when next needed.
    await client(p, "DELETE", `/users/@me/devices/${first.body.id}`, bob);
    const again = await harness(p, "POST", "/users/bob/device");
    expect(again.body.id).not.toBe(first.body.id);
  });

  test("reads say why a DM has no text: sent before the device, or not openable", async () => {
    const dm = (await client(p, "POST", "/users/@me/dms", alice, { recipient_id: internalId(p, w.users.bob.id) })).body.id;
    // Sent by a browser of alice's whose envelope names no harness device.
    const browser = (await register(alice)).body.id;
    await client(p, "POST", `/channels/${dm}/messages`, alice, { ciphertext: shapedEnvelope(128, [browser]) });
    const flake = p.api.flakes.of(dm);
    const before = await harness(p, "GET", `/channels/${flake}/messages?as=bob`);
    expect(before.body[0]).toMatchObject({ content: "", service_e2e_encrypted: true, service_e2e_state: "before_device" });
    await harness(p, "POST", "/users/alice/messages", { channel_id: flake, content: "readable" });
    await client(p, "POST", `/channels/${dm}/messages`, alice, { ciphertext: shapedEnvelope(128, [browser]) });
    const now = await harness(p, "GET", `/channels/${flake}/messages?as=bob`);
    expect(now.body.map((m: any) => [m.content, m.service_e2e_state])).toEqual([
      ["", "failed"],
      ["readable", "decrypted"],
      ["", "before_device"],
    ]);
  });
});

describe("a removed device", () => {
  test("its sends and edits are refused, and the session that held it ends; the remover's own session stays", async () => {
    const aliceId = internalId(p, w.users.alice.id);
    const dm = (await client(p, "POST", "/users/@me/dms", alice, { recipient_id: internalId(p, w.users.bob.id) })).body.id;
    const laptop = (await register(alice)).body.id;
    // A second browser of alice's: its own session, its own device.
    const phoneSession = p.core.sessions.open(aliceId, "Test").token;
    const phone = (await register(phoneSession)).body.id;
    const fromPhone = await client(p, "POST", `/channels/${dm}/messages`, phoneSession, { ciphertext: shapedEnvelope(128, [phone]) });
    expect(fromPhone.status).toBe(200);

    expect((await client(p, "DELETE", `/users/@me/devices/${phone}`, alice)).status).toBe(204);
    // The phone is signed out: whoever holds it learns nothing more and cannot register anew.
    expect(refusal(await client(p, "GET", "/users/@me", phoneSession))).toEqual([401, 0]);
    const before = rowCounts(p, ["messages"]);
    // Its envelopes are refused whoever posts them, and so are a device of someone else's and one never registered.
    const bobDevice = (await register(bob)).body.id;
    for (const from of [phone, bobDevice, "01900000-0000-7000-8000-00000000dead"]) {
      const r = await client(p, "POST", `/channels/${dm}/messages`, alice, { ciphertext: shapedEnvelope(128, [from, laptop]) });
      expect({ from, r: refusal(r) }).toEqual({ from, r: [400, 50035] });
      expect(r.body.message).toContain("current devices");
    }
    const edit = await client(p, "PATCH", `/channels/${dm}/messages/${fromPhone.body.id}`, alice, {
      ciphertext: shapedEnvelope(128, [phone]),
    });
    expect(refusal(edit)).toEqual([400, 50035]);
    expect(rowCounts(p, ["messages"])).toEqual(before);
    expect(p.core.messages.get(fromPhone.body.id)!.edited_at).toBeNull();
    // What the laptop sends still goes through, and alice's own session stays.
    expect((await client(p, "POST", `/channels/${dm}/messages`, alice, { ciphertext: shapedEnvelope(128, [laptop]) })).status).toBe(200);
    // Removing the device of the session one is in does not sign one out.
    await client(p, "DELETE", `/users/@me/devices/${laptop}`, alice);
    expect((await client(p, "GET", "/users/@me", alice)).status).toBe(200);
  });

  test("a browser signed in again claims its device for its new session; a key backup is held by none", async () => {
    const aliceId = internalId(p, w.users.alice.id);
    const first = p.core.sessions.open(aliceId, "Test").token;
    const tablet = (await register(first)).body.id;
    await client(p, "POST", "/auth/signout", first);
    const again = p.core.sessions.open(aliceId, "Test").token;
    expect(refusal(await client(p, "PUT", `/users/@me/devices/${tablet}/session`, bob))).toEqual([404, 10003]);
    expect((await client(p, "PUT", `/users/@me/devices/${tablet}/session`, again)).status).toBe(204);
    expect((await client(p, "DELETE", `/users/@me/devices/${tablet}`, alice)).status).toBe(204);
    expect(refusal(await client(p, "GET", "/users/@me", again))).toEqual([401, 0]);

    const backup = await createBackup("correct horse battery staple 9");
    const made = await client(p, "POST", "/users/@me/devices", alice, {
      name: "Key backup",
      keys: backup.publicKeys,
      backup: backup.sealed,
    });
    expect(refusal(await client(p, "PUT", `/users/@me/devices/${made.body.id}/session`, alice))).toEqual([400, 50035]);
    const other = p.core.sessions.open(aliceId, "Test").token;
    expect((await client(p, "DELETE", `/users/@me/devices/${made.body.id}`, other)).status).toBe(204);
    expect((await client(p, "GET", "/users/@me", alice)).status).toBe(200);
    expect((await client(p, "GET", "/users/@me", other)).status).toBe(200);
  });
});
