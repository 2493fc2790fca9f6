import { describe, expect, test } from "bun:test";
import {
  ALL_PERMISSIONS,
  computePermissions,
  hasPermission,
  maskPermissions,
  PERMISSIONS as P,
  type PermissionInputs,
} from "../../src/core/permissions";
import { makeParley } from "../helpers";

const base: PermissionInputs = {
  isOwner: false,
  everyonePerms: P.SEND_MESSAGES,
  memberRolePerms: [],
  memberRoleIds: [],
  everyoneRoleId: "g",
  userId: "u",
};

describe("computePermissions (reference-gaps 1.3)", () => {
  test("the owner holds every permission, overwrites or not", () => {
    expect(computePermissions({ ...base, isOwner: true, everyonePerms: 0 })).toBe(ALL_PERMISSIONS);
    expect(
      computePermissions({ ...base, isOwner: true, overwrites: [{ targetId: "u", targetType: 1, allow: 0, deny: ALL_PERMISSIONS }] }),
    ).toBe(ALL_PERMISSIONS);
  });

  test("ADMINISTRATOR from any role gives all and ignores overwrites", () => {
    const i = { ...base, memberRolePerms: [P.ADMINISTRATOR], memberRoleIds: ["r"] };
    expect(computePermissions(i)).toBe(ALL_PERMISSIONS);
    expect(computePermissions({ ...i, overwrites: [{ targetId: "u", targetType: 1, allow: 0, deny: ALL_PERMISSIONS }] })).toBe(
      ALL_PERMISSIONS,
    );
    expect(hasPermission(P.ADMINISTRATOR, P.MANAGE_ROLES)).toBe(true);
  });

  test("guild level: @everyone OR every role of the member", () => {
    expect(computePermissions({ ...base, memberRolePerms: [P.KICK_MEMBERS, P.MANAGE_MESSAGES], memberRoleIds: ["a", "b"] })).toBe(
      P.SEND_MESSAGES | P.KICK_MEMBERS | P.MANAGE_MESSAGES,
    );
  });

  test("@everyone overwrite applies first: deny then allow", () => {
    const ow = [{ targetId: "g", targetType: 0 as const, allow: P.MANAGE_MESSAGES, deny: P.SEND_MESSAGES }];
    expect(computePermissions({ ...base, overwrites: ow })).toBe(P.MANAGE_MESSAGES);
  });

  test("role overwrites combine: an allow on any role beats a deny on another", () => {
    const ow = [
      { targetId: "g", targetType: 0 as const, allow: 0, deny: P.SEND_MESSAGES },
      { targetId: "r1", targetType: 0 as const, allow: 0, deny: P.SEND_MESSAGES },
      { targetId: "r2", targetType: 0 as const, allow: P.SEND_MESSAGES, deny: 0 },
    ];
    expect(computePermissions({ ...base, memberRoleIds: ["r1", "r2"], memberRolePerms: [0, 0], overwrites: ow })).toBe(P.SEND_MESSAGES);
    // Only the roles the member holds count.
    expect(computePermissions({ ...base, memberRoleIds: ["r1"], memberRolePerms: [0], overwrites: ow })).toBe(0);
  });

  test("role allow beats the @everyone deny; member overwrite beats both", () => {
    const ow = [
      { targetId: "g", targetType: 0 as const, allow: 0, deny: P.SEND_MESSAGES },
      { targetId: "r", targetType: 0 as const, allow: P.SEND_MESSAGES, deny: 0 },
      { targetId: "u", targetType: 1 as const, allow: 0, deny: P.SEND_MESSAGES },
    ];
    expect(computePermissions({ ...base, memberRoleIds: ["r"], memberRolePerms: [0], overwrites: ow.slice(0, 2) })).toBe(P.SEND_MESSAGES);
    expect(computePermissions({ ...base, memberRoleIds: ["r"], memberRolePerms: [0], overwrites: ow })).toBe(0);
    const allowMember = [{ targetId: "u", targetType: 1 as const, allow: P.MANAGE_CHANNELS, deny: 0 }, ow[0]];
    expect(computePermissions({ ...base, overwrites: allowMember })).toBe(P.MANAGE_CHANNELS);
  });

  test("a member overwrite for someone else, or a role overwrite sharing the user's id type, does not apply", () => {
    const ow = [
      { targetId: "other", targetType: 1 as const, allow: P.MANAGE_ROLES, deny: P.SEND_MESSAGES },
      { targetId: "u", targetType: 0 as const, allow: P.MANAGE_ROLES, deny: 0 },
    ];
    expect(computePermissions({ ...base, overwrites: ow })).toBe(P.SEND_MESSAGES);
  });

  test("bits outside the 13 are dropped when masking, including 64-bit values", () => {
    const MENTION_EVERYONE = 1n << 17n;
    const MODERATE_MEMBERS = 1n << 40n;
    const CONNECT = 1n << 20n;
    expect(maskPermissions(MENTION_EVERYONE | MODERATE_MEMBERS | CONNECT)).toBe(0);
    expect(maskPermissions((1n << 63n) | BigInt(P.SEND_MESSAGES))).toBe(P.SEND_MESSAGES);
    expect(maskPermissions("8866461766385663")).toBe(ALL_PERMISSIONS);
    expect(ALL_PERMISSIONS).toBe(1 + 2 + 4 + 8 + 16 + 32 + 128 + 2048 + 8192 + 32768 + 4194304 + 268435456 + 1073741824);
  });
});

