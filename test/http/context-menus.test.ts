/**
 * Context-menu commands (spec 2.4; reference-gaps 4.1): a USER command's INTERACTION_CREATE
 * carries `target_id` and `resolved.users`/`members`, a MESSAGE command's `target_id` and
 * `resolved.messages`, whichever door the person came in by (harness or people's API).
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { call, client, internalId, interactionPayload, invoke, liveBot, makeUnlimitedParley, refusal, seedBasic } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let app: string;
let general: string;

beforeEach(async () => {
  p = makeUnlimitedParley();
  w = seedBasic(p);
  app = w.applications.EchoBot.id;
  general = w.guilds.Lab.channels.general;
  const token = w.applications.EchoBot.token;
  await call(p, "PUT", `/applications/${app}/commands`, {
    token,
    body: [
      { name: "Profile", type: 2 },
      { name: "Quote", type: 3 },
      { name: "ping", description: "Ping" },
    ],
  });
  liveBot(p);
});

describe("context-menu commands carry their target", () => {
  test("a USER command: target_id, resolved user and member with permissions", async () => {
    const r = await invoke(p, "alice", { channel_id: general, application_id: app, name: "Profile", type: 2, target_id: w.users.bob.id });
    expect(r.status).toBe(200);
    const d = await interactionPayload(p, r.body.id);
    expect(d.data).toMatchObject({ name: "Profile", type: 2, target_id: w.users.bob.id });
    expect(d.data.resolved.users[w.users.bob.id]).toMatchObject({ id: w.users.bob.id, username: "bob" });
    const member = d.data.resolved.members[w.users.bob.id];
    expect(member.user).toBeUndefined();
    expect(typeof member.permissions).toBe("string");
    expect(member.roles).toEqual([w.guilds.Lab.roles.Mod]);
  });

  test("a USER command may name its target by seed name in the harness", async () => {
    const r = await invoke(p, "alice", { channel_id: general, application_id: app, name: "Profile", type: 2, target_id: "bob" });
    expect((await interactionPayload(p, r.body.id)).data.target_id).toBe(w.users.bob.id);
  });

  test("a MESSAGE command: target_id and the message, content included, in resolved.messages", async () => {
    const said = await call(p, "POST", `/api/harness/v1/users/bob/messages`, {
      body: { channel_id: general, content: `quote me, <@${w.users.alice.id}>` },
    });
    const r = await invoke(p, "alice", { channel_id: general, application_id: app, name: "Quote", type: 3, target_id: said.body.id });
    const d = await interactionPayload(p, r.body.id);
    expect(d.data.target_id).toBe(said.body.id);
    expect(d.data.resolved.messages[said.body.id]).toMatchObject({
      id: said.body.id,
      content: `quote me, <@${w.users.alice.id}>`,
      author: { id: w.users.bob.id },
    });
  });

  test("the people's API takes target_id as an internal id", async () => {
    const bob = internalId(p, w.users.bob.id);
    const r = await client(p, "POST", `/channels/${internalId(p, general)}/interactions`, w.users.alice.token, {
      application_id: internalId(p, app),
      name: "Profile",
      type: 2,
      target_id: bob,
    });
    expect(r.status).toBe(200);
    const d = await interactionPayload(p, p.api.flakes.of(r.body.id));
    expect(d.data.target_id).toBe(w.users.bob.id);
  });

  test("refusals: no target, a target on a slash command, an unknown or unseen target", async () => {
    const run = (body: Record<string, unknown>) => invoke(p, "alice", { channel_id: general, application_id: app, ...body });
    expect(refusal(await run({ name: "Profile", type: 2 }))).toEqual([400, 50035]);
    expect(refusal(await run({ name: "ping", target_id: w.users.bob.id }))).toEqual([400, 50035]);
    expect(refusal(await run({ name: "Profile", type: 2, target_id: "123456789012345678" }))).toEqual([400, 50035]);
    // carol is not a member of Lab: not a target there
    expect(refusal(await run({ name: "Profile", type: 2, target_id: w.users.carol.id }))).toEqual([400, 50035]);
    // a user id is no message
    expect(refusal(await run({ name: "Quote", type: 3, target_id: w.users.bob.id }))).toEqual([400, 50035]);
    const r = await run({ name: "Quote", type: 3 });
    expect(r.body.errors.target_id._errors[0].code).toBe("BASE_TYPE_REQUIRED");
  });
});
