/**
 * What the page writes by itself (read marks, typing notices) never spends the person's
 * write window (30 per 10 s): it has a window of its own, wide enough for a busy
 * channel, so the person's next message or edit is never refused because the page
 * marked messages read as they arrived (issue 28).
 */
import { describe, expect, test } from "bun:test";
import { client, peopleWorld, refusal } from "../helpers";
import { BACKGROUND_PER_PERSON, WRITES_PER_PERSON } from "../../src/clientapi/limits";

describe("the page's own writes", () => {
  test("read marks and typing in a busy channel leave the person's write window whole", async () => {
    const { p, alice, bob, general } = peopleWorld();
    p.clock.advance(0);
    const last = (await client(p, "POST", `/channels/${general}/messages`, alice, { content: "busy" })).body;
    for (let i = 0; i < WRITES_PER_PERSON.limit; i++) {
      expect((await client(p, "PUT", `/channels/${general}/read`, bob, { message_id: last.id })).status).toBe(200);
      expect((await client(p, "POST", `/channels/${general}/typing`, bob)).status).toBe(204);
    }
    let sent = 0;
    for (let i = 0; i < WRITES_PER_PERSON.limit; i++)
      if ((await client(p, "POST", `/channels/${general}/messages`, bob, { content: `m${i}` })).status === 200) sent++;
    expect(sent).toBe(WRITES_PER_PERSON.limit);
    expect(refusal(await client(p, "POST", `/channels/${general}/messages`, bob, { content: "one too many" }))).toEqual([429, 0]);
  });

  test("the background window has its own limit: past it, read marks are 429 too, and a person's writes still pass", async () => {
    const { p, alice, bob, general } = peopleWorld();
    p.clock.advance(0);
    const last = (await client(p, "POST", `/channels/${general}/messages`, alice, { content: "busy" })).body;
    let marked = 0;
    let refused: any = null;
    for (let i = 0; i < BACKGROUND_PER_PERSON.limit + 3; i++) {
      const r = await client(p, "PUT", `/channels/${general}/read`, bob, { message_id: last.id });
      if (r.status === 200) marked++;
      else refused ??= r;
    }
    expect(marked).toBe(BACKGROUND_PER_PERSON.limit);
    expect(refusal(refused)).toEqual([429, 0]);
    expect((await client(p, "POST", `/channels/${general}/messages`, bob, { content: "still mine" })).status).toBe(200);
    p.clock.advance(BACKGROUND_PER_PERSON.windowMs);
    expect((await client(p, "PUT", `/channels/${general}/read`, bob, { message_id: last.id })).status).toBe(200);
  });
});
