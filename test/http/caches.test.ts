// Reads the core keeps in memory (src/core/memo.ts) answer what a fresh read would:
// after writes through the core, after rolled-back writes, and after commits by the CLI
// in another connection (a rotated token is refused at once).
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley, type Parley } from "../../src/app";
import { testConfig } from "../../src/config";
import { main } from "../../src/cli";
import { call, seedBasic } from "../helpers";
import type { SeedAnswer } from "../../src/world";

let dir: string;
let p: Parley;
let w: SeedAnswer;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "parley-caches-"));
  p = createParley(testConfig({ data: dir, dbPath: join(dir, "parley.db"), harness: false }));
  w = seedBasic(p);
});

afterEach(async () => {
  await p.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The CLI's command, run in this process on its own connection, as `parley` beside a live
 * server. Its answer waits for the event loop's next turn: a request sent after the CLI
 * finished reaches a real server in a later turn than the commit, and the store looks for
 * other writers once per turn (src/store/changes.ts).
 */
const cli = async (...argv: string[]) => {
  const out: string[] = [];
  const code = await main(
    [...argv, "--data", dir],
    {},
    (l) => out.push(l),
    () => {},
  );
  expect(code).toBe(0);
  await new Promise((r) => setImmediate(r));
  return out.join("\n");
};

test("a token rotated by the CLI in another connection is refused at once", async () => {
  const old = w.applications.EchoBot.token;
  expect((await call(p, "GET", "/users/@me", { token: old })).status).toBe(200);
  const printed = await cli("app", "rotate", "EchoBot");
  const fresh = /token \(shown once\): (\S+)/.exec(printed)![1];
  const refused = await call(p, "GET", "/users/@me", { token: old });
  expect(refused.status).toBe(401);
  expect(refused.body.code).toBe(0);
  expect((await call(p, "GET", "/users/@me", { token: fresh })).status).toBe(200);
});

test("a bot installed by the CLI sees the guild's channels at once", async () => {
  const created = await cli("app", "create", "Newcomer", "--owner", "alice");
  const token = /token \(shown once\): (\S+)/.exec(created)![1];
  const channel = w.guilds.Lab.channels.general;
  const before = await call(p, "GET", `/channels/${channel}`, { token });
  expect(before.status).toBe(404);
  expect(before.body.code).toBe(10003);
  await cli("app", "install", "Newcomer", "--guild", "Lab");
  expect((await call(p, "GET", `/channels/${channel}`, { token })).status).toBe(200);
});

test("permissions follow role and overwrite changes made through the core", async () => {
  const token = w.applications.EchoBot.token;
  const staff = w.guilds.Lab.channels.staff;
  const post = () => call(p, "POST", `/channels/${staff}/messages`, { token, body: { content: "hi" } });
  const refused = await post();
  expect(refused.status).toBe(403);
  expect(refused.body.code).toBe(50001);
  const channelId = p.api.flakes.uuid(staff)!;
  const botId = p.api.flakes.uuid(w.applications.EchoBot.bot_user_id)!;
  p.core.guilds.setOverwrite(channelId, botId, 1, 1 << 11, 0);
  expect((await post()).status).toBe(200);
  p.core.guilds.setOverwrite(channelId, botId, 1, 0, 1 << 11);
  const again = await post();
  expect(again.status).toBe(403);
  expect(again.body.code).toBe(50001);
});

test("a message written in a transaction that rolls back is not served from memory", () => {
  const channelId = p.api.flakes.uuid(w.guilds.Lab.channels.general)!;
  const alice = p.api.flakes.uuid(w.users.alice.id)!;
  let id = "";
  expect(() =>
    p.core.transaction(() => {
      id = p.core.messages.create({ channelId, authorId: alice, content: "never" }).id;
      expect(p.core.messages.get(id)?.content).toBe("never");
      throw new Error("roll back");
    }),
  ).toThrow("roll back");
  expect(p.core.messages.get(id)).toBeNull();
});

test("an edited message is read afresh; a channel's last_message_id follows its posts", async () => {
  const token = w.applications.EchoBot.token;
  const general = w.guilds.Lab.channels.general;
  const sent = await call(p, "POST", `/channels/${general}/messages`, { token, body: { content: "one" } });
  expect((await call(p, "GET", `/channels/${general}`, { token })).body.last_message_id).toBe(sent.body.id);
  await call(p, "PATCH", `/channels/${general}/messages/${sent.body.id}`, { token, body: { content: "two" } });
  expect((await call(p, "GET", `/channels/${general}/messages/${sent.body.id}`, { token })).body.content).toBe("two");
  const next = await call(p, "POST", `/channels/${general}/messages`, { token, body: { content: "three" } });
  expect((await call(p, "GET", `/channels/${general}`, { token })).body.last_message_id).toBe(next.body.id);
});
