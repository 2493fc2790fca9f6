/**
 * The harness's clock and live gateway sessions (docs/harness.md "The clock"): a jump
 * counts as heartbeated through, so a bot's session survives any jump and nothing sent
 * after it is lost; `zombie: true` asks for a silent jump, where every deadline in the
 * skipped span falls due (the 4000 close, then the session's expiry).
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { call, harness as harnessCall } from "../helpers";
import { makeParley } from "../helpers";
import { Gw, I, seedGatewayWorld, type World } from "./client";

let p: Parley;
let W: World;
const open: Gw[] = [];

beforeEach(() => {
  p = makeParley();
  W = seedGatewayWorld(p);
  p.listen();
});

afterEach(async () => {
  for (const g of open.splice(0)) await g.close();
  await p.stop();
});

const clock = (body: unknown) => harnessCall(p, "POST", "/clock", body);
const sessions = async () =>
  (await harnessCall(p, "GET", `/applications/${W.w.applications.AllBot.id}/sessions`)).body as {
    session_id: string;
    connected: boolean;
  }[];

async function live() {
  const g = await Gw.open(p);
  open.push(g);
  const ready = await g.identify(W.w.applications.AllBot.token, I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT);
  await g.sync();
  return { g, session: ready.d.session_id as string };
}

const say = (content: string) => harnessCall(p, "POST", "/users/bob/messages", { channel_id: W.w.guilds.Lab.channels.general, content });

test("advance_ms 600000 (past the zombie deadline and the session's lifetime): the live session stays, and what is said next reaches it", async () => {
  const { g, session } = await live();
  expect((await clock({ advance_ms: 600_000 })).status).toBe(200);
  await g.sync();
  expect(g.isClosed).toBe(false);
  expect(await sessions()).toEqual([expect.objectContaining({ session_id: session, connected: true })]);
  const { body } = await say("said after the jump");
  const got = await g.dispatch("MESSAGE_CREATE");
  expect(got.d).toMatchObject({ id: body.id, content: "said after the jump" });
  // And again: the deadlines re-arm from the end of each jump.
  await clock({ advance_ms: 600_000 });
  await g.sync();
  expect(g.isClosed).toBe(false);
});

test("set (a jump forward of a day) keeps live sessions as well", async () => {
  const { g, session } = await live();
  await clock({ advance_ms: 0 });
  const tomorrow = new Date(p.clock.now() + 86_400_000).toISOString();
  expect((await clock({ set: tomorrow })).body).toEqual({ now: tomorrow });
  await g.sync();
  expect(g.isClosed).toBe(false);
  expect((await sessions())[0]).toMatchObject({ session_id: session, connected: true });
});

test("a socket that has not identified yet is not closed by its first-frame deadline inside a jump", async () => {
  const g = await Gw.open(p);
  open.push(g);
  await clock({ advance_ms: 120_000 });
  const ready = await g.identify(W.w.applications.AllBot.token, I.GUILDS);
  expect(ready.d.session_id).toMatch(/^[0-9a-f]{32}$/);
});

test("zombie: true: the jump is silent, so the socket closes with 4000 and the session then expires", async () => {
  const { g, session } = await live();
  await clock({ advance_ms: 120_000, zombie: true });
  expect((await g.closed).code).toBe(4000);
  expect(await sessions()).toEqual([expect.objectContaining({ session_id: session, connected: false })]);
  await clock({ advance_ms: 300_000, zombie: true });
  expect(await sessions()).toEqual([]);
});

test("zombie must be a boolean", async () => {
  const r = await call(p, "POST", "/api/harness/v1/clock", { body: { advance_ms: 10, zombie: "yes" } });
  expect([r.status, r.body.code]).toEqual([400, 50035]);
});
