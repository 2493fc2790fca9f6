/**
 * What the web client reads beside messages: read states (unread channels, mentions)
 * and the slash commands a person may run in a channel.
 */
import { describe, expect, test } from "bun:test";
import { client, internalId, liveBot, peopleWorld, recordEvents, refusal } from "../helpers";

function stateOf(list: any[], channel: string) {
  return list.find((r) => r.channel_id === channel);
}

describe("read states", () => {
  test("messages by others since one joined are unread; mentions count you, your roles and @everyone, never your own", async () => {
    const { p, w, alice, bob, general, staff, mod } = peopleWorld();
    const bobId = internalId(p, w.users.bob.id);
    const before = (await client(p, "GET", "/users/@me/read-states", bob)).body;
    expect(stateOf(before, general)).toEqual({ channel_id: general, last_read_id: null, unread: false, mention_count: 0 });
    await client(p, "POST", `/channels/${general}/messages`, bob, { content: `my own, <@${bobId}>` });
    expect(stateOf((await client(p, "GET", "/users/@me/read-states", bob)).body, general).unread).toBe(false);
    await client(p, "POST", `/channels/${general}/messages`, alice, { content: "plain" });
    await client(p, "POST", `/channels/${general}/messages`, alice, { content: `hey <@${bobId}>` });
    await client(p, "POST", `/channels/${general}/messages`, alice, { content: `mods: <@&${mod}>` });
    const last = (await client(p, "POST", `/channels/${general}/messages`, alice, { content: "@everyone look" })).body;
    const after = (await client(p, "GET", "/users/@me/read-states", bob)).body;
    expect(stateOf(after, general)).toEqual({ channel_id: general, last_read_id: null, unread: true, mention_count: 3 });
    expect(stateOf(after, staff).unread).toBe(false);

    const ev = recordEvents(p);
    const read = await client(p, "PUT", `/channels/${general}/read`, bob, { message_id: last.id });
    expect(read.body).toEqual({ channel_id: general, last_read_id: last.id, unread: false, mention_count: 0 });
    expect(ev.of("read_state.updated")).toEqual([{ type: "read_state.updated", userId: bobId, channelId: general }]);
  });

  test("marking read never goes backwards, and names only a message of that channel the person may see", async () => {
    const { p, alice, bob, carol, general, staff } = peopleWorld();
    const first = (await client(p, "POST", `/channels/${general}/messages`, alice, { content: "one" })).body;
    const second = (await client(p, "POST", `/channels/${general}/messages`, alice, { content: "two" })).body;
    await client(p, "PUT", `/channels/${general}/read`, bob, { message_id: second.id });
    const back = await client(p, "PUT", `/channels/${general}/read`, bob, { message_id: first.id });
    expect(back.body.last_read_id).toBe(second.id);
    expect(refusal(await client(p, "PUT", `/channels/${staff}/read`, bob, { message_id: first.id }))).toEqual([404, 10003]);
    expect(refusal(await client(p, "PUT", `/channels/${general}/read`, carol, { message_id: first.id }))).toEqual([404, 10003]);
    expect(refusal(await client(p, "PUT", `/channels/${general}/read`, bob, { message_id: "nope" }))).toEqual([400, 50035]);
  });

  test("a message deleted while the page marks it read: read up to the one before it, not a 404", async () => {
    const { p, alice, bob, general, staff } = peopleWorld();
    const first = (await client(p, "POST", `/channels/${general}/messages`, alice, { content: "one" })).body;
    const gone = (await client(p, "POST", `/channels/${general}/messages`, alice, { content: "taken back" })).body;
    await client(p, "DELETE", `/channels/${general}/messages/${gone.id}`, alice);
    const read = await client(p, "PUT", `/channels/${general}/read`, bob, { message_id: gone.id });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ channel_id: general, last_read_id: first.id, unread: false, mention_count: 0 });
    // Nothing before it either: nothing to mark, and still no refusal.
    const { body: only } = await client(p, "POST", `/channels/${staff}/messages`, alice, { content: "alone" });
    await client(p, "DELETE", `/channels/${staff}/messages/${only.id}`, alice);
    const none = await client(p, "PUT", `/channels/${staff}/read`, alice, { message_id: only.id });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ channel_id: staff, last_read_id: null, unread: false });
    // A message of another channel is still no mark of this one.
    expect(refusal(await client(p, "PUT", `/channels/${staff}/read`, bob, { message_id: first.id }))).toEqual([404, 10003]);
  });

  test("a server's Mark as read: each of its channels, up to its newest message, for that person only", async () => {
    const { p, w, alice, bob, carol, lab, general, staff } = peopleWorld();
    const bobId = internalId(p, w.users.bob.id);
    await client(p, "POST", `/channels/${general}/messages`, alice, { content: `hey <@${bobId}>` });
    const last = (await client(p, "POST", `/channels/${general}/messages`, alice, { content: "anyone?" })).body;
    const other = (await client(p, "POST", `/channels/${staff}/messages`, alice, { content: "over here" })).body;
    await client(p, "POST", `/channels/${general}/messages`, bob, { content: "back soon" });
    expect(stateOf((await client(p, "GET", "/users/@me/read-states", bob)).body, general)).toMatchObject({
      unread: true,
      mention_count: 1,
    });

    const ev = recordEvents(p);
    const r = await client(p, "PUT", `/guilds/${lab}/read`, bob);
    expect(r.status).toBe(200);
    expect(stateOf(r.body, general)).toMatchObject({ channel_id: general, unread: false, mention_count: 0 });
    expect(stateOf(r.body, general).last_read_id > last.id).toBe(true); // bob's own, the newest
    expect(stateOf(r.body, staff)).toEqual({ channel_id: staff, last_read_id: other.id, unread: false, mention_count: 0 });
    expect(
      ev
        .of("read_state.updated")
        .map((e: any) => e.channelId)
        .sort(),
    ).toEqual([general, staff].sort());
    // Again: nothing new, nothing moves, nothing is announced.
    const again = recordEvents(p);
    expect((await client(p, "PUT", `/guilds/${lab}/read`, bob)).status).toBe(200);
    expect(again.of("read_state.updated")).toEqual([]);
    // Alice's marks are her own: bob's message is still unread for her.
    expect(stateOf((await client(p, "GET", "/users/@me/read-states", alice)).body, general).unread).toBe(true);
    // Someone not in the server, and a server that does not exist: not found, as everywhere.
    expect(refusal(await client(p, "PUT", `/guilds/${lab}/read`, carol))).toEqual([404, 10003]);
    expect(refusal(await client(p, "PUT", "/guilds/nope/read", bob))).toEqual([404, 10003]);
  });

  test("Mark unread: read up to the message before, mentions counted again, for that person only", async () => {
    const { p, w, alice, bob, carol, general, staff } = peopleWorld();
    const bobId = internalId(p, w.users.bob.id);
    const first = (await client(p, "POST", `/channels/${general}/messages`, alice, { content: "one" })).body;
    const second = (await client(p, "POST", `/channels/${general}/messages`, alice, { content: `two, <@${bobId}>` })).body;
    const third = (await client(p, "POST", `/channels/${general}/messages`, alice, { content: "three" })).body;
    await client(p, "PUT", `/channels/${general}/read`, bob, { message_id: third.id });

    const ev = recordEvents(p);
    const r = await client(p, "PUT", `/channels/${general}/messages/${second.id}/unread`, bob);
    expect(r.body).toEqual({ channel_id: general, last_read_id: first.id, unread: true, mention_count: 1 });
    expect(ev.of("read_state.updated")).toEqual([{ type: "read_state.updated", userId: bobId, channelId: general }]);
    expect(stateOf((await client(p, "GET", "/users/@me/read-states", bob)).body, general)).toEqual(r.body);
    // The first message of the channel: no mark left, everything since bob joined unread.
    const all = await client(p, "PUT", `/channels/${general}/messages/${first.id}/unread`, bob);
    expect(all.body).toEqual({ channel_id: general, last_read_id: null, unread: true, mention_count: 1 });
    // Reading forward again works as ever.
    expect((await client(p, "PUT", `/channels/${general}/read`, bob, { message_id: third.id })).body.unread).toBe(false);
    // Alice's marks are untouched; a message of another channel, or someone outside, is 404.
    expect(stateOf((await client(p, "GET", "/users/@me/read-states", alice)).body, general).unread).toBe(false);
    const elsewhere = (await client(p, "POST", `/channels/${staff}/messages`, alice, { content: "x" })).body;
    expect(refusal(await client(p, "PUT", `/channels/${general}/messages/${elsewhere.id}/unread`, bob))).toEqual([404, 10003]);
    expect(refusal(await client(p, "PUT", `/channels/${general}/messages/${second.id}/unread`, carol))).toEqual([404, 10003]);
    expect(refusal(await client(p, "PUT", `/channels/${general}/messages/nope/unread`, bob))).toEqual([404, 10003]);
  });
});

