/**
 * Failures nobody awaits reach the operator's log (core/report.ts, wired in app.ts): an
 * event subscriber that throws, a timer that throws, a gateway socket handler that
 * throws. Each is one error line in the log's own format (a JSON line under
 * --log-format json), naming where it happened; none goes to the console.
 */
import { afterEach, beforeEach, expect, spyOn, test } from "bun:test";
import { createParley, type Parley } from "../../src/app";
import { testConfig } from "../../src/config";
import type { GatewaySocketData } from "../../src/gateway";

let p: Parley;
let lines: string[];
let consoleError: ReturnType<typeof spyOn>;
let stderr: ReturnType<typeof spyOn>;

beforeEach(() => {
  lines = [];
  consoleError = spyOn(console, "error");
  stderr = spyOn(process.stderr, "write");
  p = createParley(testConfig({ logLevel: "info", logFormat: "json" }), { logSink: (l) => lines.push(l) });
});

afterEach(async () => {
  await p.stop();
  consoleError.mockRestore();
  stderr.mockRestore();
});

/** The log's error lines, parsed (each must be one JSON object). */
function errors(): Record<string, any>[] {
  return lines.map((l) => JSON.parse(l)).filter((l) => l.level === "error");
}

function quiet(): void {
  expect(consoleError).not.toHaveBeenCalled();
  expect(stderr).not.toHaveBeenCalled();
}

test("a failing event subscriber is one JSON error line naming the event", () => {
  p.core.bus.subscribe((e) => {
    if (e.type === "presence.updated") throw new Error("subscriber broke");
  });
  p.core.bus.publish([{ type: "presence.updated", userId: "u", status: "online" }]);
  const [line, ...more] = errors();
  expect(more).toEqual([]);
  expect(line).toMatchObject({ msg: "unexpected failure", event: "presence.updated", err: { message: "subscriber broke" } });
  quiet();
});

test("a throwing timer is one JSON error line naming the loop", () => {
  p.clock.setTimeout(() => {
    throw new Error("timer broke");
  }, 10);
  p.clock.advance(20);
  const [line, ...more] = errors();
  expect(more).toEqual([]);
  expect(line).toMatchObject({ msg: "unexpected failure", loop: "timer", err: { message: "timer broke" } });
  quiet();
});

test("a gateway socket handler that throws is one JSON error line naming the gateway", () => {
  // A socket whose send fails outright: HELLO, sent before the first frame is read, throws inside the handler.
  const ws = {
    data: { connId: 1 },
    sendText() {
      throw new Error("socket broke");
    },
    close() {},
    subscribe() {},
    unsubscribe() {},
  } as unknown as Parameters<NonNullable<typeof p.gateway.websocket.open>>[0] & { data: GatewaySocketData };
  p.gateway.websocket.open!(ws);
  expect(() => p.gateway.websocket.message!(ws, '{"op":1,"d":null}')).not.toThrow();
  const [line, ...more] = errors();
  expect(more).toEqual([]);
  expect(line).toMatchObject({ msg: "unexpected failure", surface: "gateway", err: { message: "socket broke" } });
  quiet();
});

test("a server stopped while its file collector looks at the disk leaves it be: no error line", async () => {
  const q = createParley(testConfig({ logLevel: "info", logFormat: "json", port: 0 }), { logSink: (l) => lines.push(l) });
  // The collector's start awaits the disk (leftover temporary files) before it reads the
  // database again; the server stops in between, closing the database.
  q.listen();
  await q.stop();
  await Bun.sleep(100);
  expect(errors()).toEqual([]);
});
