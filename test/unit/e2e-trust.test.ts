/**
 * The scheme against a lying server (src/e2e/trust.ts, and the checks in sealMessage and
 * openMessage): a client seals only for the DM's two people, pins each device's keys on
 * first sight and never takes a changed key, announces a device that appears later, keeps
 * the safety number of what it pinned, and does not take a removed device's later
 * message as its author's.
 */
import { describe, expect, test } from "bun:test";
import {
  acknowledge,
  currentPins,
  emptyTrust,
  generateDeviceKeys,
  noticesFor,
  openMessage,
  parseEnvelope,
  pinnedDevices,
  publicKeysOf,
  reconcile,
  safetyNumber,
  sealMessage,
  sealTargets,
  type Listed,
  type OwnDevice,
} from "../../src/e2e";

let n = 0;
const uuid = () => `0190${String(++n).padStart(4, "0")}-0000-7000-8000-000000000000`;
const ALICE = "01900000-0000-7000-8000-00000000000a";
const BOB = "01900000-0000-7000-8000-00000000000b";
const CAROL = "01900000-0000-7000-8000-00000000000c";
const DM = "01900000-0000-7000-8000-0000000000d1";
const PEOPLE = [ALICE, BOB];

async function device(userId: string, createdAt = 1000): Promise<{ own: OwnDevice; listed: Listed }> {
  const keys = await generateDeviceKeys();
  const id = uuid();
  return {
    own: { id, keys, created_at: createdAt },
    listed: { id, user_id: userId, name: "Laptop", keys: await publicKeysOf(keys), created_at: createdAt, removed_at: null, backup: false },
  };
}

const meta = (o: Partial<{ authorId: string; messageId: string; createdAt: number; edited: boolean }> = {}) => ({
  channelId: DM,
  authorId: ALICE,
  messageId: "01900000-0000-7000-8000-0000000000e1",
  createdAt: 2000,
  edited: false,
  ...o,
});
const ctx = { channelId: DM, authorId: ALICE, editOf: null };
const self = (d: { listed: Listed }) => ({
  id: d.listed.id,
  user_id: d.listed.user_id,
  keys: d.listed.keys,
  created_at: d.listed.created_at,
});
const wrapsOf = (ct: string) => {
  const e = parseEnvelope(ct);
  return e.ok ? e.envelope.wraps.map((w) => w.device).sort() : [];
};

describe("sealing for the two people only", () => {
  test("a device of someone outside the DM is never sealed for, whatever list it comes in", async () => {
    const a = await device(ALICE);
    const b = await device(BOB);
    const c = await device(CAROL);
    const listed = [a.listed, b.listed, c.listed];
    const ct = await sealMessage("not for carol", ctx, a.own, listed, PEOPLE);
    expect(wrapsOf(ct)).toEqual([a.listed.id, b.listed.id].sort());
    expect((await openMessage(ct, meta(), c.own, listed)).state).toBe("failed");
    expect(await openMessage(ct, meta(), b.own, listed)).toEqual({ state: "ok", text: "not for carol" });
    // An author outside the two people is a mistake of the caller's, not something to seal.
    await expect(sealMessage("x", { ...ctx, authorId: CAROL }, c.own, listed, PEOPLE)).rejects.toThrow();
  });

  test("the client's record: an outsider is noted for the DM, never pinned, never a target", async () => {
    const a = await device(ALICE);
    const b = await device(BOB);
    const c = await device(CAROL);
    const r = reconcile(emptyTrust(), DM, PEOPLE, [a.listed, b.listed, c.listed], self(a));
    expect(Object.keys(r.devices).sort()).toEqual([a.listed.id, b.listed.id].sort());
    expect(
      sealTargets(r, PEOPLE, [a.listed, b.listed, c.listed])
        .map((d) => d.id)
        .sort(),
    ).toEqual([a.listed.id, b.listed.id].sort());
    const told = noticesFor(r, DM, PEOPLE, a.listed.id);
    expect(told.conflicts).toEqual([{ kind: "outsider", device_id: c.listed.id, user_id: CAROL, channel_id: DM, acknowledged: false }]);
    expect(noticesFor(r, "01900000-0000-7000-8000-0000000000d2", PEOPLE, a.listed.id).conflicts).toEqual([]);
    // Told once: the same listing again adds nothing, and acknowledging ends the notice.
    const again = reconcile(r, DM, PEOPLE, [a.listed, b.listed, c.listed], self(a));
    expect(again.conflicts.length).toBe(1);
    expect(noticesFor(acknowledge(again, DM, PEOPLE, a.listed.id), DM, PEOPLE, a.listed.id).conflicts).toEqual([]);
  });
});

