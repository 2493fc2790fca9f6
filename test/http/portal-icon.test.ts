/**
 * An application's icon in the portal: its bot's avatar, set by its owner from an avatar
 * upload slot, read back by the portal and by the bot itself (GET /users/@me), cleared
 * with null; nobody else can read or set it, and a file that is no image is refused.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, client, ORIGIN, peopleWorld } from "../helpers";
import { png } from "../support/png";
import type { Parley } from "../../src/app";

let p: Parley;
let carol: string, bob: string;

beforeEach(() => {
  ({ p, carol, bob } = peopleWorld());
});

afterEach(() => p.core.close());

/** An avatar slot of `token`'s, filled with `bytes`. */
async function filled(token: string, bytes: Uint8Array<ArrayBuffer> | string): Promise<string> {
  const size = typeof bytes === "string" ? bytes.length : bytes.byteLength;
  const slot = await client(p, "POST", "/uploads", token, { purpose: "avatar", filename: "icon.png", size });
  expect(slot.status).toBe(200);
  await p.handle(
    new Request(`${ORIGIN}${slot.body.upload_url}`, { method: "PUT", headers: { Authorization: `Session ${token}` }, body: bytes }),
  );
  return slot.body.id;
}

describe("an application's icon", () => {
  test("set from an upload, it is the bot's avatar; cleared with null", async () => {
    const made = await client(p, "POST", "/applications", carol, { name: "Picture Bot" });
    const { application, token } = made.body;
    expect((await client(p, "GET", `/applications/${application.id}/icon`, carol)).body).toEqual({ icon: null });

    const set = await client(p, "PUT", `/applications/${application.id}/icon`, carol, { upload_id: await filled(carol, png(8, 8)) });
    expect(set.status).toBe(200);
    expect(set.body.icon).toMatch(/^[0-9a-f]{32}$/);
    expect((await client(p, "GET", `/applications/${application.id}/icon`, carol)).body).toEqual({ icon: set.body.icon });
    expect((await call(p, "GET", "/users/@me", { token })).body.avatar).toBe(set.body.icon);
    const img = await p.handle(new Request(`${ORIGIN}/avatars/${application.bot_user_id}/${set.body.icon}.png`));
    expect(img.status).toBe(200);

    const cleared = await client(p, "PUT", `/applications/${application.id}/icon`, carol, { upload_id: null });
    expect(cleared.body).toEqual({ icon: null });
    expect((await call(p, "GET", "/users/@me", { token })).body.avatar).toBeNull();
  });

  test("another person's application: 404 to read or set; a text file is no icon (400)", async () => {
    const { application } = (await client(p, "POST", "/applications", carol, { name: "Picture Bot" })).body;
    expect((await client(p, "GET", `/applications/${application.id}/icon`, bob)).status).toBe(404);
    const theirs = await client(p, "PUT", `/applications/${application.id}/icon`, bob, { upload_id: await filled(bob, png(8, 8)) });
    expect([theirs.status, theirs.body.code]).toEqual([404, 10003]);

    const text = await client(p, "PUT", `/applications/${application.id}/icon`, carol, { upload_id: await filled(carol, "hello") });
    expect(text.status).toBe(400);
    expect((await client(p, "GET", `/applications/${application.id}/icon`, carol)).body).toEqual({ icon: null });
  });
});
