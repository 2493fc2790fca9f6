/**
 * The portal's additions for the pages: an administrator denies or revokes privileged
 * intents (no longer pending, shown as denied until asked again) and lists approved
 * ones; install links at {portal_url}/install/<id> (base URL + /developers unless
 * --portal-url says otherwise), by internal id or snowflake; context-menu command lists.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { call, client, internalId, makeParley, peopleWorld, refusal, seedBasic } from "../helpers";
import { portalPaths } from "../../src/config";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let alice: string, bob: string, carol: string;
let lab: string, general: string;

beforeEach(() => {
  ({ p, w, alice, bob, carol, lab, general } = peopleWorld());
});

async function newApp(intents = ["GUILDS", "GUILD_MESSAGES"]) {
  const r = await client(p, "POST", "/applications", carol, { name: "Helper", intents });
  expect(r.status).toBe(200);
  return r.body.application as { id: string; [k: string]: any };
}

const decide = (id: string, body: object, token = alice) => client(p, "POST", `/admin/applications/${id}/privileged`, token, body);
const pendingIds = async () => (await client(p, "GET", "/admin/privileged-requests", alice)).body.map((a: any) => a.id);

describe("administrators deny and revoke privileged intents", () => {
  test("a denied request is no longer pending; saving intents does not ask again, a request does", async () => {
    const app = await newApp();
    const asked = await client(p, "POST", `/applications/${app.id}/privileged-requests`, carol, { intents: ["MESSAGE_CONTENT"] });
    expect(asked.body).toMatchObject({
      intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT"],
      privileged_requested: ["MESSAGE_CONTENT"],
    });
    const listed = (await client(p, "GET", "/admin/privileged-requests", alice)).body.find((a: any) => a.id === app.id);
    expect(listed.owner).toMatchObject({ username: "carol", bot: false });

    expect(refusal(await decide(app.id, { intents: ["MESSAGE_CONTENT"], deny: true }, bob))).toEqual([403, 50001]);
    const denied = await decide(app.id, { intents: ["MESSAGE_CONTENT"], deny: true });
    expect(denied.status).toBe(200);
    expect(denied.body).toMatchObject({
      privileged_requested: [],
      privileged_approved: [],
      privileged_denied: ["MESSAGE_CONTENT"],
      granted_intents: ["GUILDS", "GUILD_MESSAGES"],
    });
    expect(await pendingIds()).not.toContain(app.id);

    const saved = await client(p, "PUT", `/applications/${app.id}/intents`, carol, { intents: ["GUILDS", "MESSAGE_CONTENT"] });
    expect(saved.body).toMatchObject({ privileged_requested: [], privileged_denied: ["MESSAGE_CONTENT"] });
    expect(await pendingIds()).not.toContain(app.id);

    const again = await client(p, "POST", `/applications/${app.id}/privileged-requests`, carol, { intents: ["MESSAGE_CONTENT"] });
    expect(again.body).toMatchObject({ privileged_requested: ["MESSAGE_CONTENT"], privileged_denied: [] });
    expect(await pendingIds()).toContain(app.id);
  });

  test("approved ones are listed for revocation; a revoked intent is denied, not pending, and leaves the next token", async () => {
    const app = await newApp(["GUILDS", "MESSAGE_CONTENT"]);
    // The world's EchoBot holds MESSAGE_CONTENT already.
    const grantsOf = async () =>
      (await client(p, "GET", "/admin/privileged-grants", alice)).body.map((a: any) => [a.name, a.privileged_approved, a.owner.username]);
    expect(await grantsOf()).toEqual([["EchoBot", ["MESSAGE_CONTENT"], "alice"]]);
    expect(refusal(await client(p, "GET", "/admin/privileged-grants", bob))).toEqual([403, 50001]);
    await decide(app.id, { intents: ["MESSAGE_CONTENT"] });
    expect(await grantsOf()).toEqual([
      ["EchoBot", ["MESSAGE_CONTENT"], "alice"],
      ["Helper", ["MESSAGE_CONTENT"], "carol"],
    ]);
    expect(await pendingIds()).not.toContain(app.id);

    const revoked = await decide(app.id, { intents: ["MESSAGE_CONTENT"], revoke: true });
    expect(revoked.body).toMatchObject({ privileged_approved: [], privileged_requested: [], privileged_denied: ["MESSAGE_CONTENT"] });
    expect(await pendingIds()).not.toContain(app.id);
    expect(await grantsOf()).toEqual([["EchoBot", ["MESSAGE_CONTENT"], "alice"]]);
    await client(p, "POST", `/applications/${app.id}/token`, carol);
    expect((await client(p, "GET", `/applications/${app.id}`, carol)).body.token_intents).toEqual(["GUILDS"]);
    // Approving later clears the denial.
    const approved = await decide(app.id, { intents: ["MESSAGE_CONTENT"] });
    expect(approved.body).toMatchObject({ privileged_approved: ["MESSAGE_CONTENT"], privileged_denied: [] });
  });

  test("deny takes privileged intents only and an unknown application is 404", async () => {
    const app = await newApp();
    expect(refusal(await decide(app.id, { intents: ["GUILDS"], deny: true }))).toEqual([400, 50035]);
    expect(refusal(await decide(app.id, { intents: ["MESSAGE_CONTENT"], deny: "yes" }))).toEqual([400, 50035]);
    expect(refusal(await decide("01a1fcc1-cc9f-7001-8e48-0e8f66896c36", { intents: ["MESSAGE_CONTENT"], deny: true }))).toEqual([
      404, 10003,
    ]);
  });
});

describe("install links", () => {
  test("an application's install_url is {portal_url}/install/<id>; the lookup also takes its snowflake", async () => {
    const app = await newApp();
    expect(app.install_url).toBe(`${p.api.urls.portal}/install/${app.id}`);
    expect(p.api.urls.portal).toBe(`${p.api.urls.base}/developers`);
    const flake = p.api.flakes.of(app.id);
    const byFlake = await client(p, "GET", `/applications/${flake}/install`, bob);
    expect(byFlake.body).toEqual({ id: app.id, name: "Helper", description: "", bot_user_id: app.bot_user_id, installed_in: [] });
    expect(refusal(await client(p, "GET", "/applications/123456789012345678/install", bob))).toEqual([404, 10003]);
    expect((await client(p, "POST", `/applications/${flake}/install`, alice, { guild_id: lab })).status).toBe(204);
    expect((await client(p, "GET", `/applications/${app.id}`, carol)).body.guilds).toEqual([{ id: lab, name: "Lab" }]);
  });

  test("--portal-url overrides the portal's address, and its path serves the pages too", async () => {
    const q = makeParley({ portalUrl: "https://dev.example.com/portal" });
    seedBasic(q);
    q.listen();
    try {
      expect(q.api.urls.portal).toBe("https://dev.example.com/portal");
      const me = (await (await fetch(`${q.api.urls.base}/api/client/v1/users/@me`)).json()) as any;
      expect(me.code).toBe(0);
      for (const path of ["/developers", "/developers/install/x", "/developers/applications/x", "/admin", "/portal", "/portal/install/x"]) {
        const r = await fetch(`${q.api.urls.base}${path}`);
        expect([path, r.status, r.headers.get("content-type")?.split(";")[0]]).toEqual([path, 200, "text/html"]);
      }
    } finally {
      await q.stop();
    }
    expect(portalPaths({ portalUrl: null })).toEqual(["/developers"]);
    expect(portalPaths({ portalUrl: "https://dev.example.com" })).toEqual(["/developers", ""]);
    expect(portalPaths({ portalUrl: "https://example.com/api/x" })).toEqual(["/developers"]);
  });
});

describe("context-menu commands a person may run", () => {
  test("?type=2 lists USER commands, ?type=3 MESSAGE commands; the default stays the slash commands", async () => {
    const app = w.applications.EchoBot;
    await call(p, "PUT", `/applications/${app.id}/commands`, {
      token: app.token,
      body: [
        { name: "Profile", type: 2 },
        { name: "Quote", type: 3 },
        { name: "ping", description: "Ping" },
      ],
    });
    const names = async (q: string) => (await client(p, "GET", `/channels/${general}/commands${q}`, bob)).body.map((c: any) => c.name);
    expect(await names("")).toEqual(["ping"]);
    expect(await names("?type=1")).toEqual(["ping"]);
    expect(await names("?type=2")).toEqual(["Profile"]);
    expect(await names("?type=3")).toEqual(["Quote"]);
    expect(refusal(await client(p, "GET", `/channels/${general}/commands?type=4`, bob))).toEqual([400, 50035]);
    const c = (await client(p, "GET", `/channels/${general}/commands?type=2`, bob)).body[0];
    expect(c).toMatchObject({ application_id: internalId(p, app.id), application_name: "EchoBot", options: [] });
  });
});
