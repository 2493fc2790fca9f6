import { describe, expect, test } from "bun:test";
import { SwitchableClock } from "../../src/core/clock";

describe("the shared clock", () => {
  test("virtual time fires due timers in due order, including timers set by timers", () => {
    const c = new SwitchableClock();
    c.set(1_000_000);
    const fired: string[] = [];
    c.setTimeout(() => fired.push("c@300"), 300);
    c.setTimeout(() => {
      fired.push("a@100");
      c.setTimeout(() => fired.push("d@150"), 50);
    }, 100);
    c.setTimeout(() => fired.push("b@200"), 200);
    const cancelled = c.setTimeout(() => fired.push("never"), 250);
    cancelled.cancel();
    c.advance(250);
    expect(fired).toEqual(["a@100", "d@150", "b@200"]);
    expect(c.now()).toBe(1_000_250);
    c.advance(100);
    expect(fired).toEqual(["a@100", "d@150", "b@200", "c@300"]);
  });

  test("a timer sees the time it was due at", () => {
    const c = new SwitchableClock();
    c.set(0);
    let seen = -1;
    c.setTimeout(() => (seen = c.now()), 40);
    c.advance(1000);
    expect(seen).toBe(40);
  });

  test("reset returns to real time and re-arms pending timers", async () => {
    const c = new SwitchableClock();
    c.advance(0);
    let hit = false;
    c.setTimeout(() => (hit = true), 5);
    c.reset();
    expect(c.virtual).toBe(false);
    expect(Math.abs(c.now() - Date.now())).toBeLessThan(5);
    await new Promise((r) => setTimeout(r, 30));
    expect(hit).toBe(true);
  });

  test("refuses to go backwards with advance", () => {
    const c = new SwitchableClock();
    expect(() => c.advance(-1)).toThrow();
  });
});

describe("real-time timers", () => {
  test("fired and cancelled timers leave the list; switching to virtual time fires only the pending ones", async () => {
    const c = new SwitchableClock();
    const fired: number[] = [];
    const handles = Array.from({ length: 40 }, (_, i) => c.setTimeout(() => fired.push(i), i < 20 ? 1 : 60_000));
    for (let i = 0; i < 40; i += 4) handles[i].cancel();
    await new Promise((r) => setTimeout(r, 30));
    expect(fired.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i).filter((i) => i % 4 !== 0));
    fired.length = 0;
    c.advance(60_000);
    expect(fired).toEqual(Array.from({ length: 20 }, (_, i) => i + 20).filter((i) => i % 4 !== 0));
  });
});
