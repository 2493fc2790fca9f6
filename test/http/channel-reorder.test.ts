/**
 * PATCH /guilds/{guild_id}/channels on the bot API (reference-gaps 2.1): only listed
 * channels change; at most one changes its category (else 400 40009); MANAGE_CHANNELS
 * (403 50001 without); a CHANNEL_UPDATE per changed channel and an audit entry (11) each.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { BASIC_WORLD, call, makeUnlimitedParley, recordEvents, refusal } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

function world() {
  const w = structuredClone(BASIC_WORLD) as any;
  w.guilds[0].roles.push({ name: "Builder", permissions: ["MANAGE_CHANNELS", "MANAGE_ROLES", "VIEW_AUDIT_LOG"], members: [] });
  w.guilds[0].channels = [{ name: "general" }, { name: "staff" }, { name: "Cat", type: 4 }, { name: "child", parent: "Cat" }];
  return w;
}

let p: Parley;
let w: SeedAnswer;
let token: string;
let lab: string, ch: Record<string, string>;
const uuid = (f: string) => p.api.flakes.uuid(f)!;
const reorder = (body: unknown) => call(p, "PATCH", `/guilds/${lab}/channels`, { token, body });

beforeEach(() => {
  p = makeUnlimitedParley();
  w = p.seed(world());
  token = w.applications.EchoBot.token;
  lab = w.guilds.Lab.id;
  ch = w.guilds.Lab.channels;
});

const grant = () => p.core.guilds.addMemberRole(uuid(lab), uuid(w.applications.EchoBot.bot_user_id), uuid(w.guilds.Lab.roles.Builder));

describe("PATCH /guilds/{guild_id}/channels", () => {
  test("moves and re-parents: 204, CHANNEL_UPDATE per changed channel only, audit 11 each", async () => {
    grant();
    const ev = recordEvents(p);
    const r = await reorder([
      { id: ch.staff, position: 9, parent_id: ch.Cat, lock_permissions: false },
      { id: ch.general, position: 0 },
      { id: ch.child, position: 5 },
    ]);
    expect(r.status).toBe(204);
    const after = (await call(p, "GET", `/guilds/${lab}/channels`, { token })).body as {
      id: string;
      position: number;
      parent_id: string | null;
    }[];
    const byId = Object.fromEntries(after.map((c) => [c.id, c]));
    expect(byId[ch.staff]).toMatchObject({ position: 9, parent_id: ch.Cat });
    expect(byId[ch.child]).toMatchObject({ position: 5, parent_id: ch.Cat });
    const changed = (ev.all as { type: string; channelId?: string }[]).filter((e) => e.type === "channel.updated").map((e) => e.channelId);
    expect(changed).not.toContain(uuid(ch.general));
    expect(changed.sort()).toEqual([uuid(ch.staff), uuid(ch.child)].sort());
    const log = await call(p, "GET", `/guilds/${lab}/audit-logs?action_type=11`, { token });
    const staffEntry = log.body.audit_log_entries.find((e: { target_id: string }) => e.target_id === ch.staff);
    expect(staffEntry.changes).toEqual([
      { key: "position", old_value: 1, new_value: 9 },
      { key: "parent_id", new_value: ch.Cat },
    ]);
  });

  test("refusals: two parent changes 40009, without MANAGE_CHANNELS 50001, bad bodies 50035; nothing changes", async () => {
    const before = JSON.stringify((await call(p, "GET", `/guilds/${lab}/channels`, { token })).body);
    expect(refusal(await reorder([{ id: ch.general, position: 3 }]))).toEqual([403, 50001]);
    grant();
    expect(
      refusal(
        await reorder([
          { id: ch.general, parent_id: ch.Cat },
          { id: ch.staff, parent_id: ch.Cat },
        ]),
      ),
    ).toEqual([400, 40009]);
    for (const body of [
      { id: ch.general },
      [{ id: "abc" }],
      [{ id: ch.general, position: -1 }],
      [{ id: ch.general, parent_id: ch.staff }],
      [{ id: ch.general, parent_id: "123456789012345678" }],
      [{ id: "123456789012345678", position: 1 }],
      [{ id: ch.general }, { id: ch.general }],
      [{ id: ch.Cat, parent_id: ch.Cat }],
    ])
      expect([JSON.stringify(body), refusal(await reorder(body))]).toEqual([JSON.stringify(body), [400, 50035]]);
    expect(JSON.stringify((await call(p, "GET", `/guilds/${lab}/channels`, { token })).body)).toBe(before);
    expect(refusal(await call(p, "PATCH", `/guilds/123456789012345678/channels`, { token, body: [] }))).toEqual([404, 10003]);
  });
});
