/**
 * The people's routes for following a conversation: search, the mentions inbox, pins,
 * notification settings, the server's default, and history around a message.
 */
import { describe, expect, test } from "bun:test";
import { client, internalId, peopleWorld, recordEvents, refusal } from "../helpers";

function world() {
  const x = peopleWorld();
  const carolId = internalId(x.p, x.w.users.carol.id);
  x.p.core.guilds.addMember(x.lab, carolId);
  return { ...x, carolId, aliceId: internalId(x.p, x.w.users.alice.id), bobId: internalId(x.p, x.w.users.bob.id) };
}
const say = async (x: ReturnType<typeof world>, who: string, content: string, channel = x.general) =>
  (await client(x.p, "POST", `/channels/${channel}/messages`, who, { content })).body;
const texts = (ms: { content: string }[]) => ms.map((m) => m.content);

describe("search", () => {
  test("members find words and phrases, newest first, with the typed filters and the reference's; outsiders are told the server does not exist", async () => {
    const x = world();
    await say(x, x.alice, "the quick brown fox");
    await say(x, x.bob, "a brown bear");
    await say(x, x.alice, "brown fox, quick");
    const s = (q: string, who = x.carol) => client(x.p, "GET", `/guilds/${x.lab}/messages/search?${q}`, who);
    expect(texts((await s("content=brown")).body.messages)).toEqual(["brown fox, quick", "a brown bear", "the quick brown fox"]);
    expect(texts((await s(`content=${encodeURIComponent('"quick brown"')}`)).body.messages)).toEqual(["the quick brown fox"]);
    expect(texts((await s("content=brown%20from:bob")).body.messages)).toEqual(["a brown bear"]);
    expect(texts((await s(`content=brown&author_id=${x.aliceId}`)).body.messages)).toEqual(["brown fox, quick", "the quick brown fox"]);
    const page = (await s("content=brown&limit=1&offset=1")).body;
    expect(page.total).toBe(3);
    expect(texts(page.messages)).toEqual(["a brown bear"]);
    expect(refusal(await s("content=brown&limit=26"))).toEqual([400, 50035]);
    expect(refusal(await s("content=brown&has=smell"))).toEqual([400, 50035]);
    const outsider = (await client(x.p, "POST", "/auth/signup", null, { username: "dora", password: "correct horse battery staple" })).body
      .token;
    expect(refusal(await s("content=brown", outsider))).toEqual([404, 10003]);
  });

  test("a query of only an unknown has: names it and the ones there are, not that it was empty", async () => {
    const x = world();
    await say(x, x.alice, "brown and pinned");
    const s = (q: string) => client(x.p, "GET", `/guilds/${x.lab}/messages/search?content=${encodeURIComponent(q)}`, x.bob);
    const alone = await s("has:pin");
    expect(refusal(alone)).toEqual([400, 50035]);
    expect(alone.body.errors.content._errors[0].message).toBe(
      "Unknown filter has:pin. Use has:file, has:image, has:video, has:sound, has:link or has:embed.",
    );
    // With words beside it, the words are searched and the unknown filter is a problem said beside the results.
    const beside = (await s("brown has:pin")).body;
    expect(texts(beside.messages)).toEqual(["brown and pinned"]);
    expect(beside.problems).toEqual(["Unknown filter has:pin. Use has:file, has:image, has:video, has:sound, has:link or has:embed."]);
    // Nothing typed at all is still what it was.
    expect((await s("   ")).body.errors.content._errors[0].message).toBe("A search needs words or filters.");
  });

  test("a DM is never found, not even by its own people; pinned:true finds what is pinned", async () => {
    const x = world();
    const dm = x.p.core.dms.open(x.aliceId, x.bobId);
    x.p.core.messages.send(x.aliceId, dm.id, { content: "secret brown" });
    const kept = await say(x, x.alice, "brown keeper");
    await say(x, x.alice, "brown other");
    expect((await client(x.p, "PUT", `/channels/${x.general}/pins/${kept.id}`, x.alice)).status).toBe(204);
    expect(texts((await client(x.p, "GET", `/guilds/${x.lab}/messages/search?content=brown%20pinned:true`, x.bob)).body.messages)).toEqual([
      "brown keeper",
    ]);
    expect(texts((await client(x.p, "GET", `/guilds/${x.lab}/messages/search?content=brown&pinned=false`, x.bob)).body.messages)).toEqual([
      "brown other",
    ]);
    expect((await client(x.p, "GET", `/guilds/${x.lab}/messages/search?content=secret`, x.bob)).body.total).toBe(0);
  });
});

describe("the mentions inbox", () => {
  test("messages mentioning me, a role of mine or everyone, newest first, never my own", async () => {
    const x = world();
    await say(x, x.alice, `hey <@${x.bobId}>`);
    await say(x, x.alice, "nothing for bob");
    await say(x, x.alice, `mods <@&${x.mod}>`);
    await say(x, x.bob, `talking to myself <@${x.bobId}>`);
    const inbox = (await client(x.p, "GET", "/users/@me/mentions", x.bob)).body;
    expect(texts(inbox)).toEqual([`mods <@&${x.mod}>`, `hey <@${x.bobId}>`]);
    expect(texts((await client(x.p, "GET", `/users/@me/mentions?limit=1&before=${inbox[0].id}`, x.bob)).body)).toEqual([
      `hey <@${x.bobId}>`,
    ]);
    expect((await client(x.p, "GET", "/users/@me/mentions", x.carol)).body).toEqual([]);
  });
});

