/**
 * Pins in the core (core/pins.ts; reference-gaps 2.9 with spec 2.9 and 7): who may pin,
 * the limit, another channel's message, the system message, the events, the audit entries
 * and the lists. Each refusal is checked as the routes will answer it.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { AUDIT, MAX_PINS, MESSAGE_TYPE } from "../../src/core";
import { errorToStatusBody } from "../../src/wire/errors";
import { makeUnlimitedParley, recordEvents, seedBasic } from "../helpers";

let p: Parley;
let alice: string, bob: string, carol: string, bot: string, lab: string, general: string, staff: string;

beforeEach(() => {
  p = makeUnlimitedParley();
  const w = seedBasic(p);
  const id = (f: string) => p.api.flakes.uuid(f)!;
  [alice, bob, carol] = [id(w.users.alice.id), id(w.users.bob.id), id(w.users.carol.id)];
  bot = id(w.applications.EchoBot.bot_user_id);
  lab = id(w.guilds.Lab.id);
  general = id(w.guilds.Lab.channels.general);
  staff = id(w.guilds.Lab.channels.staff);
});

const say = (who: string, ch: string, content: string) => p.core.messages.create({ channelId: ch, authorId: who, content });
function refusal(fn: () => unknown): [number, number] {
  try {
    fn();
  } catch (e) {
    const a = errorToStatusBody(e);
    return [a.status, a.body.code];
  }
  throw new Error("no refusal");
}

describe("pinning", () => {
  test("a pin: the message's flag (MESSAGE_UPDATE), the type 6 system message naming it (MESSAGE_CREATE), audit 74", () => {
    const m = say(alice, general, "the plan");
    const events = recordEvents(p);
    const sys = p.core.pins.pin(bob, general, m.id, "worth keeping")!;
    expect(p.core.messages.get(m.id)!.pinned).toBe(1);
    expect(sys).toMatchObject({
      type: MESSAGE_TYPE.CHANNEL_PINNED_MESSAGE,
      author_id: bob,
      content: "",
      reference_message_id: m.id,
      reference_channel_id: general,
      reference_guild_id: lab,
    });
    expect(JSON.parse(sys.mentions)).toEqual([]);
    expect(events.all.map((e) => [e.type, e.messageId])).toEqual([
      ["message.updated", m.id],
      ["message.created", sys.id],
    ]);
    const [entry] = p.core.audit.list(lab, { limit: 5, actionType: AUDIT.MESSAGE_PIN });
    expect(entry).toMatchObject({ actor_id: bob, target_id: alice, reason: "worth keeping" });
    expect(JSON.parse(entry.options!)).toEqual({ channel_id: general, message_id: m.id });
  });

  test("an unpin: the flag and audit 75, no system message; doing either twice changes nothing", () => {
    const m = say(alice, general, "the plan");
    p.core.pins.pin(alice, general, m.id);
    const events = recordEvents(p);
    expect(p.core.pins.pin(alice, general, m.id)).toBeNull();
    expect(events.all).toEqual([]);
    expect(p.core.pins.unpin(alice, general, m.id)).toBe(true);
    expect(p.core.pins.unpin(alice, general, m.id)).toBe(false);
    expect(events.all.map((e) => e.type)).toEqual(["message.updated"]);
    expect(p.core.messages.get(m.id)!.pinned).toBe(0);
    const entries = p.core.audit.list(lab, { limit: 5, actionType: AUDIT.MESSAGE_UNPIN });
    expect(entries.map((e) => JSON.parse(e.options!))).toEqual([{ channel_id: general, message_id: m.id }]);
  });

  test("MANAGE_MESSAGES is needed (403 50001); outsiders are told the channel does not exist (404)", () => {
    const m = say(alice, general, "x");
    p.core.guilds.addMember(lab, carol);
    expect(refusal(() => p.core.pins.pin(carol, general, m.id))).toEqual([403, 50001]);
    p.core.pins.pin(alice, general, m.id);
    expect(refusal(() => p.core.pins.unpin(carol, general, m.id))).toEqual([403, 50001]);
    p.core.guilds.removeMember(lab, carol);
    expect(refusal(() => p.core.pins.pin(carol, general, m.id))).toEqual([404, 10003]);
    expect(refusal(() => p.core.pins.list(carol, general))).toEqual([404, 10003]);
  });

  test("another channel's message, an unknown one, or someone's ephemeral one: 404 10003", () => {
    const elsewhere = say(alice, staff, "in staff");
    expect(refusal(() => p.core.pins.pin(alice, general, elsewhere.id))).toEqual([404, 10003]);
    expect(refusal(() => p.core.pins.pin(alice, general, "0190a000-0000-7000-8000-000000000000"))).toEqual([404, 10003]);
    const eph = p.core.messages.create({ channelId: general, authorId: bot, content: "only you", ephemeralUserId: alice });
    expect(refusal(() => p.core.pins.pin(alice, general, eph.id))).toEqual([404, 10003]);
  });

  test("250 pins per channel, then 400 30003; unpinning makes room", () => {
    const ids = Array.from({ length: MAX_PINS + 1 }, (_, i) => say(alice, general, `m${i}`).id);
    for (const id of ids.slice(0, MAX_PINS)) p.core.pins.pin(alice, general, id);
    expect(refusal(() => p.core.pins.pin(alice, general, ids[MAX_PINS]))).toEqual([400, 30003]);
    // A channel's count is its own.
    p.core.pins.pin(alice, staff, say(alice, staff, "s").id);
    p.core.pins.unpin(alice, general, ids[0]);
    expect(p.core.pins.pin(alice, general, ids[MAX_PINS])).not.toBeNull();
  });

  test("in a DM either recipient may pin; nothing is audited there", () => {
    const dm = p.core.dms.openAsBot(bot, bob);
    const m = p.core.messages.send(bot, dm.id, { content: "remember this" });
    expect(p.core.pins.pin(bob, dm.id, m.id)?.type).toBe(6);
    expect(p.core.pins.list(bot, dm.id).items.map((i) => i.message.id)).toEqual([m.id]);
    expect(p.core.audit.list(lab, { limit: 10, actionType: AUDIT.MESSAGE_PIN })).toEqual([]);
  });

  test("a deleted message leaves the pins; a deleted channel takes them", () => {
    const m = say(alice, general, "x");
    p.core.pins.pin(alice, general, m.id);
    p.core.messages.deleteAs(alice, general, m.id);
    expect(p.core.pins.list(alice, general).items).toEqual([]);
    const n = say(alice, staff, "y");
    p.core.pins.pin(alice, staff, n.id);
    p.core.channels.delete(alice, staff);
    expect(p.store.db.query("SELECT count(*) AS n FROM pins").get()).toEqual({ n: 0 });
  });
});

describe("listing", () => {
  test("most recently pinned first; `before` a pinned_at, `limit` 1..50, has_more", () => {
    const ms = [0, 1, 2, 3, 4].map((i) => say(alice, general, `m${i}`));
    const at: number[] = [];
    // Pinned in another order than written: the list follows the pins.
    for (const i of [2, 0, 4, 1, 3]) {
      p.clock.set(Date.UTC(2032, 0, 1) + at.length * 1000);
      p.core.pins.pin(alice, general, ms[i].id);
      at.push(p.clock.now());
    }
    const page1 = p.core.pins.list(bob, general, { limit: 2 });
    expect(page1.items.map((i) => i.message.content)).toEqual(["m3", "m1"]);
    expect(page1.items.map((i) => i.pinnedAt)).toEqual([at[4], at[3]]);
    expect(page1.hasMore).toBe(true);
    const page2 = p.core.pins.list(bob, general, { limit: 2, before: page1.items[1].pinnedAt });
    expect(page2.items.map((i) => i.message.content)).toEqual(["m4", "m0"]);
    const last = p.core.pins.list(bob, general, { limit: 2, before: page2.items[1].pinnedAt });
    expect([last.items.map((i) => i.message.content), last.hasMore]).toEqual([["m2"], false]);
    expect(p.core.pins.list(bob, general).items).toHaveLength(5);
    for (const limit of [0, 51, 1.5]) expect(refusal(() => p.core.pins.list(bob, general, { limit }))).toEqual([400, 50035]);
  });

  test("the deprecated list: the 50 most recently pinned messages", () => {
    for (let i = 0; i < 55; i++) p.core.pins.pin(alice, general, say(alice, general, `m${i}`).id);
    const latest = p.core.pins.listLatest(bob, general);
    expect(latest).toHaveLength(50);
    expect(latest[0].content).toBe("m54");
  });
});
