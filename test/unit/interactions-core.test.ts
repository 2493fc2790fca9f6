import { describe, expect, test, beforeEach } from "bun:test";
import { makeParley, seedBasic } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";
import { INTERACTION_TTL_MS } from "../../src/core/interactions";
import { normaliseCommand } from "../../src/core/commands";
import { sha256Hex } from "../../src/core/crypto";

let p: Parley;
let w: SeedAnswer;
let ids: { app: string; alice: string; general: string };
const live = { live: () => true };

beforeEach(() => {
  p = makeParley();
  w = seedBasic(p);
  const f = p.api.flakes;
  ids = { app: f.uuid(w.applications.EchoBot.id)!, alice: f.uuid(w.users.alice.id)!, general: f.uuid(w.guilds.Lab.channels.general)! };
  p.core.commands.upsert(ids.app, null, { name: "ping", description: "Ping" });
});

function open(delivery = live) {
  return p.core.interactions.runCommand(
    { userId: ids.alice, channelId: ids.general, applicationId: ids.app, name: "ping", resolveId: (x) => x },
    delivery,
  );
}

describe("interaction tokens", () => {
  test("only the SHA-256 of the token is stored; the plaintext is held in memory for the payload", () => {
    const { interaction } = open();
    const token = p.core.interactions.tokenFor(interaction.id)!;
    expect(token.length).toBeGreaterThanOrEqual(43);
    const row = p.store.db.query("SELECT * FROM interactions WHERE id = ?").get(interaction.id) as Record<string, unknown>;
    expect(row.token_hash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(p.core.interactionResponses.authorize(token, {}).id).toBe(interaction.id);
  });

  test("the in-memory token and the interaction expire together after 15 minutes of the shared clock", () => {
    p.clock.advance(0);
    const { interaction } = open();
    const token = p.core.interactions.tokenFor(interaction.id)!;
    expect(interaction.expires_at - interaction.created_at).toBe(INTERACTION_TTL_MS);
    p.clock.advance(INTERACTION_TTL_MS);
    expect(p.core.interactions.tokenFor(interaction.id)).toBeNull();
    expect(() => p.core.interactionResponses.authorize(token, {})).toThrow(expect.objectContaining({ kind: "unknown_interaction" }));
    expect(p.core.interactions.state(p.core.interactions.get(interaction.id)!)).toBe("expired");
  });

  test("a dropped interaction (no live session) keeps no token and is expired at once", () => {
    const { interaction, delivered } = open({ live: () => false });
    expect(delivered).toBe(false);
    expect(p.core.interactions.tokenFor(interaction.id)).toBeNull();
    expect(p.core.interactions.state(interaction)).toBe("expired");
  });

  test("a world reset forgets every held token", () => {
    const { interaction } = open();
    p.reset();
    expect(p.core.interactions.tokenFor(interaction.id)).toBeNull();
  });

  test("each token is unique and random", () => {
    const a = p.core.interactions.tokenFor(open().interaction.id);
    const b = p.core.interactions.tokenFor(open().interaction.id);
    expect(a).not.toBe(b);
  });
});

describe("command normalisation", () => {
  test("defaults: type 1, dm_permission true, integration_types [0], options []", () => {
    expect(normaliseCommand({ name: "ping", description: "d" })).toMatchObject({
      type: 1,
      dm_permission: true,
      integration_types: [0],
      options: [],
      default_member_permissions: null,
      nsfw: false,
    });
  });

  test("default_member_permissions is masked to the honoured bits and kept as a string", () => {
    expect(
      normaliseCommand({ name: "ping", description: "d", default_member_permissions: String((1n << 40n) | 8n) }).default_member_permissions,
    ).toBe("8");
  });

  test("names follow the reference rule: unicode letters yes, capitals and spaces no (chat input)", () => {
    expect(normaliseCommand({ name: "café-ß_1", description: "d" }).name).toBe("café-ß_1");
    expect(() => normaliseCommand({ name: "Café", description: "d" })).toThrow();
    expect(() => normaliseCommand({ name: "a b", description: "d" })).toThrow();
  });

  test("errors inside a bulk body name the array index", () => {
    try {
      normaliseCommand({ name: "ok", description: "" }, "[7]");
      throw new Error("not thrown");
    } catch (e: any) {
      expect(e.issues[0].path).toBe("[7].description");
    }
  });
});
