/**
 * A server's emoji, icons and avatars through the bot API and the people's API (issue
 * 31): the reference's routes with data URIs, rights checked in the core, reactions with
 * a server's emoji (the discord.py reaction_roles example's request), and every bad
 * input a clear 4xx that stores nothing.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, client, ORIGIN, refusal, rowCounts } from "../helpers";
import { png } from "../support/png";
import { makeParley } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

const WORLD = {
  users: [{ name: "alice", admin: true }, { name: "bob" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob"],
      roles: [{ name: "Curator", permissions: ["MANAGE_EXPRESSIONS", "MANAGE_GUILD"], members: ["Curator"] }],
      channels: [{ name: "general" }],
    },
  ],
  applications: [
    { name: "Curator", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES", "GUILD_MESSAGE_REACTIONS"], install: ["Lab"] },
    { name: "Plain", owner: "alice", intents: ["GUILDS"], install: ["Lab"] },
  ],
};

let p: Parley;
let w: SeedAnswer;
let curator: string;
let plain: string;
let guild: string;
let channel: string;

const dataUri = (bytes: Uint8Array) => `data:image/png;base64,${Buffer.from(bytes).toString("base64")}`;
const get = (path: string) => p.handle(new Request(path.startsWith("http") ? path : `${ORIGIN}${path}`));

beforeEach(() => {
  p = makeParley();
  w = p.seed(structuredClone(WORLD));
  curator = w.applications.Curator.token;
  plain = w.applications.Plain.token;
  guild = w.guilds.Lab.id;
  channel = w.guilds.Lab.channels.general;
});

// Each app keeps its files in a temporary directory, removed when it closes.
afterEach(() => p.core.close());

describe("bot API emoji routes", () => {
  test("create, list, get, rename and delete; the guild carries them in `emojis`", async () => {
    const made = await call(p, "POST", `/guilds/${guild}/emojis`, {
      token: curator,
      body: { name: "party", image: dataUri(png(2, 2, 7)) },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "party", roles: [], require_colons: true, managed: false, animated: false, available: true });
    expect(made.body.id).toMatch(/^\d{17,20}$/);
    expect(made.body.user.id).toBe(w.applications.Curator.bot_user_id);
    const list = await call(p, "GET", `/guilds/${guild}/emojis`, { token: plain });
    expect(list.body.map((e: { name: string }) => e.name)).toEqual(["party"]);
    expect(list.body[0].user).toBeUndefined();
    const g = await call(p, "GET", `/guilds/${guild}`, { token: plain });
    expect(g.body.emojis.map((e: { id: string }) => e.id)).toEqual([made.body.id]);
    const img = await get(`/emojis/${made.body.id}.png`);
    expect(img.status).toBe(200);
    expect(new Uint8Array(await img.arrayBuffer())).toEqual(png(2, 2, 7));
    const renamed = await call(p, "PATCH", `/guilds/${guild}/emojis/${made.body.id}`, { token: curator, body: { name: "fiesta" } });
    expect(renamed.body.name).toBe("fiesta");
    expect((await call(p, "GET", `/guilds/${guild}/emojis/${made.body.id}`, { token: plain })).body.name).toBe("fiesta");
    expect((await call(p, "DELETE", `/guilds/${guild}/emojis/${made.body.id}`, { token: curator })).status).toBe(204);
    expect(refusal(await call(p, "GET", `/guilds/${guild}/emojis/${made.body.id}`, { token: plain }))).toEqual([404, 10003]);
  });

  test("without MANAGE_EXPRESSIONS: 403, nothing stored", async () => {
    const r = await call(p, "POST", `/guilds/${guild}/emojis`, { token: plain, body: { name: "party", image: dataUri(png()) } });
    // Every missing right is 50001 (the spec's error table), never the reference's 50013.
    expect(refusal(r)).toEqual([403, 50001]);
    expect(rowCounts(p, ["emojis", "media_blobs"])).toEqual({ emojis: 0, media_blobs: 0 });
  });

  test("bad input is a 400 that stores nothing, never a 500", async () => {
    const bad = [
      { name: "x", image: dataUri(png()) },
      { name: "bad name", image: dataUri(png()) },
      { name: "party" },
      { name: "party", image: "data:image/png;base64,!!!" },
      { name: "party", image: "https://example.com/a.png" },
      { name: "party", image: `data:image/png;base64,${Buffer.from("<svg onload=alert(1)>").toString("base64")}` },
      { image: dataUri(png()) },
      [],
    ];
    for (const body of bad) {
      const r = await call(p, "POST", `/guilds/${guild}/emojis`, { token: curator, body });
      expect({ body, status: r.status, code: r.body.code }).toEqual({ body, status: 400, code: 50035 });
    }
    expect(
      refusal(
        await call(p, "POST", `/guilds/${guild}/emojis`, {
          token: curator,
          rawBody: "{not json",
          headers: { "Content-Type": "application/json" },
        }),
      ),
    ).toEqual([400, 50035]);
    expect(rowCounts(p, ["emojis", "media_blobs"])).toEqual({ emojis: 0, media_blobs: 0 });
  });

  test("two emoji may share a name, as on the reference: a bot cloning one into the same server gets a second", async () => {
    const first = await call(p, "POST", `/guilds/${guild}/emojis`, {
      token: curator,
      body: { name: "party", image: dataUri(png(2, 2, 1)) },
    });
    const clone = await call(p, "POST", `/guilds/${guild}/emojis`, {
      token: curator,
      body: { name: "party", image: dataUri(png(2, 2, 1)) },
    });
    expect([first.status, clone.status]).toEqual([201, 201]);
    expect(clone.body.id).not.toBe(first.body.id);
    const list = await call(p, "GET", `/guilds/${guild}/emojis`, { token: plain });
    expect(list.body.map((e: { id: string; name: string }) => [e.id, e.name])).toEqual([
      [first.body.id, "party"],
      [clone.body.id, "party"],
    ]);
    // A reaction names its emoji by id: each of the two is its own.
    const renamed = await call(p, "PATCH", `/guilds/${guild}/emojis/${clone.body.id}`, { token: curator, body: { name: "party" } });
    expect(renamed.status).toBe(200);
  });

  test("an unknown emoji or server is 404", async () => {
    expect(
      refusal(await call(p, "PATCH", `/guilds/${guild}/emojis/123456789012345678`, { token: curator, body: { name: "x_x" } })),
    ).toEqual([404, 10003]);
    expect(refusal(await call(p, "DELETE", `/guilds/${guild}/emojis/nope`, { token: curator }))).toEqual([404, 10003]);
    expect(refusal(await call(p, "GET", `/guilds/123456789012345678/emojis`, { token: curator }))).toEqual([404, 10003]);
  });
});

describe("reactions with a server's emoji", () => {
  test("a bot reacts with name:id of its server's emoji (reaction_roles.py); an unknown one is 400 10014", async () => {
    const e = (await call(p, "POST", `/guilds/${guild}/emojis`, { token: curator, body: { name: "party", image: dataUri(png()) } })).body;
    const m = await call(p, "POST", `/channels/${channel}/messages`, { token: curator, body: { content: "pick a role" } });
    const path = (emoji: string) => `/channels/${channel}/messages/${m.body.id}/reactions/${encodeURIComponent(emoji)}/@me`;
    expect((await call(p, "PUT", path(`party:${e.id}`), { token: curator })).status).toBe(204);
    const read = await call(p, "GET", `/channels/${channel}/messages/${m.body.id}`, { token: curator });
    expect(read.body.reactions[0].emoji).toEqual({ id: e.id, name: "party" });
    p.clock.advance(1000);
    expect(refusal(await call(p, "PUT", path("party:123456789012345678"), { token: curator }))).toEqual([400, 10014]);
    const users = await call(p, "GET", `/channels/${channel}/messages/${m.body.id}/reactions/${encodeURIComponent(`party:${e.id}`)}`, {
      token: curator,
    });
    expect(users.body.map((u: { id: string }) => u.id)).toEqual([w.applications.Curator.bot_user_id]);
  });

  test("a person reacts with a server's emoji by its internal id", async () => {
    const e = (await call(p, "POST", `/guilds/${guild}/emojis`, { token: curator, body: { name: "party", image: dataUri(png()) } })).body;
    const m = await call(p, "POST", `/channels/${channel}/messages`, { token: curator, body: { content: "hi" } });
    const id = p.api.flakes.uuid(e.id)!;
    const ch = p.api.flakes.uuid(channel)!;
    const msg = p.api.flakes.uuid(m.body.id)!;
    const r = await client(p, "PUT", `/channels/${ch}/messages/${msg}/reactions/${encodeURIComponent(`party:${id}`)}`, w.users.bob.token);
    expect(r.status).toBe(204);
    const seen = await client(p, "GET", `/channels/${ch}/messages`, w.users.bob.token);
    expect(seen.body[0].reactions[0].emoji).toBe(`party:${id}`);
  });
});

describe("avatars and icons", () => {
  test("a bot sets its avatar; its user carries the hash, served on the reference's path", async () => {
    const r = await call(p, "PATCH", "/users/@me", { token: curator, body: { avatar: dataUri(png(3, 3)) } });
    expect(r.status).toBe(200);
    expect(r.body.avatar).toMatch(/^[0-9a-f]{32}$/);
    const img = await get(`/avatars/${r.body.id}/${r.body.avatar}.png?size=128`);
    expect(img.status).toBe(200);
    expect(new Uint8Array(await img.arrayBuffer())).toEqual(png(3, 3));
    expect(img.headers.get("cache-control")).toContain("immutable");
    const cleared = await call(p, "PATCH", "/users/@me", { token: curator, body: { avatar: null } });
    expect(cleared.body.avatar).toBeNull();
    expect((await get(`/avatars/${r.body.id}/${r.body.avatar}.png`)).status).toBe(404);
  });

  test("a server's icon needs MANAGE_GUILD; it is audited and served", async () => {
    expect((await call(p, "PATCH", `/guilds/${guild}`, { token: plain, body: { icon: dataUri(png()) } })).status).toBe(403);
    const r = await call(p, "PATCH", `/guilds/${guild}`, { token: curator, body: { icon: dataUri(png(5, 5)) } });
    expect(r.status).toBe(200);
    expect(r.body.icon).toMatch(/^[0-9a-f]{32}$/);
    expect((await get(`/icons/${guild}/${r.body.icon}.png`)).status).toBe(200);
    const [entry] = p.core.audit.list(p.api.flakes.uuid(guild)!, { limit: 5, actionType: 1 });
    expect(JSON.parse(String(entry!.changes))).toEqual([{ key: "icon_hash", new_value: r.body.icon }]);
  });

  test("a person's avatar from an upload slot", async () => {
    const token = w.users.bob.token;
    const bytes = png(6, 6);
    const slot = await client(p, "POST", "/uploads", token, { purpose: "avatar", filename: "me.png", size: bytes.byteLength });
    expect(slot.status).toBe(200);
    const put = await p.handle(
      new Request(`${ORIGIN}${slot.body.upload_url}`, { method: "PUT", headers: { Authorization: `Session ${token}` }, body: bytes }),
    );
    expect(put.status).toBe(200);
    const me = await client(p, "PATCH", "/users/@me", token, { avatar_upload: slot.body.id });
    expect(me.status).toBe(200);
    expect(me.body.avatar).toMatch(/^[0-9a-f]{32}$/);
    expect((await get(`/avatars/${me.body.id}/${me.body.avatar}.png`)).status).toBe(200);
    const bot = await call(p, "GET", `/users/${w.users.bob.id}`, { token: curator });
    expect(bot.body.avatar).toBe(me.body.avatar);
  });

  test("a text file is no avatar: 400, and the avatar is unchanged", async () => {
    const token = w.users.bob.token;
    const slot = await client(p, "POST", "/uploads", token, { purpose: "avatar", filename: "me.png", size: 5 });
    const put = await p.handle(
      new Request(`${ORIGIN}${slot.body.upload_url}`, { method: "PUT", headers: { Authorization: `Session ${token}` }, body: "hello" }),
    );
    expect(put.status).toBe(400);
    expect((await client(p, "PATCH", "/users/@me", token, { avatar_upload: slot.body.id })).status).toBe(400);
    expect((await client(p, "GET", "/users/@me", token)).body.avatar).toBeUndefined();
  });
});

describe("MESSAGE_CONTENT", () => {
  test("a bot without it reads a person's message with no attachments (and no link signed)", async () => {
    const token = w.users.alice.token;
    const ch = p.api.flakes.uuid(channel)!;
    const s = await client(p, "POST", `/channels/${ch}/attachments`, token, { files: [{ filename: "a.txt", size: 2 }] });
    await p.handle(
      new Request(`${ORIGIN}${s.body[0].upload_url}`, { method: "PUT", headers: { Authorization: `Session ${token}` }, body: "hi" }),
    );
    const m = await client(p, "POST", `/channels/${ch}/messages`, token, {
      content: "see file",
      attachments: [{ upload_id: s.body[0].id }],
    });
    const read = await call(p, "GET", `/channels/${channel}/messages/${p.api.flakes.of(m.body.id)}`, { token: plain });
    expect(read.status).toBe(200);
    expect(read.body.content).toBe("");
    expect(read.body.attachments).toEqual([]);
    expect(read.text).not.toContain("/attachments/");
  });
});
