import { describe, expect, test, beforeEach } from "bun:test";
import { call, client, recordEvents, rowCounts, peopleWorld, refusal } from "../helpers";
import type { Parley } from "../../src/app";

let p: Parley;
let alice: string, bob: string, carol: string;
let lab: string;

beforeEach(() => {
  ({ p, alice, bob, carol, lab } = peopleWorld());
});

async function newApp(token = carol, body: unknown = { name: "Helper", intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT"] }) {
  const r = await client(p, "POST", "/applications", token, body);
  expect(r.status).toBe(200);
  return r.body as { application: any; token: string };
}

describe("developer portal", () => {
  test("create: the token is shown once and works on the bot API; the public key is hex", async () => {
    const { application, token } = await newApp();
    expect(application).toMatchObject({
      name: "Helper",
      intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT"],
      granted_intents: ["GUILDS", "GUILD_MESSAGES"],
      privileged_requested: ["MESSAGE_CONTENT"],
      privileged_approved: [],
      token_version: 1,
      interactions_endpoint_url: null,
    });
    expect(application.public_key).toMatch(/^[0-9a-f]{64}$/);
    expect((await call(p, "GET", "/users/@me", { token })).status).toBe(200);
    const read = await client(p, "GET", `/applications/${application.id}`, carol);
    expect(JSON.stringify(read.body)).not.toContain(token.split(".")[2]);
    expect((await client(p, "GET", "/applications", carol)).body.map((a: any) => a.id)).toEqual([application.id]);
  });

  test("only the owner sees or changes an application (others get 404)", async () => {
    const { application } = await newApp();
    for (const [m, path, body] of [
      ["GET", "", undefined],
      ["PATCH", "", { name: "Mine" }],
      ["DELETE", "", undefined],
      ["POST", "/token", undefined],
      ["PUT", "/intents", { intents: ["GUILDS"] }],
    ] as const) {
      const r = await client(p, m, `/applications/${application.id}${path}`, bob, body);
      expect(r.status).toBe(404);
      expect(r.body.code).toBe(10003);
    }
  });

  test("edit: name, description, an https-only interactions endpoint URL", async () => {
    const { application } = await newApp();
    const ok = await client(p, "PATCH", `/applications/${application.id}`, carol, {
      name: "Helper2",
      description: "helps",
      interactions_endpoint_url: "https://example.com/i",
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ name: "Helper2", description: "helps", interactions_endpoint_url: "https://example.com/i" });
    for (const url of ["http://example.com/i", "not a url", "ftp://example.com"]) {
      const r = await client(p, "PATCH", `/applications/${application.id}`, carol, { interactions_endpoint_url: url });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
    }
    const cleared = await client(p, "PATCH", `/applications/${application.id}`, carol, { interactions_endpoint_url: null });
    expect(cleared.body.interactions_endpoint_url).toBeNull();
  });

  test("rotate: a new token; the old one is refused at once", async () => {
    const { application, token } = await newApp();
    const ev = recordEvents(p);
    const r = await client(p, "POST", `/applications/${application.id}/token`, carol);
    expect(r.status).toBe(200);
    expect(r.body.token).not.toBe(token);
    expect(ev.count("application.token_rotated")).toBe(1);
    expect(refusal(await call(p, "GET", "/users/@me", { token }))).toEqual([401, 0]);
    expect((await call(p, "GET", "/users/@me", { token: r.body.token })).status).toBe(200);
    expect((await client(p, "GET", `/applications/${application.id}`, carol)).body.token_version).toBe(2);
  });

  test("intents change the next token only; privileged ones wait for an administrator", async () => {
    const { application } = await newApp(carol, { name: "Quiet", intents: ["GUILDS"] });
    const set = await client(p, "PUT", `/applications/${application.id}/intents`, carol, { intents: ["GUILDS", "GUILD_MEMBERS"] });
    expect(set.body).toMatchObject({ intents: ["GUILDS", "GUILD_MEMBERS"], granted_intents: ["GUILDS"], token_intents: ["GUILDS"] });
    const req = await client(p, "POST", `/applications/${application.id}/privileged-requests`, carol, { intents: ["MESSAGE_CONTENT"] });
    expect(req.body.privileged_requested).toEqual(["GUILD_MEMBERS", "MESSAGE_CONTENT"]);
    const notPrivileged = await client(p, "POST", `/applications/${application.id}/privileged-requests`, carol, { intents: ["GUILDS"] });
    expect(refusal(notPrivileged)).toEqual([400, 50035]);
    const unknown = await client(p, "PUT", `/applications/${application.id}/intents`, carol, { intents: ["GUILDS", "TELEPATHY"] });
    expect(refusal(unknown)).toEqual([400, 50035]);
    expect(unknown.body.message).toContain("intents[1]");

    // bob is no administrator; alice is
    expect(refusal(await client(p, "GET", "/admin/privileged-requests", bob))).toEqual([403, 50001]);
    const pending = await client(p, "GET", "/admin/privileged-requests", alice);
    expect(pending.body.map((a: any) => a.id)).toContain(application.id);
    const byBob = await client(p, "POST", `/admin/applications/${application.id}/privileged`, bob, { intents: ["MESSAGE_CONTENT"] });
    expect(refusal(byBob)).toEqual([403, 50001]);
    const ok = await client(p, "POST", `/admin/applications/${application.id}/privileged`, alice, { intents: ["MESSAGE_CONTENT"] });
    expect(ok.body.privileged_approved).toEqual(["MESSAGE_CONTENT"]);
    expect(ok.body.granted_intents).toEqual(["GUILDS", "MESSAGE_CONTENT"]);
    expect(ok.body.token_intents).toEqual(["GUILDS"]);
    await client(p, "POST", `/applications/${application.id}/token`, carol);
    const after = await client(p, "GET", `/applications/${application.id}`, carol);
    expect(after.body.token_intents).toEqual(["GUILDS", "MESSAGE_CONTENT"]);
    const revoked = await client(p, "POST", `/admin/applications/${application.id}/privileged`, alice, {
      intents: ["MESSAGE_CONTENT"],
      revoke: true,
    });
    expect(revoked.body.privileged_approved).toEqual([]);
  });

  test("install needs Manage Server (or ownership); removal is for the application's owner", async () => {
    const { application } = await newApp();
    const bot = application.bot_user_id;
    const info = await client(p, "GET", `/applications/${application.id}/install`, bob);
    expect(info.body).toMatchObject({ id: application.id, name: "Helper", bot_user_id: bot, installed_in: [] });
    const ev = recordEvents(p);
    const byBob = await client(p, "POST", `/applications/${application.id}/install`, bob, { guild_id: lab });
    expect(refusal(byBob)).toEqual([403, 50001]);
    const byStranger = await client(p, "POST", `/applications/${application.id}/install`, carol, { guild_id: lab });
    expect(refusal(byStranger)).toEqual([404, 10003]);
    expect(ev.count("member.added")).toBe(0);
    const ok = await client(p, "POST", `/applications/${application.id}/install`, alice, { guild_id: lab });
    expect(ok.status).toBe(204);
    expect(ev.count("member.added")).toBe(1);
    expect(p.core.guilds.isMember(lab, bot)).toBe(true);
    // Where the bot already is, among the asker's own servers only.
    expect((await client(p, "GET", `/applications/${application.id}/install`, alice)).body.installed_in).toEqual([lab]);
    expect((await client(p, "GET", `/applications/${application.id}/install`, carol)).body.installed_in).toEqual([]);
    // alice owns the server but not the application: only its owner removes it here
    expect(refusal(await client(p, "DELETE", `/applications/${application.id}/guilds/${lab}`, alice))).toEqual([404, 10003]);
    expect((await client(p, "DELETE", `/applications/${application.id}/guilds/${lab}`, carol)).status).toBe(204);
    expect(ev.count("member.removed")).toBe(1);
    expect(p.core.guilds.isMember(lab, bot)).toBe(false);
  });

  test("delete: the bot leaves every server and its token stops at once", async () => {
    const { application, token } = await newApp(alice, { name: "Doomed" });
    await client(p, "POST", `/applications/${application.id}/install`, alice, { guild_id: lab });
    const ev = recordEvents(p);
    expect((await client(p, "DELETE", `/applications/${application.id}`, alice)).status).toBe(204);
    expect(ev.count("application.deleted")).toBe(1);
    expect(ev.count("member.removed")).toBe(1);
    expect(refusal(await call(p, "GET", "/users/@me", { token }))).toEqual([401, 0]);
    expect(refusal(await client(p, "GET", `/applications/${application.id}`, alice))).toEqual([404, 10003]);
  });

  test("bad application bodies are 400 50035 and create nothing", async () => {
    const before = rowCounts(p, ["applications", "users"]);
    for (const body of [
      {},
      { name: "x" },
      { name: "ok name", intents: ["NOPE"] },
      { name: "ok", description: "d".repeat(401) },
      { name: "ok", extra: 1 },
    ]) {
      const r = await client(p, "POST", "/applications", carol, body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
    }
    expect(rowCounts(p, ["applications", "users"])).toEqual(before);
  });
});
