/**
 * A command's ATTACHMENT option from the people's API (reference-gaps 4.1): a person
 * uploads a file through a channel's slot, names the slot as the option's value, and the
 * bot's INTERACTION_CREATE carries the attachment's snowflake as the value and the whole
 * Attachment in `data.resolved.attachments`, its signed link serving the bytes. Running
 * the command hands the file to the bot; refused files store nothing. Subcommands arrive
 * nested as the reference sends them.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import {
  call,
  client,
  interactionPayload,
  internalId,
  liveBot,
  makeUnlimitedParley,
  ORIGIN,
  rowCounts,
  seedBasic,
  session,
} from "../helpers";
import { png } from "../support/png";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let app: string;
let general: string;
let alice: string;

beforeEach(async () => {
  p = makeUnlimitedParley();
  w = seedBasic(p);
  app = internalId(p, w.applications.EchoBot.id);
  general = internalId(p, w.guilds.Lab.channels.general);
  alice = w.users.alice.token;
  const put = await call(p, "PUT", `/applications/${w.applications.EchoBot.id}/commands`, {
    token: w.applications.EchoBot.token,
    body: [
      {
        name: "scan",
        description: "Scan a file",
        options: [
          { type: 11, name: "file", description: "What to scan", required: true },
          { type: 3, name: "note", description: "A note" },
        ],
      },
      {
        name: "settings",
        description: "Settings",
        options: [
          {
            type: 2,
            name: "group",
            description: "Group settings",
            options: [{ type: 1, name: "view", description: "View one", options: [{ type: 4, name: "n", description: "Which" }] }],
          },
          { type: 1, name: "reset", description: "Reset all" },
        ],
      },
    ],
  });
  expect(put.status).toBe(200);
  liveBot(p);
});

async function upload(bytes: Uint8Array, filename: string): Promise<string> {
  const s = await client(p, "POST", `/channels/${general}/attachments`, alice, { files: [{ filename, size: bytes.byteLength }] });
  expect(s.status).toBe(200);
  const put = await p.handle(
    new Request(`${ORIGIN}/api/client/v1/uploads/${s.body[0].id}`, {
      method: "PUT",
      headers: { ...session(alice), "Content-Type": "application/octet-stream" },
      body: bytes as BodyInit,
    }),
  );
  expect(put.status).toBe(200);
  return s.body[0].id;
}

const run = (options: unknown[], name = "scan") =>
  client(p, "POST", `/channels/${general}/interactions`, alice, { application_id: app, name, type: 1, options });

/** What the bot gets for an interaction the people's API answered (with its internal id). */
const payload = (id: string) => interactionPayload(p, p.api.flakes.of(id));

/** The refusal's status and the codes its errors name. */
const refused = (r: { status: number; body: { errors?: unknown } }) => [
  r.status,
  JSON.stringify(r.body.errors ?? {}).match(/"code":"(\w+)"/)?.[1],
];

