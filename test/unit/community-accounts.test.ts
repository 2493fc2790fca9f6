/**
 * People's accounts and profiles, in the core (issue "Running a community"): a display
 * name in any script, within its length rules; the profile card others open (who may see
 * it, roles in a server); end-to-end devices with a name one edits, when each was last
 * used, expiry of unused ones on the one clock (device.removed, the notice DMs show),
 * and removing a browser's own device as it signs out.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { internalId, makeParley, recordEvents } from "../helpers";
import { DomainError, type Session } from "../../src/core";
import { generateDeviceKeys, publicKeysOf } from "../../src/e2e";
import { createParley, type Parley } from "../../src/app";
import { testConfig } from "../../src/config";
import type { SeedAnswer } from "../../src/world";

const WORLD = {
  users: [{ name: "ann" }, { name: "ben" }, { name: "cat" }, { name: "dan" }],
  guilds: [
    {
      name: "Club",
      owner: "ann",
      members: ["ben", "cat"],
      roles: [
        { name: "Low", permissions: [], members: ["ben"] },
        { name: "High", permissions: ["KICK_MEMBERS"], members: ["ben"] },
      ],
      channels: [{ name: "general" }],
    },
  ],
};
const DAY = 86_400_000;

let p: Parley;
let w: SeedAnswer;
const person = (name: string) => internalId(p, w.users[name].id);
const kind = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return { kind: e.kind, code: e.issues[0]?.code, message: e.message };
    throw e;
  }
  throw new Error("did not throw");
};

beforeEach(() => {
  p = makeParley();
  w = p.seed(structuredClone(WORLD));
});

describe("display names", () => {
  test("any script, as a reader counts its characters; trimmed and NFC; empty clears it", () => {
    for (const name of ["Zoë", "محمد", "李小龍", "नमस्ते दुनिया", "👩‍👩‍👧‍👦 family", "ن‌ی"])
      expect(p.core.profiles.setGlobalName(person("ben"), `  ${name} `).global_name).toBe(name.normalize("NFC"));
    expect(p.core.profiles.setGlobalName(person("ben"), "Zoe\u0308").global_name).toBe("Zoë");
    // 32 characters of a script with combining marks is still 32.
    const long = "कि".repeat(20);
    expect([...long].length).toBe(40);
    expect(p.core.profiles.setGlobalName(person("ben"), long).global_name).toBe(long);
    expect(p.core.profiles.setGlobalName(person("ben"), "").global_name).toBeNull();
    expect(p.core.profiles.setGlobalName(person("ben"), "Ben").global_name).toBe("Ben");
    expect(p.core.profiles.setGlobalName(person("ben"), null).global_name).toBeNull();
  });

  test("refused: over 32 characters, controls and text-direction overrides, nothing visible; each names global_name", () => {
    for (const bad of ["x".repeat(33), "a\u0000b", "line\nbreak", "evil\u202Egnp.exe", "\u200B\u200B", "\u0301"]) {
      expect(kind(() => p.core.profiles.setGlobalName(person("ben"), bad))).toMatchObject({
        kind: "invalid",
        message: expect.stringContaining("global_name"),
      });
    }
    expect(p.core.users.require(person("ben")).global_name).toBeNull();
  });

  test("every server the person is in hears of it (member.updated), and sign-up takes the same rules", async () => {
    const ev = recordEvents(p);
    p.core.profiles.setGlobalName(person("ben"), "Benny");
    expect(ev.of("member.updated")).toEqual([{ type: "member.updated", guildId: internalId(p, w.guilds.Club.id), userId: person("ben") }]);
    p.core.profiles.setGlobalName(person("ben"), "Benny");
    expect(ev.count("member.updated")).toBe(1);
    await expect(
      p.core.users.signUp({ username: "eve", password: "a long and quiet password", globalName: "a\u202Eb", label: "x" }),
    ).rejects.toThrow("global_name");
  });
});

describe("profile cards", () => {
  test("names and, in a server, the nickname and roles there (highest first); the servers both share", () => {
    const club = internalId(p, w.guilds.Club.id);
    p.core.profiles.setGlobalName(person("ben"), "Benny");
    const card = p.core.profiles.profile(person("cat"), person("ben"), club);
    expect(card.user).toMatchObject({ username: "ben", global_name: "Benny", avatar: null });
    expect(card.member?.user_id).toBe(person("ben"));
    expect(card.roles.map((r) => r.name)).toEqual(["High", "Low"]);
    expect(card.mutualGuildIds).toEqual([club]);
    expect(p.core.profiles.profile(person("ben"), person("ben")).mutualGuildIds).toEqual([]);
  });

  test("seen by oneself, those who share a server or a DM; anyone else, or a server the viewer is not in, is unknown", () => {
    expect(kind(() => p.core.profiles.profile(person("dan"), person("ben")))).toMatchObject({ kind: "not_found" });
    expect(kind(() => p.core.profiles.profile(person("ben"), person("cat"), internalId(p, w.guilds.Club.id) + "x"))).toMatchObject({
      kind: "not_found",
    });
    expect(p.core.profiles.profile(person("dan"), person("dan")).user.username).toBe("dan");
    p.core.people.createGuild(person("dan"), "Den");
    const den = p.core.guilds.named("Den")[0].id;
    p.core.guilds.addMember(den, person("ben"));
    p.core.people.openDm(person("dan"), person("ben"));
    p.core.people.leave(person("ben"), den);
    // No server in common any more, but a DM.
    expect(p.core.profiles.profile(person("dan"), person("ben")).mutualGuildIds).toEqual([]);
  });
});

describe("devices", () => {
  async function browser(p: Parley, user: string, name = "Chromium on Linux"): Promise<{ session: Session; token: string; id: string }> {
    const { token, session } = p.core.sessions.open(user, name);
    const d = p.core.devices.register(user, { name, ...(await publicKeysOf(await generateDeviceKeys())) }, session);
    return { session, token, id: d.id };
  }

  test("a device's name is edited by its person alone; last used is its registration, then its session's uses", async () => {
    p.clock.set(Date.UTC(2031, 0, 1));
    const b = await browser(p, person("ann"));
    expect(p.core.devices.get(b.id)!.last_used_at).toBe(p.clock.now());
    expect(p.core.devices.rename(person("ann"), b.id, "  Work laptop ").name).toBe("Work laptop");
    expect(p.core.devices.get(b.id)!.name).toBe("Work laptop");
    expect(kind(() => p.core.devices.rename(person("ben"), b.id, "Mine"))).toMatchObject({ kind: "not_found" });
    expect(kind(() => p.core.devices.rename(person("ann"), b.id, "   "))).toMatchObject({ kind: "invalid" });
    expect(kind(() => p.core.devices.rename(person("ann"), b.id, "x".repeat(65)))).toMatchObject({ kind: "invalid" });
    p.clock.advance(3 * DAY);
    p.core.sessions.authenticate(b.token);
    expect(p.core.devices.get(b.id)!.last_used_at).toBe(p.clock.now());
  });

  test("signing out may remove this browser's device first: one transaction, device.removed then the session's end", async () => {
    const keep = await browser(p, person("ann"));
    const drop = await browser(p, person("ann"));
    expect(p.core.devices.heldBy(drop.session)?.id).toBe(drop.id);
    const ev = recordEvents(p);
    expect(p.core.devices.signOut(person("ann"), drop.session, true)?.id).toBe(drop.id);
    expect(ev.all.map((e) => [e.type, (e as { reason?: string }).reason])).toEqual([
      ["device.removed", undefined],
      ["person.sessions_ended", "signed_out"],
    ]);
    expect(p.core.devices.current(person("ann")).map((d) => d.id)).toEqual([keep.id]);
    expect(p.core.sessions.authenticate(drop.token)).toBeNull();
    // Without removal the device stays.
    expect(p.core.devices.signOut(person("ann"), keep.session, false)).toBeNull();
    expect(p.core.devices.current(person("ann")).map((d) => d.id)).toEqual([keep.id]);
  });

  test("a device unused for the configured time expires on the one clock: device.removed, as DMs show it; a used one stays", async () => {
    const q = createParley(testConfig({ devices: { expireAfterMs: 90 * DAY } }));
    const v = q.seed(structuredClone(WORLD));
    const ann = internalId(q, v.users.ann.id);
    q.clock.set(Date.UTC(2031, 0, 1));
    const idle = await browser(q, ann, "Old laptop");
    const used = await browser(q, ann, "Phone");
    const harnessDevice = q.core.devices.register(ann, { name: "Harness", ...(await publicKeysOf(await generateDeviceKeys())) });
    q.core.serve();
    const ev = recordEvents(q);
    // The phone's browser is used every 20 days (its session would end after 30 idle).
    for (let i = 0; i < 3; i++) {
      q.clock.advance(20 * DAY);
      expect(q.core.sessions.authenticate(used.token)).not.toBeNull();
    }
    q.clock.advance(20 * DAY);
    expect(ev.count("device.removed")).toBe(0);
    q.clock.advance(11 * DAY);
    expect(ev.of("device.removed")).toEqual([{ type: "device.removed", deviceId: idle.id, userId: ann }]);
    expect(
      q.core.devices
        .current(ann)
        .map((d) => d.name)
        .sort(),
    ).toEqual(["Harness", "Phone"]);
    // The phone expires 90 days after its last use (day 60); the harness's device, which no sign-in holds, never does.
    q.clock.advance(58 * DAY);
    expect(q.core.devices.current(ann)).toHaveLength(2);
    q.clock.advance(2 * DAY);
    expect(q.core.devices.current(ann).map((d) => d.id)).toEqual([harnessDevice.id]);
    await q.stop();
  });

  test("90 days unless configured; with --device-expiry 0, nothing expires", async () => {
    const { loadConfig } = await import("../../src/config");
    expect(loadConfig({}, {}).devices).toEqual({ expireAfterMs: 90 * DAY });
    expect(loadConfig({ "device-expiry": "0" }, {}).devices).toEqual({ expireAfterMs: null });
    expect(loadConfig({}, { PARLEY_DEVICE_EXPIRY: "7" }).devices).toEqual({ expireAfterMs: 7 * DAY });
    expect(() => loadConfig({ "device-expiry": "soon" }, {})).toThrow("--device-expiry");
    const q = createParley(testConfig({ devices: { expireAfterMs: null } }));
    const v = q.seed(structuredClone(WORLD));
    const b = await browser(q, internalId(q, v.users.ann.id));
    q.core.serve();
    q.clock.advance(3650 * DAY);
    expect(q.core.devices.expire()).toBe(0);
    expect(q.core.devices.get(b.id)!.removed_at).toBeNull();
    await q.stop();
  });
});
