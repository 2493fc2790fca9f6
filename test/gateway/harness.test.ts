/** The harness's gateway views: an application's sessions and the long-polled event log. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { call, makeParley } from "../helpers";
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

async function connect() {
  const g = await Gw.open(p);
  open.push(g);
  return g;
}

describe("GET /applications/{id}/sessions", () => {
  test("lists sessions with intents, connected and seq", async () => {
    const path = `/api/harness/v1/applications/${W.w.applications.AllBot.id}/sessions`;
    expect((await call(p, "GET", path)).body).toEqual([]);
    const g = await connect();
    const ready = await g.identify(W.w.applications.AllBot.token, I.GUILDS);
    await g.sync();
    expect((await call(p, "GET", path)).body).toEqual([{ session_id: ready.d.session_id, intents: I.GUILDS, connected: true, seq: 2 }]);
    p.gateway.disconnect(ready.d.session_id, 4000);
    await g.closed;
    expect((await call(p, "GET", path)).body).toEqual([{ session_id: ready.d.session_id, intents: I.GUILDS, connected: false, seq: 2 }]);
  });

  test("unknown application: 404 code 10003", async () => {
    const r = await call(p, "GET", "/api/harness/v1/applications/123456789012345678/sessions");
    expect(r.status).toBe(404);
    expect(r.body.code).toBe(10003);
  });
});

describe("GET /events", () => {
  test("every dispatch frame with application_id and session_id; the cursor moves on", async () => {
    const g = await connect();
    const ready = await g.identify(W.w.applications.AllBot.token, I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT);
    await g.sync();
    const first = await call(p, "GET", "/api/harness/v1/events");
    expect(first.status).toBe(200);
    expect(first.body.events.map((e: any) => e.t)).toEqual(["READY", "GUILD_CREATE"]);
    expect(first.body.events[0]).toMatchObject({ op: 0, s: 1, application_id: W.w.applications.AllBot.id, session_id: ready.d.session_id });
    const cursor = first.body.cursor;
    expect(typeof cursor).toBe("string");

    const empty = await call(p, "GET", `/api/harness/v1/events?after=${cursor}`);
    expect(empty.body).toEqual({ events: [], cursor });

    // A long poll waits for the next frame instead of sleeping.
    const pending = call(p, "GET", `/api/harness/v1/events?after=${cursor}&wait_ms=3000`);
    p.core.messages.create({ channelId: W.channel("Lab", "general"), authorId: W.person("bob"), content: "ping" });
    const got = await pending;
    expect(got.body.events).toEqual([
      expect.objectContaining({
        t: "MESSAGE_CREATE",
        s: 3,
        session_id: ready.d.session_id,
        d: expect.objectContaining({ content: "ping" }),
      }),
    ]);
    expect(Number(got.body.cursor)).toBe(Number(cursor) + 1);
  });

  test("a bad cursor or wait is 400 code 50035", async () => {
    for (const q of ["after=abc", "wait_ms=-1", "after=1.5"]) {
      const r = await call(p, "GET", `/api/harness/v1/events?${q}`);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
    }
  });
});
