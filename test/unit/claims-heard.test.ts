/**
 * The short memory of recent events a node keeps for sessions it takes over from another
 * node (src/gateway/claims.ts, Heard): what it yields after a cut, in the order it was
 * published, without the commits the ring already has; and once it has forgotten
 * events, that it no longer claims to reach back past them.
 */
import { expect, test } from "bun:test";
import { Heard } from "../../src/gateway/claims";
import type { DomainEvent } from "../../src/core";

const event = (n: number): DomainEvent => ({ type: "typing.started", channelId: `c${n}`, guildId: null, userId: "u", at: n });
const numbers = (h: Heard, cut: number, skip: number[] = []) => [...h.after(cut, new Set(skip))].map(([at]) => at);

test("after a cut: the events of later commits, in the order published, less those the ring has; unnumbered ones never", () => {
  const h = new Heard();
  // A node publishes its own commit (12) before it hears another's earlier one (11); 0: no commit (a world reset).
  for (const at of [9, 10, 12, 11, 0, 13, 13]) h.add(at, event(at));
  expect(numbers(h, 10)).toEqual([12, 11, 13, 13]);
  expect(numbers(h, 10, [12])).toEqual([11, 13, 13]);
  expect(numbers(h, 13)).toEqual([]);
  const [first] = [...h.after(10, new Set())];
  expect(first[1]).toEqual(event(12));
  expect(h.keepsAfter(0)).toBe(true);
});

test("once it has forgotten events, it reaches back only to the highest number it forgot", () => {
  const h = new Heard();
  const kept = 8192;
  for (let at = 1; at <= kept + 3; at++) h.add(at, event(at));
  // Commits 1 to 3 are gone: a cut before 3 cannot be served, one at 3 or later can.
  expect(h.keepsAfter(2)).toBe(false);
  expect(h.keepsAfter(3)).toBe(true);
  const after = numbers(h, 3);
  expect(after).toHaveLength(kept);
  expect(after[0]).toBe(4);
  expect(after[after.length - 1]).toBe(kept + 3);
});
