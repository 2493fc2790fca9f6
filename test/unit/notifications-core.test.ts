/**
 * Notification settings in the core (core/notifications.ts): per server, channel and DM,
 * the server's default (spec 2.6's default_message_notifications, shown to bots), and the
 * decision the web client makes (src/text/notify.ts) made here the same way.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { AUDIT } from "../../src/core";
import { MUTED_FOREVER, NOTIFY } from "../../src/text/notify";
import { errorToStatusBody } from "../../src/wire/errors";
import { call, makeUnlimitedParley, recordEvents, seedBasic } from "../helpers";
import type { SeedAnswer } from "../../src/world/document";

let p: Parley;
let w: SeedAnswer;
let alice: string, bob: string, carol: string, bot: string, lab: string, general: string, staff: string;

beforeEach(() => {
  p = makeUnlimitedParley();
  w = seedBasic(p);
  const id = (f: string) => p.api.flakes.uuid(f)!;
  [alice, bob, carol] = [id(w.users.alice.id), id(w.users.bob.id), id(w.users.carol.id)];
  bot = id(w.applications.EchoBot.bot_user_id);
  lab = id(w.guilds.Lab.id);
  general = id(w.guilds.Lab.channels.general);
  staff = id(w.guilds.Lab.channels.staff);
});

function refusal(fn: () => unknown): [number, number] {
  try {
    fn();
  } catch (e) {
    const a = errorToStatusBody(e);
    return [a.status, a.body.code];
  }
  throw new Error("no refusal");
}

describe("a person's settings", () => {
  test("unset is null; put keeps what it is not given; both null again removes the row", () => {
    expect(p.core.notifications.get(bob, lab)).toEqual({
      user_id: bob,
      scope_id: lab,
      guild_id: lab,
      channel_id: null,
      level: null,
      muted_until: null,
    });
    const events = recordEvents(p);
    p.core.notifications.put(bob, general, { level: NOTIFY.MENTIONS });
    const later = p.clock.now() + 3_600_000;
    expect(p.core.notifications.put(bob, general, { mutedUntil: later })).toMatchObject({
      guild_id: lab,
      channel_id: general,
      level: NOTIFY.MENTIONS,
      muted_until: later,
    });
    expect(events.all).toEqual([
      { type: "notification_settings.updated", userId: bob, scopeId: general },
      { type: "notification_settings.updated", userId: bob, scopeId: general },
    ]);
    expect(p.core.notifications.list(bob).map((s) => s.scope_id)).toEqual([general]);
    p.core.notifications.put(bob, general, { level: null, mutedUntil: null });
    expect(p.core.notifications.list(bob)).toEqual([]);
  });

  test("a mute in the past is no mute; forever is the last instant of year 9999", () => {
    expect(p.core.notifications.put(bob, lab, { mutedUntil: p.clock.now() - 1 }).muted_until).toBeNull();
    expect(p.core.notifications.put(bob, lab, { mutedUntil: MUTED_FOREVER }).muted_until).toBe(MUTED_FOREVER);
    expect(refusal(() => p.core.notifications.put(bob, lab, { mutedUntil: MUTED_FOREVER + 1 }))).toEqual([400, 50035]);
    expect(refusal(() => p.core.notifications.put(bob, lab, { level: 3 as never }))).toEqual([400, 50035]);
  });

  test("only for a server one is in, or a channel or DM one sees (404 otherwise)", () => {
    expect(refusal(() => p.core.notifications.put(carol, lab, { level: 2 }))).toEqual([404, 10003]);
    expect(refusal(() => p.core.notifications.put(carol, general, { level: 2 }))).toEqual([404, 10003]);
    expect(refusal(() => p.core.notifications.get(carol, "0190a000-0000-7000-8000-000000000000"))).toEqual([404, 10003]);
    const dm = p.core.dms.openAsBot(bot, bob);
    expect(p.core.notifications.put(bob, dm.id, { level: NOTIFY.NOTHING })).toMatchObject({ guild_id: null, channel_id: dm.id });
  });

  test("a deleted channel takes its settings with it", () => {
    p.core.notifications.put(bob, staff, { level: NOTIFY.NOTHING });
    p.core.channels.delete(alice, staff);
    expect(p.core.notifications.list(bob)).toEqual([]);
  });
});

describe("the server's default", () => {
  test("MANAGE_GUILD sets it (403 otherwise, 404 for outsiders); audited; bots see it in GUILD_UPDATE's shape", async () => {
    expect(refusal(() => p.core.notifications.setServerDefault(bob, lab, 1))).toEqual([403, 50001]);
    expect(refusal(() => p.core.notifications.setServerDefault(carol, lab, 1))).toEqual([404, 10003]);
    expect(refusal(() => p.core.notifications.setServerDefault(alice, lab, 2))).toEqual([400, 50035]);
    const events = recordEvents(p);
    expect(p.core.notifications.setServerDefault(alice, lab, 1, "quiet please").default_message_notifications).toBe(1);
    expect(events.all).toEqual([{ type: "guild.updated", guildId: lab }]);
    const [entry] = p.core.audit.list(lab, { limit: 1, actionType: AUDIT.GUILD_UPDATE });
    expect(JSON.parse(entry.changes)).toEqual([{ key: "default_message_notifications", old_value: 0, new_value: 1 }]);
    const g = await call(p, "GET", `/guilds/${w.guilds.Lab.id}`, { token: w.applications.EchoBot.token });
    expect(g.body.default_message_notifications).toBe(1);
  });
});

describe("deciding, as the client does", () => {
  test("the default, then the server's setting, then the channel's; mutes; mentions", () => {
    const plain = p.core.messages.send(alice, general, { content: "hello" });
    const ping = p.core.messages.send(alice, general, { content: `hello <@${bob}>` });
    expect(p.core.notifications.decide(bob, plain).notify).toBe(true);
    p.core.notifications.setServerDefault(alice, lab, NOTIFY.MENTIONS);
    expect([p.core.notifications.decide(bob, plain).notify, p.core.notifications.decide(bob, ping).notify]).toEqual([false, true]);
    p.core.notifications.put(bob, lab, { level: NOTIFY.ALL });
    expect(p.core.notifications.decide(bob, plain).notify).toBe(true);
    p.core.notifications.put(bob, general, { level: NOTIFY.NOTHING });
    expect(p.core.notifications.decide(bob, ping)).toMatchObject({ notify: false, mention: true, level: NOTIFY.NOTHING });
    p.core.notifications.put(bob, general, { level: null, mutedUntil: p.clock.now() + 1000 });
    expect(p.core.notifications.decide(bob, plain)).toMatchObject({ notify: false, muted: true });
    // One's own message never notifies.
    expect(p.core.notifications.decide(alice, ping).notify).toBe(false);
  });
});