describe("an ATTACHMENT option", () => {
  test("the bot gets the attachment's id as the value and the full Attachment in resolved, its link serving the bytes", async () => {
    const image = png(9, 7, 2);
    const slot = await upload(image, "shot.png");
    const r = await run([
      { name: "file", value: slot },
      { name: "note", value: "hi" },
    ]);
    expect(r.status).toBe(200);
    const d = (await payload(r.body.id)).data;
    const id = p.api.flakes.of(slot);
    expect(d.options).toEqual([
      { name: "file", type: 11, value: id },
      { name: "note", type: 3, value: "hi" },
    ]);
    const a = d.resolved.attachments[id];
    expect(a).toMatchObject({
      id,
      filename: "shot.png",
      size: image.byteLength,
      content_type: "image/png",
      width: 9,
      height: 7,
      ephemeral: true,
    });
    expect(a.proxy_url).toBe(a.url);
    expect((await payload(r.body.id)).attachment_size_limit).toBe(p.config.media.maxFileBytes);
    expect(new URL(a.url).pathname).toBe(`/attachments/${w.guilds.Lab.channels.general}/${id}/shot.png`);
    const got = await p.handle(new Request(a.url));
    expect(got.status).toBe(200);
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(image);
    // Unsigned, the same path is nobody's.
    expect((await p.handle(new Request(a.url.replace(/\?.*$/, "")))).status).toBe(404);
  });

  test("the file is the bot's once sent: the person can neither send it again nor take it back", async () => {
    const slot = await upload(new TextEncoder().encode("words"), "notes.txt");
    expect((await run([{ name: "file", value: slot }])).status).toBe(200);
    expect(refused(await run([{ name: "file", value: slot }]))).toEqual([400, "UPLOAD_UNKNOWN"]);
    const sent = await client(p, "POST", `/channels/${general}/messages`, alice, { content: "again", attachments: [{ upload_id: slot }] });
    expect(refused(sent)).toEqual([400, "UPLOAD_UNKNOWN"]);
    expect((await client(p, "DELETE", `/uploads/${slot}`, alice)).status).toBe(404);
  });

  test("an unknown, someone else's or empty slot is refused at the option's path, and nothing is stored", async () => {
    const empty = await client(p, "POST", `/channels/${general}/attachments`, alice, { files: [{ filename: "a.txt", size: 3 }] });
    const bobs = await client(p, "POST", `/channels/${general}/attachments`, w.users.bob.token, {
      files: [{ filename: "b.txt", size: 3 }],
    });
    const before = rowCounts(p, ["interactions", "uploads"]);
    const unknown = await run([{ name: "file", value: "00000000-0000-4000-8000-000000000000" }]);
    expect(refused(unknown)).toEqual([400, "UPLOAD_UNKNOWN"]);
    expect(unknown.body.errors.options[0].value._errors[0].code).toBe("UPLOAD_UNKNOWN");
    expect(refused(await run([{ name: "file", value: empty.body[0].id }]))).toEqual([400, "UPLOAD_EMPTY"]);
    expect(refused(await run([{ name: "file", value: bobs.body[0].id }]))).toEqual([400, "UPLOAD_UNKNOWN"]);
    expect(refused(await run([{ name: "file", value: 12 }]))).toEqual([400, "UPLOAD_UNKNOWN"]);
    expect(refused(await run([{ name: "note", value: "no file" }]))).toEqual([400, "APPLICATION_COMMAND_OPTIONS_REQUIRED"]);
    expect(rowCounts(p, ["interactions", "uploads"])).toEqual(before);
    // The empty slot is still the person's to fill.
    expect((await client(p, "DELETE", `/uploads/${empty.body[0].id}`, alice)).status).toBe(204);
  });

  test("attachment_size_limit is the server's own limit on a person's files", async () => {
    const small = makeUnlimitedParley({ media: { ...p.config.media, maxFileBytes: 4096 } });
    const sw = seedBasic(small);
    liveBot(small);
    const at = internalId(small, sw.guilds.Lab.channels.general);
    await call(small, "PUT", `/applications/${sw.applications.EchoBot.id}/commands`, {
      token: sw.applications.EchoBot.token,
      body: [{ name: "ping", description: "Ping" }],
    });
    const r = await client(small, "POST", `/channels/${at}/interactions`, sw.users.alice.token, {
      application_id: internalId(small, sw.applications.EchoBot.id),
      name: "ping",
      type: 1,
    });
    expect((await interactionPayload(small, small.api.flakes.of(r.body.id))).attachment_size_limit).toBe(4096);
    small.core.close();
  });

  test("a file over the limit is refused before a byte is sent", async () => {
    const big = await client(p, "POST", `/channels/${general}/attachments`, alice, {
      files: [{ filename: "big.bin", size: p.config.media.maxFileBytes + 1 }],
    });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
  });

  test("with the bot offline the interaction is dropped and the file stays the person's", async () => {
    p.gateway.hasLiveSession = () => false;
    const slot = await upload(new TextEncoder().encode("kept"), "kept.txt");
    const r = await run([{ name: "file", value: slot }]);
    expect(r.body.delivered).toBe(false);
    expect((await client(p, "DELETE", `/uploads/${slot}`, alice)).status).toBe(204);
  });
});

describe("subcommands", () => {
  test("a subcommand in a group arrives nested: SUB_COMMAND_GROUP > SUB_COMMAND > options", async () => {
    const r = await run([{ name: "group", options: [{ name: "view", options: [{ name: "n", value: 2 }] }] }], "settings");
    expect(r.status).toBe(200);
    const d = (await payload(r.body.id)).data;
    expect(d.options).toEqual([
      { name: "group", type: 2, options: [{ name: "view", type: 1, options: [{ name: "n", type: 4, value: 2 }] }] },
    ]);
    const plain = await run([{ name: "reset", options: [] }], "settings");
    expect((await payload(plain.body.id)).data.options).toEqual([{ name: "reset", type: 1, options: [] }]);
  });
});