describe("pinning on first sight", () => {
  test("the first devices of a person are taken as they are; a later one is announced until acknowledged", async () => {
    const a = await device(ALICE);
    const b = await device(BOB);
    const r1 = reconcile(emptyTrust(), DM, PEOPLE, [a.listed, b.listed], self(a));
    expect(noticesFor(r1, DM, PEOPLE, a.listed.id)).toEqual({ announced: [], conflicts: [] });
    const b2 = await device(BOB, 3000);
    const a2 = await device(ALICE, 3000);
    const r2 = reconcile(r1, DM, PEOPLE, [a.listed, b.listed, b2.listed, a2.listed], self(a));
    expect(
      noticesFor(r2, DM, PEOPLE, a.listed.id)
        .announced.map((d) => d.id)
        .sort(),
    ).toEqual([b2.listed.id, a2.listed.id].sort());
    // A new device is still sealed for (the notice says to compare numbers), and the number covers it.
    expect(sealTargets(r2, PEOPLE, [a.listed, b.listed, b2.listed, a2.listed]).length).toBe(4);
    expect(await safetyNumber(currentPins(r2, PEOPLE))).not.toBe(await safetyNumber(currentPins(r1, PEOPLE)));
    const r3 = acknowledge(r2, DM, PEOPLE, a.listed.id);
    expect(noticesFor(r3, DM, PEOPLE, a.listed.id).announced).toEqual([]);
    // Nothing given is changed in place.
    expect(noticesFor(r2, DM, PEOPLE, a.listed.id).announced.length).toBe(2);
    expect(r1.devices[b2.listed.id]).toBeUndefined();
  });

  test("a changed key is never used: the pinned one seals, the server's opens nothing, the number stays", async () => {
    const a = await device(ALICE);
    const b = await device(BOB);
    const r1 = reconcile(emptyTrust(), DM, PEOPLE, [a.listed, b.listed], self(a));
    const before = await safetyNumber(currentPins(r1, PEOPLE));
    const server = await device(BOB);
    const swapped: Listed = { ...b.listed, keys: server.listed.keys };
    const r2 = reconcile(r1, DM, PEOPLE, [a.listed, swapped], self(a));
    expect(r2.devices[b.listed.id].keys).toEqual(b.listed.keys);
    expect(noticesFor(r2, DM, PEOPLE, a.listed.id).conflicts).toEqual([
      { kind: "changed", device_id: b.listed.id, listed: { user_id: BOB, keys: server.listed.keys }, acknowledged: false },
    ]);
    expect(await safetyNumber(currentPins(r2, PEOPLE))).toBe(before);
    const targets = sealTargets(r2, PEOPLE, [a.listed, swapped]);
    const ct = await sealMessage("for bob's real device", ctx, a.own, targets, PEOPLE);
    expect(await openMessage(ct, meta(), b.own, pinnedDevices(r2, PEOPLE))).toEqual({ state: "ok", text: "for bob's real device" });
    expect((await openMessage(ct, meta(), { ...server.own, id: b.listed.id }, [a.listed, swapped])).state).toBe("failed");
    // A message the server seals with its key, as bob's device, does not open with what was pinned.
    const forged = await sealMessage("forged", { ...ctx, authorId: BOB }, { ...server.own, id: b.listed.id }, [a.listed], PEOPLE);
    expect((await openMessage(forged, meta({ authorId: BOB }), a.own, pinnedDevices(r2, PEOPLE))).state).toBe("failed");
    // A device moved to the other person is a change too; so is this device's own id listed with other keys.
    const moved = reconcile(
      acknowledge(r2, DM, PEOPLE, a.listed.id),
      DM,
      PEOPLE,
      [
        { ...a.listed, keys: server.listed.keys },
        { ...b.listed, user_id: ALICE },
      ],
      self(a),
    );
    expect(
      noticesFor(moved, DM, PEOPLE, a.listed.id)
        .conflicts.map((c) => c.device_id)
        .sort(),
    ).toEqual([a.listed.id, b.listed.id].sort());
    expect(moved.devices[a.listed.id].keys).toEqual(a.listed.keys);
    expect(moved.devices[b.listed.id].user_id).toBe(BOB);
  });

  test("this device is pinned from its own keys, never from the list, even the first time", async () => {
    const a = await device(ALICE);
    const b = await device(BOB);
    const server = await device(ALICE);
    const r = reconcile(emptyTrust(), DM, PEOPLE, [{ ...a.listed, keys: server.listed.keys }, b.listed], self(a));
    expect(r.devices[a.listed.id].keys).toEqual(a.listed.keys);
    expect(noticesFor(r, DM, PEOPLE, a.listed.id).conflicts.map((c) => c.kind)).toEqual(["changed"]);
  });

  test("removals are followed and kept; a device the server stops listing gets nothing more", async () => {
    const a = await device(ALICE);
    const b = await device(BOB);
    const b2 = await device(BOB);
    const r1 = reconcile(emptyTrust(), DM, PEOPLE, [a.listed, b.listed, b2.listed], self(a));
    const r2 = reconcile(r1, DM, PEOPLE, [a.listed, b.listed, { ...b2.listed, removed_at: 1500 }], self(a));
    expect(r2.devices[b2.listed.id].removed_at).toBe(1500);
    // Listed as current again later, it stays removed.
    const r3 = reconcile(r2, DM, PEOPLE, [a.listed, b.listed, b2.listed], self(a));
    expect(
      sealTargets(r3, PEOPLE, [a.listed, b.listed, b2.listed])
        .map((d) => d.id)
        .sort(),
    ).toEqual([a.listed.id, b.listed.id].sort());
    expect(sealTargets(r3, PEOPLE, [a.listed]).map((d) => d.id)).toEqual([a.listed.id]);
    expect(
      currentPins(r3, PEOPLE)
        .map((d) => d.id)
        .sort(),
    ).toEqual([a.listed.id, b.listed.id].sort());
  });
});

describe("a removed device", () => {
  test("what it sealed before its removal reads; what it sealed after is 'removed_device', never text", async () => {
    const a = await device(ALICE);
    const b = await device(BOB);
    const devices = [a.listed, b.listed];
    const ct = await sealMessage("while it was mine", ctx, a.own, devices, PEOPLE);
    const removed = [{ ...a.listed, removed_at: 5000 }, b.listed];
    expect(await openMessage(ct, meta({ createdAt: 4000 }), b.own, removed)).toEqual({ state: "ok", text: "while it was mine" });
    expect(await openMessage(ct, meta({ createdAt: 6000 }), b.own, removed)).toEqual({ state: "removed_device" });
  });
});
