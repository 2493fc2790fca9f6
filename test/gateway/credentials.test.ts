/**
 * Whatever ends a bot's credential or grant takes effect at once, on REST and on live
 * gateway sessions, whichever surface or process caused it (docs/security.md, Findings 4
 * and 5): an administrator revoking a privileged intent, a token rotated, an application
 * deleted or disabled. The operator's commands run in this process on their own
 * connection to the same database file, exactly as `parley` beside a live server; the
 * sessions end with no request from anyone (the server notices the other writer itself).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley, type Parley } from "../../src/app";
import { testConfig } from "../../src/config";
import { main } from "../../src/cli";
import { call, client, makeParley } from "../helpers";
import { Gw, I, seedGatewayWorld, type World } from "./client";

let p: Parley;
let W: World;
let dir: string | null = null;
const open: Gw[] = [];

const CONTENT = I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT;
const PLAIN = I.GUILDS | I.GUILD_MESSAGES;

/** A listening server in memory (in-process changes) or on a file another connection can write to. */
function start(onFile: boolean): void {
  if (onFile) {
    dir = mkdtempSync(join(tmpdir(), "parley-creds-"));
    p = createParley(testConfig({ data: dir, dbPath: join(dir, "parley.db") }));
  } else p = makeParley();
  W = seedGatewayWorld(p);
  p.listen();
}

afterEach(async () => {
  for (const g of open.splice(0)) await g.close();
  await p.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

async function connect(): Promise<Gw> {
  const g = await Gw.open(p);
  open.push(g);
  return g;
}

/**
 * The operator's command on its own connection to the server's database file. Its answer
 * waits for the event loop's next turn: a request after it reaches a real server in a
 * later turn than the commit, and the store looks for other writers once per turn.
 */
async function cli(...argv: string[]): Promise<string> {
  const out: string[] = [];
  const code = await main(
    [...argv, "--data", dir!],
    {},
    (l) => out.push(l),
    () => {},
  );
  expect(code).toBe(0);
  await new Promise((r) => setImmediate(r));
  return out.join("\n");
}

const token = () => W.w.applications.AllBot.token;

/** Op 9 with d false, then a plain close: the session is gone (spec 3.2). */
async function ended(g: Gw): Promise<void> {
  expect((await g.next((f) => f.op === 9)).d).toBe(false);
  expect((await g.closed).code).toBe(1000);
}

async function revokeContentAsAdmin(): Promise<void> {
  const r = await client(p, "POST", `/admin/applications/${W.app("AllBot")}/privileged`, W.w.users.alice.token, {
    intents: ["MESSAGE_CONTENT"],
    revoke: true,
  });
  expect(r.status).toBe(200);
}

describe("Finding 4: revoking a privileged intent", () => {
  test("REST withholds content from the current token at once", async () => {
    start(false);
    const general = W.w.guilds.Lab.channels.general;
    p.core.messages.create({ channelId: W.channel("Lab", "general"), authorId: W.person("bob"), content: "the secret plan" });
    const read = async () => (await call(p, "GET", `/channels/${general}/messages`, { token: token() })).body[0].content;
    expect(await read()).toBe("the secret plan");
    await revokeContentAsAdmin();
    expect(await read()).toBe("");
  });

  test("live sessions that asked for it get op 9 and close; the others carry on; RESUME fails and IDENTIFY with it gets 4014", async () => {
    start(false);
    const reading = await connect();
    const ready = await reading.identify(token(), CONTENT);
    const plain = await connect();
    await plain.identify(token(), PLAIN);
    await revokeContentAsAdmin();
    await ended(reading);
    await plain.sync();
    expect(plain.isClosed).toBe(false);

    const resume = await connect();
    resume.send({ op: 6, d: { token: token(), session_id: ready.d.session_id, seq: ready.s } });
    await ended(resume);
    const again = await connect();
    again.send({ op: 2, d: { token: token(), intents: CONTENT, properties: {} } });
    expect((await again.closed).code).toBe(4014);
    const without = await connect();
    expect((await without.identify(token(), PLAIN)).s).toBe(1);
  });

  test("a revocation by the CLI in another process ends the session with no request from anyone", async () => {
    start(true);
    const reading = await connect();
    await reading.identify(token(), CONTENT);
    const plain = await connect();
    await plain.identify(token(), PLAIN);
    await cli("app", "approve", "AllBot", "MESSAGE_CONTENT", "--revoke");
    await ended(reading);
    await plain.sync();
    expect(plain.isClosed).toBe(false);
  });
});

describe("Finding 5: rotation, deletion and disabling end live sessions, whichever process wrote them", () => {
  test("`parley app rotate` in another process: op 9 and close, the old token cannot RESUME, the new one IDENTIFYs", async () => {
    start(true);
    const g = await connect();
    const ready = await g.identify(token(), PLAIN);
    const other = await connect();
    await other.identify(W.w.applications.PlainBot.token, PLAIN);
    const fresh = /token \(shown once\): (\S+)/.exec(await cli("app", "rotate", "AllBot"))![1];
    await ended(g);
    await other.sync();
    expect(other.isClosed).toBe(false);
    const resume = await connect();
    resume.send({ op: 6, d: { token: fresh, session_id: ready.d.session_id, seq: ready.s } });
    await ended(resume);
    expect((await (await connect()).identify(fresh, PLAIN)).s).toBe(1);
  });

  test("the portal's reset through the people's API ends the session", async () => {
    start(false);
    const g = await connect();
    await g.identify(token(), PLAIN);
    const r = await client(p, "POST", `/applications/${W.app("AllBot")}/token`, W.w.users.alice.token);
    expect(r.status).toBe(200);
    await ended(g);
  });

  test("`parley app delete` in another process ends the session", async () => {
    start(true);
    const g = await connect();
    await g.identify(token(), PLAIN);
    await cli("app", "delete", "AllBot");
    await ended(g);
    expect(p.gateway.sessionsOf(W.app("AllBot"))).toEqual([]);
  });

  test("`parley app disable` in another process ends the session and refuses the token until `--enable`", async () => {
    start(true);
    const g = await connect();
    await g.identify(token(), PLAIN);
    await cli("app", "disable", "AllBot");
    await ended(g);
    const refused = await connect();
    refused.send({ op: 2, d: { token: token(), intents: PLAIN, properties: {} } });
    await ended(refused);
    const rest = await call(p, "GET", "/users/@me", { token: token() });
    expect([rest.status, rest.body.code]).toEqual([401, 0]);
    await cli("app", "disable", "AllBot", "--enable");
    expect((await call(p, "GET", "/users/@me", { token: token() })).status).toBe(200);
    expect((await (await connect()).identify(token(), PLAIN)).s).toBe(1);
  });
});
