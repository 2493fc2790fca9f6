/**
 * `parley export` then `parley import` into an empty server reproduces the world: the
 * same document comes back out, bots see the same ids, and no token or password ever
 * leaves the database.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeParley, call, harness, BASIC_WORLD, refusal } from "../helpers";
import { main } from "../../src/cli";
import { createParley, type Parley } from "../../src/app";
import { loadConfig } from "../../src/config";
import type { SeedAnswer } from "../../src/world";
import { serve } from "./support";

const dir = mkdtempSync(join(tmpdir(), "parley-export-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A world with history: messages with mentions, a reply, an edit, a pin, commands, a role overwrite. */
async function livedIn(p: Parley): Promise<SeedAnswer> {
  const w = p.seed({
    ...structuredClone(BASIC_WORLD),
    users: [{ name: "alice", admin: true, password: "alice's password" }, { name: "bob" }, { name: "carol" }],
  });
  const bot = w.applications.EchoBot;
  const general = w.guilds.Lab.channels.general;
  const said = await harness(p, "POST", "/users/bob/messages", { channel_id: general, content: `hello <@${bot.bot_user_id}>` });
  expect(said.status).toBe(200);
  const reply = await call(p, "POST", `/channels/${general}/messages`, {
    token: bot.token,
    body: {
      content: `hi <@${w.users.bob.id}>, see <#${general}> and <@&${w.guilds.Lab.roles.Mod}>`,
      embeds: [{ title: "t" }],
      message_reference: { message_id: said.body.id },
    },
  });
  expect(reply.status).toBe(200);
  expect(
    (await call(p, "PATCH", `/channels/${general}/messages/${reply.body.id}`, { token: bot.token, body: { content: "edited" } })).status,
  ).toBe(200);
  expect(
    (await call(p, "POST", `/applications/${bot.id}/commands`, { token: bot.token, body: { name: "ping", description: "Ping" } })).status,
  ).toBe(201);
  expect(
    (
      await call(p, "POST", `/applications/${bot.id}/guilds/${w.guilds.Lab.id}/commands`, {
        token: bot.token,
        body: { name: "local", description: "Here" },
      })
    ).status,
  ).toBe(201);
  return w;
}

const exported = (p: Parley) => {
  const doc = p.exportWorld() as any;
  delete doc.parley.exported_at;
  return doc;
};

describe("export and import", () => {
  test("export, import into an empty server, export again: the same world, the same ids for bots", async () => {
    const a = makeParley();
    const w = await livedIn(a);
    const doc = exported(a);
    const text = JSON.stringify(doc);
    for (const secret of [
      w.applications.EchoBot.token,
      w.applications.EchoBot.token.split(".")[2],
      w.users.alice.token,
      "alice's password",
      "scrypt",
    ])
      expect(text).not.toContain(secret);
    expect(doc.guilds[0].channels[0].messages).toHaveLength(2);
    expect(doc.applications[0].commands).toHaveLength(2);

    const b = makeParley();
    const r = b.importWorld(JSON.parse(text));
    expect(r).toMatchObject({
      kind: "restored",
      people: 3,
      servers: 1,
      messages: 2,
      needToken: [{ name: "EchoBot", id: w.applications.EchoBot.id }],
    });
    expect(exported(b)).toEqual(doc);

    // The bot has no token until the operator mints one; then it sees the same ids.
    const token = (await harness(b, "POST", `/applications/${w.applications.EchoBot.id}/rotate`)).body.token;
    const general = w.guilds.Lab.channels.general;
    const before = await call(a, "GET", `/channels/${general}/messages`, { token: w.applications.EchoBot.token });
    const after = await call(b, "GET", `/channels/${general}/messages`, { token });
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
    expect((await call(b, "GET", `/applications/${w.applications.EchoBot.id}/commands`, { token })).body).toEqual(
      (await call(a, "GET", `/applications/${w.applications.EchoBot.id}/commands`, { token: w.applications.EchoBot.token })).body,
    );
    // Nobody can sign in with a password that was never exported.
    expect(
      refusal(await call(b, "POST", "/api/client/v1/auth/signin", { body: { username: "alice", password: "alice's password" } })),
    ).toEqual([401, 0]);
    await a.stop();
    await b.stop();
  });

  test("import refuses a database that already holds a world, and a document that does not hold together", async () => {
    const a = makeParley();
    await livedIn(a);
    const doc = exported(a);
    expect(() => a.importWorld(doc)).toThrow(/already holds a world/);
    const b = makeParley();
    const broken = structuredClone(doc);
    broken.guilds[0].channels[0].messages[0].author = "01900000-0000-7000-8000-000000000000";
    expect(() => b.importWorld(broken)).toThrow(/does not hold together/);
    // The wrong JSON altogether is neither an export nor a world: it imports nothing, and says so.
    expect(() => b.importWorld({ bad: 1 })).toThrow(/Not a section of a world document/);
    expect(b.core.users.count()).toBe(0);
    await a.stop();
    await b.stop();
  });

  test("the operator's commands: export, import into a new data directory, then a token and a password", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const run = (...argv: string[]) =>
      main(
        argv,
        {},
        (l) => out.push(l),
        (l) => err.push(l),
      );
    const from = join(dir, "from");
    const to = join(dir, "to");
    // A data directory as a server's first start leaves it: only serve and import make one.
    await createParley(loadConfig({ data: from, quiet: true }, {})).stop();
    expect(await run("user", "create", "alice", "--data", from)).toBe(0);
    expect(await run("guild", "create", "Home", "--owner", "alice", "--data", from)).toBe(0);
    expect(await run("app", "create", "Helper", "--owner", "alice", "--data", from)).toBe(0);
    const file = join(dir, "world.json");
    expect(await run("export", file, "--data", from)).toBe(0);
    expect(out.at(-1)).toContain("exported 1 people, 1 servers, 1 applications, 0 messages");
    expect(await run("import", file, "--data", to)).toBe(0);
    // The export and the import count alike: people, their bots with the applications.
    expect(out.join("\n")).toContain("imported 1 people, 1 servers, 0 messages");
    expect(out.join("\n")).toMatch(/applications without a token .*\n  Helper  \d{17,20}/);
    expect(out.at(-1)).toContain("people without a password: alice");
    expect(await run("app", "rotate", "Helper", "--data", to)).toBe(0);
    expect(out.at(-1)).toMatch(/token \(shown once\): \S+\.\S+\.\S+/);
    expect(await run("user", "password", "alice", "--password", "a new password", "--data", to)).toBe(0);
    expect(await run("import", file, "--data", to)).toBe(1);
    expect(err.at(-1)).toContain("already holds a world");
    expect(await run("export", file, "--data", from)).toBe(2);
    expect(err.at(-1)).toContain("exists");
    // --seed reads the exported format too.
    const s = await serve(["--port", "0", "--data", ":memory:", "--seed", file]);
    expect(s.out()).toContain("imported world: 1 people, 1 servers, 0 messages");
    expect(await s.stop()).toBe(0);
  });
});
