/**
 * The portal's Application ID: the snowflake a bot program registers commands under
 * (GET /oauth2/applications/@me's id, not the bot user's), shown to the owner only.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { call, client, peopleWorld } from "../helpers";
import type { Parley } from "../../src/app";

let p: Parley;
let carol: string, bob: string;

beforeEach(() => {
  ({ p, carol, bob } = peopleWorld());
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

  test("another person's application: 404", async () => {
    const { application } = (await client(p, "POST", "/applications", carol, { name: "Deployer" })).body;
    const r = await client(p, "GET", `/applications/${application.id}/bot-ids`, bob);
    expect([r.status, r.body.code]).toEqual([404, 10003]);
  });
});
