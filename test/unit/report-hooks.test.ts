/**
 * Failures nobody awaits (a domain-event subscriber that throws, a timer that throws) go
 * to the report hook the composition root points at the structured logger, once each,
 * never to the console, and never stop the subscribers or timers after them.
 */
import { afterEach, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { EventBus } from "../../src/core/events";
import { SwitchableClock, type ReportWhere } from "../../src/core";
import { createGateway, type GatewaySocketData } from "../../src/gateway";
import { makeParley } from "../helpers";

let consoleError: ReturnType<typeof spyOn>;
beforeEach(() => {
  consoleError = spyOn(console, "error");
});
afterEach(() => consoleError.mockRestore());

function recorder() {
  const seen: { message: string; where: ReportWhere }[] = [];
  return { seen, report: (err: unknown, where: ReportWhere) => seen.push({ message: (err as Error).message, where }) };
}

describe("report hooks", () => {
  test("a failing event subscriber is reported with the event's type; the next subscriber still hears it", () => {
    const r = recorder();
    const bus = new EventBus(r.report);
    const heard: string[] = [];
    bus.subscribe(() => {
      throw new Error("subscriber broke");
    });
    bus.subscribe((e) => heard.push(e.type));
    bus.publish([{ type: "world.reset" }, { type: "presence.updated", userId: "u", status: "online" }]);
    expect(heard).toEqual(["world.reset", "presence.updated"]);
    expect(r.seen).toEqual([
      { message: "subscriber broke", where: { event: "world.reset" } },
      { message: "subscriber broke", where: { event: "presence.updated" } },
    ]);
    expect(consoleError).not.toHaveBeenCalled();
  });

  test("a throwing timer is reported; the timers due after it still fire, in order", () => {
    const r = recorder();
    const clock = new SwitchableClock(r.report);
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(1), 10);
    clock.setTimeout(() => {
      throw new Error("timer broke");
    }, 20);
    clock.setTimeout(() => fired.push(3), 30);
    clock.advance(50);
    expect(fired).toEqual([1, 3]);
    expect(r.seen).toEqual([{ message: "timer broke", where: { loop: "timer" } }]);
    expect(consoleError).not.toHaveBeenCalled();
  });

  test("a throwing timer on real time is reported too", async () => {
    const r = recorder();
    const clock = new SwitchableClock(r.report);
    const done = new Promise<void>((resolve) => clock.setTimeout(resolve, 5));
    clock.setTimeout(() => {
      throw new Error("late timer broke");
    }, 1);
    await done;
    expect(r.seen).toEqual([{ message: "late timer broke", where: { loop: "timer" } }]);
  });

  test("a gateway socket handler that throws is reported as the gateway's, not left to Bun", async () => {
    const p = makeParley();
    const r = recorder();
    const gateway = createGateway({
      core: p.core,
      flakes: p.api.flakes,
      urls: p.api.urls,
      hooks: [
        {
          received() {
            throw new Error("hook broke");
          },
        },
      ],
      report: r.report,
    });
    const sent: string[] = [];
    const ws = { data: { connId: 1 }, sendText: (t: string) => sent.push(t), close() {}, subscribe() {}, unsubscribe() {} };
    const socket = ws as unknown as Parameters<NonNullable<typeof gateway.websocket.open>>[0] & { data: GatewaySocketData };
    gateway.websocket.open!(socket);
    expect(() => gateway.websocket.message!(socket, '{"op":1,"d":null}')).not.toThrow();
    expect(r.seen).toEqual([{ message: "hook broke", where: { surface: "gateway" } }]);
    expect(consoleError).not.toHaveBeenCalled();
    gateway.closeAll();
    await p.stop();
  });
});
