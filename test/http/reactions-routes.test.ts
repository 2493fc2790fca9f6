import { beforeEach, describe, expect, test } from "bun:test";
import { BASIC_WORLD, call, makeUnlimitedParley, recordEvents, refusal } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let token: string;
let general: string;
let msg: string;
const uuid = (f: string) => p.api.flakes.uuid(f)!;
const FIRE = "🔥";
const base = () => `/channels/${general}/messages/${msg}/reactions`;

beforeEach(() => {
  p = makeUnlimitedParley();
  w = p.seed(structuredClone(BASIC_WORLD));
  token = w.applications.EchoBot.token;
  general = w.guilds.Lab.channels.general;
  msg = p.api.flakes.of(p.core.messages.send(uuid(w.users.bob.id), uuid(general), { content: "react to me" }).id);
});

describe("reactions", () => {
  test("PUT @me with a percent-encoded unicode emoji: 204, one reaction.added, reactions array with me and count_details", async () => {
    const ev = recordEvents(p);
    expect((await call(p, "PUT", `${base()}/${encodeURIComponent(FIRE)}/@me`, { token })).status).toBe(204);
    expect((await call(p, "PUT", `${base()}/${encodeURIComponent(FIRE)}/@me`, { token })).status).toBe(204); // idempotent
    expect(ev.events).toEqual([
      {
        type: "reaction.added",
        messageId: uuid(msg),
        channelId: uuid(general),
        guildId: uuid(w.guilds.Lab.id),
        userId: uuid(w.applications.EchoBot.bot_user_id),
        emoji: { name: FIRE, id: null, animated: false },
        messageAuthorId: uuid(w.users.bob.id),
      },
    ]);
    p.core.reactions.add(uuid(w.users.bob.id), uuid(msg), { name: FIRE, id: null });
    const m = (await call(p, "GET", `/channels/${general}/messages/${msg}`, { token })).body;
    expect(m.reactions).toEqual([
      { emoji: { id: null, name: FIRE }, count: 2, count_details: { burst: 0, normal: 2 }, me: true, me_burst: false, burst_colors: [] },
    ]);
  });

  test("custom emoji (name:id, colon raw or %3A, a:name:id) are unknown: 400 10014, nothing written or fired", async () => {
    // Parley keeps no emoji catalogue, so no custom emoji exists (the reference's Unknown Emoji).
    const ev = recordEvents(p);
    for (const e of ["LUL:123456789012345678", "party%3A223456789012345678", "a:dance:323456789012345678"])
      expect(refusal(await call(p, "PUT", `${base()}/${e}/@me`, { token }))).toEqual([400, 10014]);
    expect((await call(p, "GET", `/channels/${general}/messages/${msg}`, { token })).body.reactions).toBeUndefined();
    expect(ev.events).toHaveLength(0);
  });

  test("bad or unknown emoji, unknown message or invisible channel: 404 10003, nothing fired", async () => {
    const ev = recordEvents(p);
    for (const e of ["notanemoji", "1", "%E0%A4%A", "x:y", encodeURIComponent("a🔥")]) {
      const r = await call(p, "PUT", `${base()}/${e}/@me`, { token });
      expect([e, r.status, r.body.code]).toEqual([e, 404, 10003]);
    }
    expect(
      refusal(
        await call(p, "PUT", `/channels/${general}/messages/123456789012345678/reactions/${encodeURIComponent(FIRE)}/@me`, { token }),
      ),
    ).toEqual([404, 10003]);
    expect(
      refusal(
        await call(p, "PUT", `/channels/${w.guilds.Lab.channels.staff}/messages/${msg}/reactions/${encodeURIComponent(FIRE)}/@me`, {
          token,
        }),
      ),
    ).toEqual([404, 10003]);
    expect(ev.events).toHaveLength(0);
  });

  test("DELETE @me removes one's own (one reaction.removed); removing a missing one is a quiet 204", async () => {
    await call(p, "PUT", `${base()}/${encodeURIComponent(FIRE)}/@me`, { token });
    const ev = recordEvents(p);
    expect((await call(p, "DELETE", `${base()}/${encodeURIComponent(FIRE)}/@me`, { token })).status).toBe(204);
    expect((await call(p, "DELETE", `${base()}/${encodeURIComponent(FIRE)}/@me`, { token })).status).toBe(204);
    expect(ev.of("reaction.removed")).toHaveLength(1);
    expect(ev.events).toHaveLength(1);
  });

  test("GET users: ordered by id, after and limit 1 to 100 (default 25)", async () => {
    const people = [w.users.alice.id, w.users.bob.id, w.applications.EchoBot.bot_user_id];
    for (const id of people) p.core.reactions.add(uuid(id), uuid(msg), { name: FIRE, id: null });
    const r = await call(p, "GET", `${base()}/${encodeURIComponent(FIRE)}`, { token });
    expect(r.body.map((u: any) => u.id)).toEqual([...people].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)));
    expect(r.body.find((u: any) => u.id === w.users.alice.id).bot).toBe(false);
    expect(r.body.find((u: any) => u.id === w.applications.EchoBot.bot_user_id).bot).toBe(true);
    const page = await call(p, "GET", `${base()}/${encodeURIComponent(FIRE)}?after=${r.body[0].id}&limit=1`, { token });
    expect(page.body.map((u: any) => u.id)).toEqual([r.body[1].id]);
    for (const bad of ["0", "101"])
      expect((await call(p, "GET", `${base()}/${encodeURIComponent(FIRE)}?limit=${bad}`, { token })).body.errors.limit).toBeDefined();
    expect((await call(p, "GET", `${base()}/${encodeURIComponent(FIRE)}?limit=100`, { token })).body).toHaveLength(3);
    expect((await call(p, "GET", `${base()}/${encodeURIComponent(FIRE)}?type=1`, { token })).body).toEqual([]);
  });

  test("another user's reaction, one emoji's, or all: MANAGE_MESSAGES, one reaction.removed per removed reaction", async () => {
    for (const n of ["alice", "bob"]) p.core.reactions.add(uuid(w.users[n].id), uuid(msg), { name: FIRE, id: null });
    p.core.reactions.add(uuid(w.users.alice.id), uuid(msg), { name: "👍", id: null });
    const other = await call(p, "DELETE", `${base()}/${encodeURIComponent(FIRE)}/${w.users.alice.id}`, { token });
    expect([other.status, other.body.code]).toEqual([403, 50001]);
    expect(refusal(await call(p, "DELETE", base(), { token }))).toEqual([403, 50001]);
    expect(refusal(await call(p, "DELETE", `${base()}/${encodeURIComponent(FIRE)}`, { token }))).toEqual([403, 50001]);
    p.core.guilds.addMemberRole(uuid(w.guilds.Lab.id), uuid(w.applications.EchoBot.bot_user_id), uuid(w.guilds.Lab.roles.Mod));
    const ev = recordEvents(p);
    expect((await call(p, "DELETE", `${base()}/${encodeURIComponent(FIRE)}/${w.users.alice.id}`, { token })).status).toBe(204);
    expect(ev.of("reaction.removed").map((e: any) => e.userId)).toEqual([uuid(w.users.alice.id)]);
    p.core.reactions.add(uuid(w.users.alice.id), uuid(msg), { name: FIRE, id: null });
    ev.clear();
    expect((await call(p, "DELETE", `${base()}/${encodeURIComponent(FIRE)}`, { token })).status).toBe(204);
    expect(ev.of("reaction.removed")).toHaveLength(2);
    ev.clear();
    expect((await call(p, "DELETE", base(), { token })).status).toBe(204);
    expect(ev.events.map((e: any) => [e.type, e.emoji.name])).toEqual([["reaction.removed", "👍"]]);
    expect((await call(p, "GET", `/channels/${general}/messages/${msg}`, { token })).body.reactions).toBeUndefined();
  });

  test("people react through the client API with the same emoji rules; a malformed one is 400 there", async () => {
    const ev = recordEvents(p);
    const path = `/api/client/v1/channels/${uuid(general)}/messages/${uuid(msg)}/reactions/${encodeURIComponent(FIRE)}`;
    const auth = { Authorization: `Session ${w.users.alice.token}` };
    expect((await call(p, "PUT", path, { headers: auth })).status).toBe(204);
    expect((await call(p, "DELETE", path, { headers: auth })).status).toBe(204);
    expect(ev.events.map((e) => e.type)).toEqual(["reaction.added", "reaction.removed"]);
    // Not an emoji at all is a malformed request on the people's API (as its GET of who
    // reacted answers); an emoji of the right form that the server does not have is Unknown
    // Emoji, as for bots.
    expect(refusal(await call(p, "PUT", path.replace(encodeURIComponent(FIRE), "nope"), { headers: auth }))).toEqual([400, 50035]);
    const unknown = `nope:${"01900000-0000-7000-8000-000000000000"}`;
    expect(refusal(await call(p, "PUT", path.replace(encodeURIComponent(FIRE), unknown), { headers: auth }))).toEqual([400, 10014]);
    // carol is in no server: the channel does not exist for her.
    expect(refusal(await call(p, "PUT", path, { headers: { Authorization: `Session ${w.users.carol.token}` } }))).toEqual([404, 10003]);
    expect(refusal(await call(p, "PUT", path))).toEqual([401, 0]);
  });

  test("rate limit: PUT @me is 1 per 250 ms per channel", async () => {
    const lp = (await import("../helpers")).makeParley();
    const lw = lp.seed(structuredClone(BASIC_WORLD));
    const ch = lw.guilds.Lab.channels.general;
    const m = lp.api.flakes.of(lp.core.messages.send(lp.api.flakes.uuid(lw.users.bob.id)!, lp.api.flakes.uuid(ch)!, { content: "x" }).id);
    const put = (e: string) =>
      call(lp, "PUT", `/channels/${ch}/messages/${m}/reactions/${encodeURIComponent(e)}/@me`, { token: lw.applications.EchoBot.token });
    lp.clock.advance(0);
    expect((await put(FIRE)).status).toBe(204);
    expect(refusal(await put("👍"))).toEqual([429, 0]);
    lp.clock.advance(250);
    expect((await put("👍")).status).toBe(204);
    await lp.stop();
  });
});
