/** The harness acts as a person pinning: the same core operation as the people's and the bot API's. */
import { beforeEach, describe, expect, test } from "bun:test";
import { harness, makeParley, recordEvents, refusal, seedBasic } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let general: string;

beforeEach(() => {
  p = makeParley();
  w = seedBasic(p);
  general = w.guilds.Lab.channels.general;
});

describe("PUT/DELETE /users/{user}/pins", () => {
  test("a person with Manage Messages pins and unpins: 204, the notice and the update; others are refused", async () => {
    const m = await harness(p, "POST", "/users/alice/messages", { channel_id: general, content: "pin me" });
    const body = { channel_id: general, message_id: m.body.id };
    const ev = recordEvents(p);
    // bob holds Mod (Manage Messages); alice owns the server.
    expect((await harness(p, "PUT", "/users/bob/pins", body)).status).toBe(204);
    expect(ev.count("message.updated")).toBe(1);
    expect(ev.count("message.created")).toBe(1);
    const seen = await harness(p, "GET", `/channels/${general}/messages?as=alice&limit=2`);
    expect(seen.body[0]).toMatchObject({ type: 6, message_reference: { message_id: m.body.id } });
    expect(seen.body[1]).toMatchObject({ id: m.body.id, pinned: true });
    expect((await harness(p, "DELETE", "/users/bob/pins", body)).status).toBe(204);
    expect((await harness(p, "GET", `/channels/${general}/messages?as=alice&limit=2`)).body[1].pinned).toBe(false);
    expect(refusal(await harness(p, "PUT", "/users/carol/pins", body))).toEqual([404, 10003]);
    expect(refusal(await harness(p, "PUT", "/users/bob/pins", { channel_id: general }))).toEqual([400, 50035]);
  });
});
