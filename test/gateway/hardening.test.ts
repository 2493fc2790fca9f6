/**
 * What a bad gateway client can do (docs/security.md): stop reading (the server buffers
 * a bounded amount, then closes the socket), talk without identifying (a few frames,
 * then op 9), open session after session on one token (a capped number is kept), and
 * send frames nested past the bound. Real sockets; virtual time.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import type { Parley } from "../../src/app";
import { makeParley } from "../helpers";
import { Gw, I, seedGatewayWorld, type World } from "./client";
import { MAX_BUFFERED_BYTES, MAX_FRAMES_BEFORE_IDENTIFY, MAX_SESSIONS_PER_APP } from "../../src/gateway/protocol";
import { MAX_JSON_DEPTH } from "../../src/wire/json";

let p: Parley;
let W: World;
let token: string;
const open: Gw[] = [];

async function gw(): Promise<Gw> {
  const g = await Gw.open(p);
  open.push(g);
  return g;
}

beforeEach(() => {
  p = makeParley();
  W = seedGatewayWorld(p);
  token = W.w.applications.AllBot.token;
  p.listen();
  p.clock.advance(0);
});

afterEach(async () => {
  for (const g of open.splice(0)) await g.close();
  await p.stop();
});

/** A WebSocket client written by hand, so that it can stop reading (node:net pause()). */
async function rawGateway(identify: unknown): Promise<Socket> {
  const { port } = new URL(p.api.urls.gateway);
  const s = connect(Number(port), "127.0.0.1");
  let seen = "";
  await new Promise<void>((resolve, reject) => {
    s.once("error", reject);
    s.on("data", (d) => {
      seen += d.toString("latin1");
      if (seen.includes('"t":"READY"')) resolve();
      else if (seen.includes(" 101 ") && seen.includes('"op":10') && !seen.includes("sent")) {
        seen += "sent";
        s.write(maskedText(JSON.stringify(identify)));
      }
    });
    s.write(
      `GET /gateway HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });
  s.removeAllListeners("data");
  return s;
}

function maskedText(text: string): Buffer {
  const payload = Buffer.from(text);
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x81, 0x80 | len]) : Buffer.from([0x81, 0x80 | 126, len >> 8, len & 0xff]);
  const mask = Buffer.from([1, 2, 3, 4]);
  return Buffer.concat([head, mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]))]);
}

describe("clients that never read", () => {
  test("a socket that stops reading is closed once the server would buffer past the bound; its session stays resumable", async () => {
    const raw = await rawGateway({ op: 2, d: { token, intents: I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT } });
    raw.pause(); // never read again
    const app = W.app("AllBot");
    expect(p.gateway.sessionsOf(app)[0].connected).toBe(true);
    const embed = { description: "x".repeat(4000), title: "t".repeat(200) };
    let pushed = 0;
    // Far more than the bound plus what the kernel's socket buffers absorb; stops once closed.
    while (p.gateway.sessionsOf(app)[0]?.connected && pushed < 12 * MAX_BUFFERED_BYTES) {
      for (let i = 0; i < 50; i++)
        p.core.messages.create({
          channelId: W.channel("Lab", "general"),
          authorId: W.person("bob"),
          content: "y".repeat(1500),
          embeds: [embed],
        });
      pushed += 50 * 6000;
      await Bun.sleep(1);
    }
    const [session] = p.gateway.sessionsOf(app);
    expect(session.connected).toBe(false);
    expect(session.seq).toBeGreaterThan(100); // still numbered and kept for RESUME
    raw.destroy();
  });
});

describe("before IDENTIFY", () => {
  test(`a socket may send ${MAX_FRAMES_BEFORE_IDENTIFY} frames before IDENTIFY; the next ends it with op 9 (heartbeats were answered without limit)`, async () => {
    const g = await gw();
    for (let i = 0; i < MAX_FRAMES_BEFORE_IDENTIFY; i++) g.send({ op: 1, d: null });
    for (let i = 0; i < MAX_FRAMES_BEFORE_IDENTIFY; i++) await g.next((f) => f.op === 11);
    g.send({ op: 1, d: null });
    expect((await g.next((f) => f.op === 9)).d).toBe(false);
    expect((await g.closed).code).toBe(1000);
  });

  test("heartbeats before IDENTIFY within the allowance still lead to a session", async () => {
    const g = await gw();
    g.send({ op: 1, d: null });
    g.send({ op: 1, d: null });
    const ready = await g.identify(token, I.GUILDS);
    expect(ready.t).toBe("READY");
    // Once identified, heartbeats are the heartbeat contract's, not counted.
    for (let i = 0; i < MAX_FRAMES_BEFORE_IDENTIFY * 2; i++) g.send({ op: 1, d: ready.s });
    for (let i = 0; i < MAX_FRAMES_BEFORE_IDENTIFY * 2; i++) await g.next((f) => f.op === 11);
    expect(g.isClosed).toBe(false);
  });

  test("a frame nested past the bound is op 9 and a plain close", async () => {
    const g = await gw();
    g.ws.send(`{"op":1,"d":${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}}`);
    expect((await g.next((f) => f.op === 9)).d).toBe(false);
    expect((await g.closed).code).toBe(1000);
  });
});

describe("sessions per application", () => {
  test(`one token opening and closing sessions keeps at most ${MAX_SESSIONS_PER_APP}, forgetting the oldest resumable ones`, async () => {
    const app = W.app("AllBot");
    const ids: string[] = [];
    for (let i = 0; i < MAX_SESSIONS_PER_APP + 8; i++) {
      const g = await Gw.open(p);
      ids.push((await g.identify(token, I.GUILDS)).d.session_id);
      await g.close();
    }
    const kept = p.gateway.sessionsOf(app).map((s) => s.session_id);
    expect(kept).toHaveLength(MAX_SESSIONS_PER_APP);
    expect(kept).toEqual(ids.slice(8));
    // A forgotten session cannot be resumed; a kept one can.
    const old = await gw();
    old.send({ op: 6, d: { token, session_id: ids[0], seq: 0 } });
    expect((await old.next((f) => f.op === 9)).d).toBe(false);
    const recent = await gw();
    recent.send({ op: 6, d: { token, session_id: ids.at(-1), seq: 0 } });
    expect((await recent.dispatch("RESUMED")).t).toBe("RESUMED");
  });

  test(`with ${MAX_SESSIONS_PER_APP} live sessions a further IDENTIFY is refused with op 9; the live ones are untouched`, async () => {
    const live: Gw[] = [];
    for (let i = 0; i < MAX_SESSIONS_PER_APP; i++) {
      const g = await gw();
      await g.identify(token, I.GUILDS);
      live.push(g);
    }
    const extra = await gw();
    extra.send({ op: 2, d: { token, intents: I.GUILDS } });
    expect((await extra.next((f) => f.op === 9)).d).toBe(false);
    expect(p.gateway.sessionsOf(W.app("AllBot")).filter((s) => s.connected)).toHaveLength(MAX_SESSIONS_PER_APP);
    expect(live.every((g) => !g.isClosed)).toBe(true);
  });
});
