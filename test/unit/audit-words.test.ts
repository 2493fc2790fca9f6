/**
 * What the Audit log's "Changes" column says of an entry (src/web/settings/audit-words.ts):
 * an overwrite's bits each with its move (an update records only the field that changed),
 * for a role by its name now, else as recorded, and for a member by name; a role's
 * permissions as added and removed; slow mode and a category in words.
 */
import { describe, expect, test } from "bun:test";
import { auditDetails } from "../../src/web/settings/audit-words";
import type { AuditEntry } from "../../src/contract";
import type { Guild } from "../../src/web/types";

const SEND = String(1 << 11);
const ATTACH = String(1 << 15);
const guild = {
  id: "g",
  channels: [
    { id: "c1", type: 0, name: "general" },
    { id: "cat", type: 4, name: "Staff" },
  ],
  roles: [
    { id: "g", name: "@everyone", everyone: true },
    { id: "r1", name: "Mods", everyone: false },
  ],
} as unknown as Guild;
const entry = (action_type: number, changes: AuditEntry["changes"], options: Record<string, unknown> | null = null) =>
  ({ id: "e", action_type, actor: null, target_id: "c1", target_user: null, changes, options, reason: null, created_at: "" }) as AuditEntry;
const say = (e: AuditEntry) => auditDetails(guild, e, (id) => (id === "u1" ? "Carol" : null));

describe("the Changes column", () => {
  test("overwrites: created, updated by one field, removed; for a role now, a role deleted since, a member", () => {
    const created = [
      { key: "id", new_value: "g" },
      { key: "type", new_value: 0 },
      { key: "allow", new_value: "0" },
      { key: "deny", new_value: SEND },
    ];
    expect(say(entry(13, created, { id: "g", type: "0", role_name: "@everyone" }))).toEqual(["For @everyone: Send Messages denied"]);
    const denyMore = [{ key: "deny", old_value: SEND, new_value: String(Number(SEND) | Number(ATTACH)) }];
    expect(say(entry(14, denyMore, { id: "r1", type: "0", role_name: "Mods" }))).toEqual(["For @Mods: Attach Files: inherited → denied"]);
    const flipped = [
      { key: "allow", old_value: SEND, new_value: "0" },
      { key: "deny", old_value: "0", new_value: SEND },
    ];
    expect(say(entry(14, flipped, { id: "gone", type: "0", role_name: "Helpers" }))).toEqual([
      "For @Helpers: Send Messages: allowed → denied",
    ]);
    const removed = [
      { key: "id", old_value: "u1" },
      { key: "allow", old_value: ATTACH },
      { key: "deny", old_value: "0" },
    ];
    expect(say(entry(15, removed, { id: "u1", type: "1" }))).toEqual(["For Carol: Attach Files: allowed → inherited"]);
  });

  test("fields in words: slow mode, a category, a role's permissions, roles given", () => {
    const moved = [
      { key: "rate_limit_per_user", old_value: 0, new_value: 21600 },
      { key: "parent_id", new_value: "cat" },
    ];
    expect(say(entry(11, moved))).toEqual(["Slow mode: off → 6 hours", "Category: none → Staff"]);
    const perms = [{ key: "permissions", old_value: "4", new_value: "2" }];
    expect(say(entry(31, perms))).toEqual(["Permissions: +Kick Members, −Ban Members"]);
    expect(say(entry(25, [{ key: "$add", new_value: [{ id: "r1", name: "Mods" }] }]))).toEqual(["Added @Mods"]);
    expect(say(entry(73, [], { count: "3" }))).toEqual(["3 messages"]);
  });
});
