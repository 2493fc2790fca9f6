/**
 * HELLO on the wire: it goes out in a write of its own after the 101 (a client that
 * reads only the upgrade response must still get it), and a test server may shorten
 * heartbeat_interval (test mode only), with the zombie deadline following it.
 */
import { afterEach, expect, test } from "bun:test";
import { connect as tcp } from "node:net";
import type { Parley } from "../../src/app";
import { ConfigError, loadConfig } from "../../src/config";
import { makeParley } from "../helpers";
import { Gw, I, seedGatewayWorld } from "./client";

let p: Parley | null = null;

afterEach(async () => {
  await p?.stop();
  p = null;
});

/** The chunks a raw TCP client reads after asking for the upgrade, until HELLO is in. */
function upgradeChunks(port: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const chunks: string[] = [];
    const sock = tcp(port, "127.0.0.1", () => {
      sock.write(
        "GET /gateway?v=10&encoding=json HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
      );
    });
    sock.on("data", (d) => {
      chunks.push(d.toString("latin1"));
      if (chunks.join("").includes('"op":10')) {
        sock.destroy();
        resolve(chunks);
      }
    });
    sock.on("error", reject);
    setTimeout(() => reject(new Error(`no HELLO; got ${JSON.stringify(chunks)}`)), 3000);
  });
}

test("HELLO never shares a read with the 101: the upgrade response ends the first chunk", async () => {
  p = makeParley();
  const server = p.listen();
  for (let i = 0; i < 3; i++) {
    const chunks = await upgradeChunks(server.port!);
    expect(chunks[0]).toStartWith("HTTP/1.1 101");
    expect(chunks[0]).toEndWith("\r\n\r\n");
    expect(chunks.slice(1).join("")).toContain('{"op":10,"d":{"heartbeat_interval":41250}');
  }
});

test("a test server's shorter heartbeat_interval is in HELLO, and the zombie close follows it (2.5 x)", async () => {
  p = makeParley({ heartbeatIntervalMs: 1000 });
  const W = seedGatewayWorld(p);
  p.listen();
  p.clock.advance(0);
  const g = await Gw.open(p);
  expect(g.frames[0].d).toEqual({ heartbeat_interval: 1000 });
  await g.identify(W.w.applications.AllBot.token, I.GUILDS);
  p.clock.advance(2499);
  await g.sync();
  p.clock.advance(2499);
  expect(g.isClosed).toBe(false);
  p.clock.advance(1);
  expect((await g.closed).code).toBe(4000);
});

test("--heartbeat-interval: test mode only, 100 to 41250 ms", () => {
  expect(loadConfig({ harness: true, "heartbeat-interval": "1500" }, {}).heartbeatIntervalMs).toBe(1500);
  expect(loadConfig({}, {}).heartbeatIntervalMs).toBe(41_250);
  expect(() => loadConfig({ "heartbeat-interval": "1500" }, {})).toThrow(ConfigError);
  expect(() => loadConfig({ harness: true, "heartbeat-interval": "50" }, {})).toThrow(/100 to 41250/);
  expect(loadConfig({}, { PARLEY_HARNESS: "1", PARLEY_HEARTBEAT_INTERVAL: "2000" }).heartbeatIntervalMs).toBe(2000);
});

test("a client that speaks before HELLO arrives still gets HELLO first, then its READY", async () => {
  p = makeParley();
  const W = seedGatewayWorld(p);
  p.listen();
  const ws = new WebSocket(p.api.urls.gateway);
  const frames: any[] = [];
  ws.onmessage = (m) => frames.push(JSON.parse(String(m.data)));
  await new Promise<void>((resolve) => (ws.onopen = () => resolve()));
  // IDENTIFY at once, before waiting for anything (discordeno does this).
  ws.send(JSON.stringify({ op: 2, d: { token: W.w.applications.AllBot.token, intents: I.GUILDS } }));
  for (let i = 0; i < 200 && !frames.some((f) => f.t === "READY"); i++) await Bun.sleep(5);
  expect(frames.map((f) => f.op)).toEqual(expect.arrayContaining([10, 0]));
  expect(frames[0].op).toBe(10);
  expect(frames.filter((f) => f.op === 10)).toHaveLength(1);
  ws.close();
});
