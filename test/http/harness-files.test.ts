/**
 * The harness's person attaches files (issue 31), so a bot's handling of files can be
 * tested: the same upload slots as the web client, and the bot reads the spec's
 * Attachment objects whose links serve the same bytes.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, harness, makeParley, ORIGIN, refusal, rowCounts, seedBasic } from "../helpers";
import { png } from "../support/png";
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

// Each app keeps its files in a temporary directory, removed when it closes.
afterEach(() => p.core.close());

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");

describe("POST /users/{user}/messages with files", () => {
  test("a bot reads the person's attachments and downloads identical bytes", async () => {
    const image = png(7, 3);
    const r = await harness(p, "POST", "/users/bob/messages", {
      channel_id: general,
      content: "two files",
      files: [
        { name: "shot.png", data: b64(image), description: "a screenshot" },
        { name: "notes.txt", data: b64("line one\n") },
      ],
    });
    expect(r.status).toBe(200);
    const m = await call(p, "GET", `/channels/${general}/messages/${r.body.id}`, { token: w.applications.EchoBot.token });
    expect(m.body.attachments.map((a: { filename: string }) => a.filename)).toEqual(["shot.png", "notes.txt"]);
    expect(m.body.attachments[0]).toMatchObject({ content_type: "image/png", width: 7, height: 3, description: "a screenshot" });
    expect(m.body.attachments[1]).toMatchObject({ content_type: "text/plain; charset=utf-8", size: 9 });
    // As the reference sends them: no dimensions for a file that is not an image, no description when none was given.
    for (const key of ["width", "height", "description"]) expect(m.body.attachments[1]).not.toHaveProperty(key);
    const res = await p.handle(new Request(m.body.attachments[0].url.replace(/^https?:\/\/[^/]+/, ORIGIN)));
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(image);
  });

  test("more than ten files, or bytes that are not base64, are 400 and store nothing", async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, data: b64("x") }));
    expect(refusal(await harness(p, "POST", "/users/bob/messages", { channel_id: general, content: "", files: eleven }))).toEqual([
      400, 50035,
    ]);
    expect(
      refusal(await harness(p, "POST", "/users/bob/messages", { channel_id: general, content: "", files: [{ name: "a", data: "%%%" }] })),
    ).toEqual([400, 50035]);
    expect(rowCounts(p, ["uploads", "media_blobs", "messages"])).toMatchObject({ uploads: 0, media_blobs: 0 });
  });

  test("a person reacts with a server's emoji by name:snowflake", async () => {
    const alice = p.api.flakes.uuid(w.users.alice.id)!;
    const lab = p.api.flakes.uuid(w.guilds.Lab.id)!;
    const e = await p.core.emojis.create(alice, lab, { name: "party", image: { bytes: png() } });
    const m = await harness(p, "POST", "/users/bob/messages", { channel_id: general, content: "react here" });
    const emoji = `party:${p.api.flakes.of(e.id)}`;
    expect((await harness(p, "PUT", "/users/bob/reactions", { channel_id: general, message_id: m.body.id, emoji })).status).toBe(204);
    const read = await call(p, "GET", `/channels/${general}/messages/${m.body.id}`, { token: w.applications.EchoBot.token });
    expect(read.body.reactions[0].emoji).toEqual({ id: p.api.flakes.of(e.id), name: "party" });
  });
});
