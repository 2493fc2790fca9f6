/**
 * Who reacted, on the people's API: GET .../reactions/{emoji} lists the people who
 * reacted with one emoji, paged by user id, to whoever may see the message (a member of
 * its server, one of a DM's two people) and to nobody else, with the spec's refusals.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { shapedEnvelope } from "../e2e-helpers";
import { generateDeviceKeys, publicKeysOf } from "../../src/e2e";
import { client, internalId, peopleWorld, refusal } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let alice: string, bob: string, carol: string, general: string;
const THUMBS = encodeURIComponent("👍");

beforeEach(() => {
  ({ p, w, alice, bob, carol, general } = peopleWorld());
});

async function post(token: string, content: string): Promise<string> {
  return (await client(p, "POST", `/channels/${general}/messages`, token, { content })).body.id;
}

const who = (token: string, channel: string, message: string, emoji = THUMBS, q = "") =>
  client(p, "GET", `/channels/${channel}/messages/${message}/reactions/${emoji}${q}`, token);

describe("who reacted", () => {
  test("members see everyone who reacted with an emoji, paged by user id", async () => {
    const m = await post(alice, "react here");
    for (const t of [alice, bob])
      expect((await client(p, "PUT", `/channels/${general}/messages/${m}/reactions/${THUMBS}`, t)).status).toBe(204);
    await client(p, "PUT", `/channels/${general}/messages/${m}/reactions/${encodeURIComponent("🔥")}`, bob);
    const all = await who(bob, general, m);
    expect(all.status).toBe(200);
    const ids = [internalId(p, w.users.alice.id), internalId(p, w.users.bob.id)].sort();
    expect(all.body.map((u: any) => u.id)).toEqual(ids);
    expect(all.body.map((u: any) => u.username).sort()).toEqual(["alice", "bob"]);
    const first = await who(alice, general, m, THUMBS, "?limit=1");
    expect(first.body.map((u: any) => u.id)).toEqual([ids[0]]);
    const next = await who(alice, general, m, THUMBS, `?limit=1&after=${ids[0]}`);
    expect(next.body.map((u: any) => u.id)).toEqual([ids[1]]);
    // An emoji nobody used here lists nobody.
    expect((await who(alice, general, m, encodeURIComponent("🎉"))).body).toEqual([]);
  });

  test("refusals: outside the server 404, bad emoji 400, unknown message 404, bad page 400", async () => {
    const m = await post(alice, "react here");
    await client(p, "PUT", `/channels/${general}/messages/${m}/reactions/${THUMBS}`, bob);
    // carol is in no server with this channel: as every other route answers her, unknown.
    expect(refusal(await who(carol, general, m))).toEqual([404, 10003]);
    for (const bad of ["notanemoji", "x:y", "%E0%A4%A"]) {
      expect(refusal(await who(bob, general, m, bad))).toEqual([400, 50035]);
      // Adding or taking back such an emoji is as malformed as asking about it.
      for (const method of ["PUT", "DELETE"] as const)
        expect(refusal(await client(p, method, `/channels/${general}/messages/${m}/reactions/${bad}`, bob))).toEqual([400, 50035]);
    }
    expect((await who(bob, general, m)).body).toHaveLength(1);
    expect(refusal(await who(bob, general, "01900000-0000-7000-8000-000000000000"))).toEqual([404, 10003]);
    expect(refusal(await who(bob, general, "nope"))).toEqual([404, 10003]);
    expect(refusal(await who(bob, general, m, THUMBS, "?limit=0"))).toEqual([400, 50035]);
    expect(refusal(await who(bob, general, m, THUMBS, "?after=somebody"))).toEqual([400, 50035]);
    expect((await who(null as unknown as string, general, m)).status).toBe(401);
  });

  test("in a DM, its two people only", async () => {
    const dm = (await client(p, "POST", "/users/@me/dms", alice, { recipient_id: internalId(p, w.users.bob.id) })).body.id;
    const device = (await client(p, "POST", "/users/@me/devices", alice, { keys: await publicKeysOf(await generateDeviceKeys()) })).body.id;
    const m = (await client(p, "POST", `/channels/${dm}/messages`, alice, { ciphertext: shapedEnvelope(128, [device]) })).body.id;
    await client(p, "PUT", `/channels/${dm}/messages/${m}/reactions/${THUMBS}`, bob);
    expect((await who(alice, dm, m)).body.map((u: any) => u.username)).toEqual(["bob"]);
    expect(refusal(await who(carol, dm, m))).toEqual([404, 10003]);
    // A message named under another channel is not found there.
    expect(refusal(await who(alice, general, m))).toEqual([404, 10003]);
  });
});