describe("the commands of a channel", () => {
  test("each bot's commands there: a server's own over the global one of the same name, by name, options included", async () => {
    const { p, w, bob, carol, general, lab } = peopleWorld();
    const app = internalId(p, w.applications.EchoBot.id);
    const opt = { type: 3, name: "text", description: "What to echo", required: true };
    p.core.commands.upsert(app, null, { name: "echo", description: "global echo", options: [opt] });
    p.core.commands.upsert(app, lab, { name: "echo", description: "Lab's echo" });
    p.core.commands.upsert(app, null, { name: "about", description: "about" });
    p.core.commands.upsert(app, null, { name: "admin", description: "admins only", default_member_permissions: "8" });
    p.core.commands.upsert(app, null, { name: "User Info", type: 2 });
    const list = (await client(p, "GET", `/channels/${general}/commands`, bob)).body as any[];
    expect(list.map((c) => [c.name, c.description])).toEqual([
      ["about", "about"],
      ["echo", "Lab's echo"],
    ]);
    expect(list[0]).toMatchObject({ application_id: app, application_name: "EchoBot", options: [] });
    p.core.commands.delete(app, lab, list[1].id);
    const global = (await client(p, "GET", `/channels/${general}/commands`, bob)).body as any[];
    expect(global.find((c) => c.name === "echo").options).toEqual([opt]);
    expect(refusal(await client(p, "GET", `/channels/${general}/commands`, carol))).toEqual([404, 10003]);
  });

  test("what the list shows is what runs: a listed command delivers, an unlisted one is refused", async () => {
    const { p, w, bob, general } = peopleWorld();
    liveBot(p);
    const app = internalId(p, w.applications.EchoBot.id);
    p.core.commands.upsert(app, null, { name: "ping", description: "ping" });
    const [cmd] = (await client(p, "GET", `/channels/${general}/commands`, bob)).body;
    const ran = await client(p, "POST", `/channels/${general}/interactions`, bob, { application_id: cmd.application_id, name: cmd.name });
    expect(ran.body.delivered).toBe(true);
    expect(refusal(await client(p, "POST", `/channels/${general}/interactions`, bob, { application_id: app, name: "nope" }))).toEqual([
      400, 50035,
    ]);
  });
});