describe("pins", () => {
  test("those with MANAGE_MESSAGES pin and unpin; the list, the message's flag and the notice follow; others are refused", async () => {
    const x = world();
    const m = await say(x, x.carol, "pin me");
    expect(refusal(await client(x.p, "PUT", `/channels/${x.general}/pins/${m.id}`, x.carol))).toEqual([403, 50001]);
    const ev = recordEvents(x.p);
    expect((await client(x.p, "PUT", `/channels/${x.general}/pins/${m.id}`, x.bob)).status).toBe(204);
    expect(ev.of("message.updated")).toHaveLength(1);
    const list = (await client(x.p, "GET", `/channels/${x.general}/pins`, x.carol)).body;
    expect(list.has_more).toBe(false);
    expect(list.items.map((i: any) => [i.message.id, i.message.pinned])).toEqual([[m.id, true]]);
    const [notice] = (await client(x.p, "GET", `/channels/${x.general}/messages?limit=1`, x.carol)).body;
    expect(notice).toMatchObject({ type: 6, reply_to: m.id, author: { id: x.bobId } });
    expect(refusal(await client(x.p, "GET", `/channels/${x.general}/pins?before=never`, x.carol))).toEqual([400, 50035]);
    expect((await client(x.p, "DELETE", `/channels/${x.general}/pins/${m.id}`, x.bob)).status).toBe(204);
    expect((await client(x.p, "GET", `/channels/${x.general}/pins`, x.carol)).body.items).toEqual([]);
  });
});

describe("notification settings", () => {
  test("unset is null; put, get and list; a mute in ISO; other sessions hear of it; a channel one cannot see is 404", async () => {
    const x = world();
    expect((await client(x.p, "GET", `/users/@me/notification-settings/${x.general}`, x.bob)).body).toEqual({
      scope_id: x.general,
      guild_id: x.lab,
      channel_id: x.general,
      level: null,
      muted_until: null,
    });
    const ev = recordEvents(x.p);
    const until = new Date(x.p.clock.now() + 3600_000).toISOString();
    const put = await client(x.p, "PUT", `/users/@me/notification-settings/${x.lab}`, x.bob, { level: 1, muted_until: until });
    expect(put.body).toEqual({ scope_id: x.lab, guild_id: x.lab, channel_id: null, level: 1, muted_until: until });
    expect(ev.of("notification_settings.updated")).toEqual([{ type: "notification_settings.updated", userId: x.bobId, scopeId: x.lab }]);
    expect((await client(x.p, "GET", "/users/@me/notification-settings", x.bob)).body).toEqual([put.body]);
    expect(
      (await client(x.p, "PUT", `/users/@me/notification-settings/${x.lab}`, x.bob, { level: null, muted_until: null })).body.level,
    ).toBeNull();
    expect((await client(x.p, "GET", "/users/@me/notification-settings", x.bob)).body).toEqual([]);
    expect(refusal(await client(x.p, "PUT", `/users/@me/notification-settings/${x.lab}`, x.bob, { level: 7 }))).toEqual([400, 50035]);
    expect(refusal(await client(x.p, "PUT", `/users/@me/notification-settings/${x.lab}`, x.bob, { muted_until: "soon" }))).toEqual([
      400, 50035,
    ]);
    const dm = x.p.core.dms.open(x.aliceId, x.carolId);
    expect(refusal(await client(x.p, "GET", `/users/@me/notification-settings/${dm.id}`, x.bob))).toEqual([404, 10003]);
  });

  test("the server's default: MANAGE_GUILD sets it through PATCH /guilds/{id}; members see it in the server", async () => {
    const x = world();
    expect(refusal(await client(x.p, "PATCH", `/guilds/${x.lab}`, x.carol, { default_message_notifications: 1 }))).toEqual([403, 50001]);
    expect(
      (await client(x.p, "PATCH", `/guilds/${x.lab}`, x.alice, { default_message_notifications: 1 })).body.default_message_notifications,
    ).toBe(1);
    const mine = (await client(x.p, "GET", "/guilds", x.carol)).body;
    expect(mine.find((g: any) => g.id === x.lab).default_message_notifications).toBe(1);
    expect(refusal(await client(x.p, "PATCH", `/guilds/${x.lab}`, x.alice, { default_message_notifications: 2 }))).toEqual([400, 50035]);
  });
});

describe("history around a message", () => {
  test("?around= answers the message with its neighbours; with before or after it is 400", async () => {
    const x = world();
    const sent = [];
    for (const t of ["one", "two", "three", "four", "five"]) sent.push(await say(x, x.alice, t));
    const around = (await client(x.p, "GET", `/channels/${x.general}/messages?around=${sent[2].id}&limit=3`, x.bob)).body;
    expect(texts(around).sort()).toEqual(["four", "three", "two"]);
    expect(refusal(await client(x.p, "GET", `/channels/${x.general}/messages?around=${sent[2].id}&before=${sent[4].id}`, x.bob))).toEqual([
      400, 50035,
    ]);
  });
});
