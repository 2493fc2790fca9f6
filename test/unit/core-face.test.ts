/**
 * The core's face (src/core/index.ts): the models it hands surfaces carry no hash, no
 * sealed secret and no password, neither in their types (checked by tsc, which runs
 * this file's type assertions) nor in the objects the services answer with.
 */
import { describe, expect, test } from "bun:test";
import type * as Face from "../../src/core";
import { RawOptionsSchema, type RawOption } from "../../src/core";
import { validate } from "../../src/wire/validation";
import { internalId, makeParley, seedBasic } from "../helpers";

type Keys<T> = T extends unknown ? keyof T & string : never;
type Secretish<K extends string> = K extends
  | `${string}hash${string}`
  | `${string}secret${string}`
  | `${string}password${string}`
  | `${string}sealed${string}`
  ? K
  : never;
/** `true` only when no key of T (nor of its members, for a union) looks like a secret. */
type Clean<T> = [Secretish<Keys<T>>] extends [never] ? true : false;

// Each line fails to compile if a model gains a secret-looking field.
const clean: Record<string, true> = {
  User: true satisfies Clean<Face.User>,
  Session: true satisfies Clean<Face.Session>,
  Application: true satisfies Clean<Face.Application>,
  Guild: true satisfies Clean<Face.Guild>,
  Role: true satisfies Clean<Face.Role>,
  Member: true satisfies Clean<Face.Member>,
  Channel: true satisfies Clean<Face.Channel>,
  Overwrite: true satisfies Clean<Face.Overwrite>,
  Message: true satisfies Clean<Face.Message>,
  Device: true satisfies Clean<Face.Device>,
  Invite: true satisfies Clean<Face.Invite>,
  Webhook: true satisfies Clean<Face.Webhook>,
  AuditEntry: true satisfies Clean<Face.AuditEntry>,
  Ban: true satisfies Clean<Face.Ban>,
  Interaction: true satisfies Clean<Face.Interaction>,
  Command: true satisfies Clean<Face.Command>,
};

describe("the core's face", () => {
  test("every entity model is listed as free of secrets", () => {
    expect(Object.keys(clean).length).toBe(16);
  });

  test("the secret-looking key check itself catches a hash", () => {
    type Leaky = { id: string; token_hash: string };
    const caught: false = false satisfies Clean<Leaky>;
    expect(caught).toBe(false);
  });

  test("what the services answer with holds no secret at run time either", async () => {
    const p = makeParley();
    const w = seedBasic(p);
    const secretKeys = (o: object | null) => Object.keys(o ?? {}).filter((k) => /hash|secret|password|sealed/.test(k));
    const alice = internalId(p, w.users.alice.id);
    const app = p.core.apps.get(internalId(p, w.applications.EchoBot.id))!;
    expect(secretKeys(p.core.users.get(alice))).toEqual([]);
    expect(secretKeys(p.core.users.byUsername("alice"))).toEqual([]);
    expect(secretKeys(app)).toEqual([]);
    expect(secretKeys(p.core.apps.byBotUser(app.bot_user_id))).toEqual([]);
    const signed = p.core.sessions.authenticate(w.users.alice.token)!;
    expect(secretKeys(signed.user)).toEqual([]);
    expect(secretKeys(signed.session)).toEqual([]);
    for (const s of p.core.sessions.list(alice)) expect(secretKeys(s)).toEqual([]);
    const guildId = internalId(p, w.guilds.Lab.id);
    const channelId = internalId(p, w.guilds.Lab.channels.general);
    const hook = p.core.webhooks.create(channelId, alice, { name: "Hook", hmacSecret: "s3cret" });
    expect(secretKeys(hook.webhook)).toEqual([]);
    expect(secretKeys(p.core.webhooks.get(hook.webhook.id))).toEqual([]);
    expect(secretKeys(p.core.webhooks.authenticate(hook.webhook.id, hook.token))).toEqual([]);
    expect(p.core.guilds.get(guildId)!.id).toBe(guildId);
    await p.stop();
  });

  test("one raw-option schema: a sub-command with a typed option passes; a nameless or too deep one is 50035", () => {
    const given: RawOption[] = validate(RawOptionsSchema, [{ name: "add", type: 1, options: [{ name: "who", type: 6, value: "123" }] }]);
    expect(given[0].options?.[0].value).toBe("123");
    expect(() => validate(RawOptionsSchema, [{ value: 1 }])).toThrow("Invalid Form Body");
    expect(() => validate(RawOptionsSchema, [{ name: "x", value: { no: "objects" } }])).toThrow("Invalid Form Body");
    expect(() =>
      validate(
        RawOptionsSchema,
        Array.from({ length: 26 }, (_, i) => ({ name: `o${i}` })),
      ),
    ).toThrow("Invalid Form Body");
  });
});
