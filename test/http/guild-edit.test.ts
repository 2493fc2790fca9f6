/**
 * PATCH /guilds/{guild_id} through the bot API: the reference's fields a server here
 * has (name, description, icon, system_channel_id, default_message_notifications),
 * MANAGE_GUILD checked in the core, GUILD_UPDATE audit entries, and bad input a 400
 * naming its field that changes nothing.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeUnlimitedParley, refusal } from "../helpers";
import { png } from "../support/png";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

const WORLD = {
  users: [{ name: "alice" }, { name: "bob" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob"],
      roles: [{ name: "Managers", permissions: ["MANAGE_GUILD"], members: ["Manager"] }],
      channels: [{ name: "general" }, { name: "welcome" }, { name: "Voice", type: 2 }],
    },
    { name: "Elsewhere", owner: "bob", channels: [{ name: "there" }] },
  ],
  applications: [
    { name: "Manager", owner: "alice", intents: ["GUILDS"], install: ["Lab"] },
    { name: "Plain", owner: "alice", intents: ["GUILDS"], install: ["Lab"] },
  ],
};

let p: Parley;
let w: SeedAnswer;
let manager: string;
let guild: string;

const dataUri = (bytes: Uint8Array) => `data:image/png;base64,${Buffer.from(bytes).toString("base64")}`;
const patch = (body: unknown, token = manager) => call(p, "PATCH", `/guilds/${guild}`, { token, body });
const stored = () => p.core.guilds.require(p.api.flakes.uuid(guild)!);

beforeEach(() => {
  p = makeUnlimitedParley();
  w = p.seed(structuredClone(WORLD));
  manager = w.applications.Manager.token;
  guild = w.guilds.Lab.id;
});

afterEach(() => p.core.close());

describe("PATCH /guilds/{guild_id}", () => {
  test("name, description, system channel and notification default change together; each change is audited as 1", async () => {
    const welcome = w.guilds.Lab.channels.welcome;
    const r = await call(p, "PATCH", `/guilds/${guild}`, {
      token: manager,
      body: { name: "Laboratory", description: "Where things happen", system_channel_id: welcome, default_message_notifications: 1 },
      headers: { "X-Audit-Log-Reason": "spring cleaning" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: guild,
      name: "Laboratory",
      description: "Where things happen",
      system_channel_id: welcome,
      default_message_notifications: 1,
    });
    const entries = p.core.audit.list(p.api.flakes.uuid(guild)!, { limit: 10, actionType: 1 });
    const keys = entries.flatMap((e) => (JSON.parse(String(e.changes)) as { key: string }[]).map((c) => c.key)).sort();
    expect(keys).toEqual(["default_message_notifications", "description", "name", "system_channel_id"]);
    expect(entries.every((e) => e.reason === "spring cleaning")).toBe(true);

    // null clears; the same values again change nothing and add no entry.
    expect((await patch({ description: null, system_channel_id: null })).body).toMatchObject({
      description: null,
      system_channel_id: null,
    });
    const before = p.core.audit.list(p.api.flakes.uuid(guild)!, { limit: 50, actionType: 1 }).length;
    expect((await patch({ name: "Laboratory", default_message_notifications: 1 })).status).toBe(200);
    expect(p.core.audit.list(p.api.flakes.uuid(guild)!, { limit: 50, actionType: 1 }).length).toBe(before);
  });

  test("the icon with the other fields; the reference's fields a server here has not are ignored", async () => {
    const r = await patch({ name: "With icon", icon: dataUri(png(4, 4)), verification_level: 2, afk_timeout: 300, preferred_locale: "de" });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe("With icon");
    expect(r.body.icon).toMatch(/^[0-9a-f]{32}$/);
    expect((await patch({ icon: null })).body.icon).toBeNull();
  });

  test("without MANAGE_GUILD 403 50001; another server 404; nothing changes", async () => {
    expect(refusal(await patch({ name: "Mine now" }, w.applications.Plain.token))).toEqual([403, 50001]);
    const other = await call(p, "PATCH", `/guilds/${w.guilds.Elsewhere.id}`, { token: manager, body: { name: "Mine now" } });
    expect(other.status).toBe(404);
    expect((await patch({ owner_id: w.users.bob.id })).status).toBe(403);
    expect(stored().name).toBe("Lab");
    expect(p.core.guilds.require(p.api.flakes.uuid(w.guilds.Elsewhere.id)!).name).toBe("Elsewhere");
  });

  test("bad input is 400 50035 naming the field, never a 500, and changes nothing", async () => {
    const initial = stored();
    const bad: [unknown, string][] = [
      [{ name: "x" }, "name"],
      [{ name: " " + "y".repeat(100) }, "name"],
      [{ name: 42 }, "name"],
      [{ name: null }, "name"],
      [{ description: "z".repeat(121) }, "description"],
      [{ description: ["a"] }, "description"],
      [{ default_message_notifications: 3 }, "default_message_notifications"],
      [{ default_message_notifications: "1" }, "default_message_notifications"],
      [{ system_channel_id: w.guilds.Lab.channels.Voice }, "system_channel_id"],
      [{ system_channel_id: w.guilds.Elsewhere.channels.there }, "system_channel_id"],
      [{ system_channel_id: "123" }, "system_channel_id"],
      [{ system_channel_id: { id: 1 } }, "system_channel_id"],
      [{ icon: "not an image" }, "icon"],
      [{ icon: 7 }, "icon"],
      [{ icon: dataUri(new TextEncoder().encode("<svg></svg>")) }, "icon"],
      // A good icon beside a field the core refuses: nothing changes, the icon neither.
      [{ icon: dataUri(png(8, 8)), system_channel_id: w.guilds.Elsewhere.channels.there }, "system_channel_id"],
    ];
    for (const [body, field] of bad) {
      const r = await patch({ description: "kept?", ...(body as object) });
      expect([r.status, r.body?.code, Object.keys(r.body?.errors ?? {})]).toEqual([400, 50035, [field]]);
    }
    expect((await patch([1, 2])).status).toBe(400);
    expect(stored()).toEqual(initial);
  });
});
