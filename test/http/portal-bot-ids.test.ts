/**
 * The portal's Application ID: the snowflake a bot program registers commands under
 * (GET /oauth2/applications/@me's id, not the bot user's), shown to the owner only.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { call, client, peopleWorld, refusal } from "../helpers";
import type { Parley } from "../../src/app";

let p: Parley;
let carol: string, bob: string, alice: string, lab: string;
let w: ReturnType<typeof peopleWorld>["w"];

beforeEach(() => {
  ({ p, w, carol, bob, alice, lab } = peopleWorld());
});

describe("an application's bot ids", () => {
  test("the Application ID is the one the bot API knows, and commands register under it", async () => {
    const { application, token } = (await client(p, "POST", "/applications", carol, { name: "Deployer" })).body;
    const ids = await client(p, "GET", `/applications/${application.id}/bot-ids`, carol);
    expect(ids.status).toBe(200);
    expect(ids.body.application_id).toBe((await call(p, "GET", "/oauth2/applications/@me", { token })).body.id);
    expect(ids.body.bot_user_id).toBe((await call(p, "GET", "/users/@me", { token })).body.id);
    expect(ids.body.application_id).not.toBe(ids.body.bot_user_id);
    const put = await call(p, "PUT", `/applications/${ids.body.application_id}/commands`, {
      token,
      body: [{ name: "ping", description: "Replies with pong" }],
    });
    expect(put.status).toBe(200);
  });

  test("the servers its bot is in, by the ids the bot knows them by: only those", async () => {
    const { application, token } = (await client(p, "POST", "/applications", carol, { name: "Deployer" })).body;
    expect((await client(p, "GET", `/applications/${application.id}/bot-ids`, carol)).body.guild_ids).toEqual({});
    expect((await client(p, "POST", `/applications/${application.id}/install`, alice, { guild_id: lab })).status).toBe(204);
    const ids = (await client(p, "GET", `/applications/${application.id}/bot-ids`, carol)).body;
    const seen = (await call(p, "GET", "/users/@me/guilds", { token })).body.map((g: { id: string }) => g.id);
    expect(ids.guild_ids).toEqual({ [lab]: w.guilds.Lab.id });
    expect(Object.values(ids.guild_ids)).toEqual(seen);
    // A server command registered under it reaches that server.
    const put = await call(p, "PUT", `/applications/${ids.application_id}/guilds/${ids.guild_ids[lab]}/commands`, {
      token,
      body: [{ name: "ping", description: "Replies with pong" }],
    });
    expect(put.status).toBe(200);
  });

  test("another person's application: 404", async () => {
    const { application } = (await client(p, "POST", "/applications", carol, { name: "Deployer" })).body;
    const r = await client(p, "GET", `/applications/${application.id}/bot-ids`, bob);
    expect([r.status, r.body.code]).toEqual([404, 10003]);
  });

  test("an install link may name the bot user's id as the application's (a bot's own client.user.id)", async () => {
    const { application, token } = (await client(p, "POST", "/applications", carol, { name: "Deployer" })).body;
    const ids = (await client(p, "GET", `/applications/${application.id}/bot-ids`, carol)).body;
    const info = await client(p, "GET", `/applications/${ids.bot_user_id}/install`, alice);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ id: application.id, name: "Deployer", installed_in: [] });
    expect((await client(p, "POST", `/applications/${ids.bot_user_id}/install`, alice, { guild_id: lab })).status).toBe(204);
    expect((await client(p, "GET", `/applications/${ids.bot_user_id}/install`, alice)).body.installed_in).toEqual([lab]);
    expect((await call(p, "GET", "/users/@me/guilds", { token })).body.map((g: { name: string }) => g.name)).toEqual(["Lab"]);
    // A person's user id names no application.
    expect(refusal(await client(p, "GET", `/applications/${w.users.bob.id}/install`, alice))).toEqual([404, 10003]);
  });
});
