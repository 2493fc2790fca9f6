/**
 * A timer further away than a JavaScript timer can wait (2^31-1 ms, about 24.8 days),
 * such as a device's 90-day expiry, must wait, not fire at once: Bun and Node take any
 * longer delay for 1 ms, which made the serving process wake in a loop.
 */
import { expect, test } from "bun:test";
import { SwitchableClock } from "../../src/core/clock";

const DAY = 86_400_000;

test("a 90-day timer on the real clock does not fire early, and can be cancelled", async () => {
  const clock = new SwitchableClock();
  let fired = 0;
  const warnings: string[] = [];
  const warn = (w: Error) => warnings.push(w.name);
  process.on("warning", warn);
  try {
    const t = clock.setTimeout(() => fired++, 90 * DAY);
    await Bun.sleep(50);
    expect(fired).toBe(0);
    t.cancel();
  } finally {
    process.off("warning", warn);
  }
  expect(warnings).not.toContain("TimeoutOverflowWarning");
});

test("switched to virtual time, a long timer fires when its day comes, once", () => {
  const clock = new SwitchableClock();
  clock.set(Date.UTC(2031, 0, 1));
  let fired = 0;
  clock.setTimeout(() => fired++, 90 * DAY);
  clock.advance(89 * DAY);
  expect(fired).toBe(0);
  clock.advance(DAY);
  expect(fired).toBe(1);
  clock.advance(90 * DAY);
  expect(fired).toBe(1);
});