describe("Guilds.permissions over the store: three overwrite layers", () => {
  test("everyone, role and member overwrites layer in order; other channels are untouched", () => {
    const p = makeParley();
    const alice = p.core.users.createPerson({ username: "alice" });
    const bob = p.core.users.createPerson({ username: "bob" });
    const g = p.core.guilds.create({ name: "Lab", ownerId: alice.id, channels: ["a", "b"] });
    p.core.guilds.addMember(g.id, bob.id);
    const mod = p.core.guilds.createRole(g.id, { name: "Mod", permissions: P.MANAGE_MESSAGES });
    p.core.guilds.addMemberRole(g.id, bob.id, mod.id);
    const [a, b] = p.core.guilds.channels(g.id);
    const perms = (ch?: string) => p.core.guilds.permissions(g.id, bob.id, ch);
    expect(perms()).toBe(P.SEND_MESSAGES | P.CREATE_INSTANT_INVITE | P.ATTACH_FILES | P.MANAGE_MESSAGES);

    p.core.guilds.setOverwrite(a.id, g.id, 0, 0, P.SEND_MESSAGES);
    expect(perms(a.id) & P.SEND_MESSAGES).toBe(0);
    p.core.guilds.setOverwrite(a.id, mod.id, 0, P.SEND_MESSAGES, P.MANAGE_MESSAGES);
    expect(perms(a.id) & (P.SEND_MESSAGES | P.MANAGE_MESSAGES)).toBe(P.SEND_MESSAGES);
    p.core.guilds.setOverwrite(a.id, bob.id, 1, P.MANAGE_MESSAGES | Number(1n << 29n), P.SEND_MESSAGES);
    expect(perms(a.id) & (P.SEND_MESSAGES | P.MANAGE_MESSAGES)).toBe(P.MANAGE_MESSAGES);
    // Written bits outside the 13 never reach the store.
    expect(p.core.guilds.overwrites(a.id).find((o) => o.target_id === bob.id)!.allow).toBe(P.MANAGE_MESSAGES);
    expect(perms(b.id)).toBe(perms());
    // The owner ignores all of it; a non-member holds nothing.
    expect(p.core.guilds.permissions(g.id, alice.id, a.id)).toBe(ALL_PERMISSIONS);
    const carol = p.core.users.createPerson({ username: "carol" });
    expect(p.core.guilds.permissions(g.id, carol.id, a.id)).toBe(0);
  });
});
