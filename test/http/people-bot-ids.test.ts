/**
 * The ids bots see, asked for by a person (the web client's developer mode, "Copy ID"):
 * each is the snowflake a bot meets for the same server, channel, message or person, and
 * only for what the person can see; anything else is 404, and nothing is minted for it.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { call, client, internalId, makeParley, rowCounts, seedBasic } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let lab: string;
let general: string;
let staff: string;
beforeEach(() => {
  p = makeParley();
  w = seedBasic(p);
  lab = internalId(p, w.guilds.Lab.id);
  general = internalId(p, w.guilds.Lab.channels.general);
  staff = internalId(p, w.guilds.Lab.channels.staff);
});

describe("the ids bots see", () => {
  test("a server, a channel, a message and a person: the very ids a bot meets", async () => {
    const alice = w.users.alice.token;
    expect((await client(p, "GET", `/guilds/${lab}/bot-id`, alice)).body).toEqual({ id: w.guilds.Lab.id });
    expect((await client(p, "GET", `/channels/${general}/bot-id`, alice)).body).toEqual({ id: w.guilds.Lab.channels.general });
    expect((await client(p, "GET", `/users/${internalId(p, w.users.bob.id)}/bot-id`, alice)).body).toEqual({ id: w.users.bob.id });
    const me = internalId(p, w.users.alice.id);
    expect((await client(p, "GET", `/users/${me}/bot-id`, alice)).body).toEqual({ id: w.users.alice.id });

    const sent = await client(p, "POST", `/channels/${general}/messages`, alice, { content: "which one?" });
    const asked = await client(p, "GET", `/channels/${general}/messages/${sent.body.id}/bot-id`, alice);
    expect(asked.status).toBe(200);
    // The bot reads the channel's history: the newest message there has that id.
    const seen = await call(p, "GET", `/channels/${w.guilds.Lab.channels.general}/messages?limit=1`, {
      token: w.applications.EchoBot.token,
    });
    expect(seen.status).toBe(200);
    expect(seen.body[0]).toMatchObject({ id: asked.body.id, content: "which one?" });
  });

  test("what the person cannot see is 404, and no id is made for it", async () => {
    const carol = w.users.carol.token; // in no server
    const sent = await client(p, "POST", `/channels/${general}/messages`, w.users.alice.token, { content: "members only" });
    const before = rowCounts(p, ["snowflakes"]);
    expect((await client(p, "GET", `/guilds/${lab}/bot-id`, carol)).status).toBe(404);
    expect((await client(p, "GET", `/channels/${general}/bot-id`, carol)).status).toBe(404);
    expect((await client(p, "GET", `/users/${internalId(p, w.users.bob.id)}/bot-id`, carol)).status).toBe(404);
    expect((await client(p, "GET", `/channels/${general}/messages/${sent.body.id}/bot-id`, carol)).status).toBe(404);
    expect(rowCounts(p, ["snowflakes"])).toEqual(before);
    // Unknown and malformed ids are 404 too, never 500.
    for (const path of ["/guilds/nope/bot-id", "/channels/00000000-0000-7000-8000-000000000000/bot-id", "/users/%00/bot-id"])
      expect((await client(p, "GET", path, carol)).status).toBe(404);
    // A DM is its two people's: a third is told nothing of it.
    const dm = await client(p, "POST", "/users/@me/dms", w.users.alice.token, { recipient_id: internalId(p, w.users.bob.id) });
    expect(dm.status).toBe(200);
    expect((await client(p, "GET", `/channels/${dm.body.id}/bot-id`, w.users.bob.token)).status).toBe(200);
    expect((await client(p, "GET", `/channels/${dm.body.id}/bot-id`, carol)).status).toBe(404);
    expect((await client(p, "GET", `/channels/${staff}/bot-id`, null)).status).toBe(401);
  });
});
