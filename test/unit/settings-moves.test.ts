/**
 * Where a drop in Server settings lands, and the one request it makes
 * (src/web/settings/channel-moves.ts, role-moves.ts): a channel before or after the row it
 * is dropped on, first under a category's heading, last in a list; a role in the place of
 * the role it meets, as the server reads a position (core/roles.ts reorder). A drop that
 * changes nothing asks nothing.
 */
import { describe, expect, test } from "bun:test";
import { channelGroups } from "../../src/web/channel-groups";
import { headKey, listKey, moveBody, planDrop, planned } from "../../src/web/settings/channel-moves";
import { planRoleDrop } from "../../src/web/settings/role-moves";
import type { Channel, Guild, Role } from "../../src/web/types";

const ch = (id: string, position: number, parent_id: string | null = null, type = 0) =>
  ({ id, type, guild_id: "g", name: id, position, parent_id, e2e: false, last_message_id: null, created_at: "" }) as Channel;

const guild = {
  id: "g",
  channels: [ch("a", 0), ch("b", 1), ch("cat", 2, null, 4), ch("x", 0, "cat"), ch("y", 1, "cat"), ch("empty", 3, null, 4)],
} as Guild;
const groups = channelGroups(guild);
const [cat, empty] = [guild.channels[2], guild.channels[5]];

describe("a dropped channel", () => {
  test("within its list: before the row's upper half, after its lower half; one body numbering the list", () => {
    const up = planDrop(groups, "b", { key: "a", after: false })!;
    expect(up.order.map((c) => c.id)).toEqual(["b", "a"]);
    expect(moveBody(up, false)).toEqual([
      { id: "b", position: 0 },
      { id: "a", position: 1 },
    ]);
    expect(planDrop(groups, "a", { key: "b", after: true })!.order.map((c) => c.id)).toEqual(["b", "a"]);
  });

  test("where it already is, or on itself: nothing", () => {
    expect(planDrop(groups, "a", { key: "b", after: false })).toBeNull();
    expect(planDrop(groups, "b", { key: "a", after: true })).toBeNull();
    expect(planDrop(groups, "a", { key: "a", after: true })).toBeNull();
    expect(planDrop(groups, "x", { key: headKey(cat), after: false })).toBeNull();
  });

  test("into another category: the moved channel names its category, with lock_permissions when asked", () => {
    const plan = planDrop(groups, "a", { key: "x", after: true })!;
    expect(plan).toMatchObject({ moves: true, category: cat });
    expect(moveBody(plan, true)).toEqual([
      { id: "x", position: 0 },
      { id: "a", position: 1, parent_id: "cat", lock_permissions: true },
      { id: "y", position: 2 },
    ]);
    expect(moveBody(plan, false)[1]).toEqual({ id: "a", position: 1, parent_id: "cat" });
    expect(planned(plan).get("a")).toEqual({ position: 1, parent_id: "cat" });
  });

  test("on a category's heading: first in it; on a list: last in it; out of a category: parent null", () => {
    expect(planDrop(groups, "b", { key: headKey(cat), after: false })!.order.map((c) => c.id)).toEqual(["b", "x", "y"]);
    expect(moveBody(planDrop(groups, "a", { key: listKey(empty), after: true })!, false)).toEqual([
      { id: "a", position: 0, parent_id: "empty" },
    ]);
    const out = planDrop(groups, "y", { key: listKey(null), after: true })!;
    expect(moveBody(out, false).at(-1)).toEqual({ id: "y", position: 2, parent_id: null });
  });
});

describe("a dropped role", () => {
  // Highest first, @everyone left out: Top 4, Keepers 3, Mid 2, Low 1.
  const roles = [4, 3, 2, 1].map((position, i) => ({ id: ["top", "keepers", "mid", "low"][i], position }) as Role);

  test("moved up: the position of the role it lands above; moved down: of the role it lands below", () => {
    expect(planRoleDrop(roles, "low", { key: "keepers", after: false })).toMatchObject({ position: 3 });
    expect(planRoleDrop(roles, "top", { key: "mid", after: true })).toMatchObject({ position: 2 });
    const plan = planRoleDrop(roles, "low", { key: "mid", after: false })!;
    expect(plan.order.map((r) => r.id)).toEqual(["top", "keepers", "low", "mid"]);
    expect(plan.position).toBe(2);
  });

  test("on @everyone or the list's end: the lowest place; where it is: nothing", () => {
    expect(planRoleDrop(roles, "keepers", { key: "everyone", after: false })).toMatchObject({ position: 1 });
    expect(planRoleDrop(roles, "low", { key: "end", after: true })).toBeNull();
    expect(planRoleDrop(roles, "mid", { key: "low", after: false })).toBeNull();
    expect(planRoleDrop(roles, "mid", { key: "mid", after: true })).toBeNull();
  });
});
