/**
 * People's files (issue 31): the two-step upload, its limits answered before a byte is
 * stored, attachments on messages as people and bots read them, and the files door's
 * answers (signed links, safe headers, ranges, ETags).
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, client, ORIGIN, peopleWorld, refusal, rowCounts, session } from "../helpers";
import { png } from "../support/png";
import type { Parley } from "../../src/app";

let p: Parley;
let w: ReturnType<typeof peopleWorld>;

beforeEach(() => {
  w = peopleWorld();
  p = w.p;
});

// Each app keeps its files in a temporary directory, removed when it closes.
afterEach(() => p.core.close());

/** PUT raw bytes to an upload slot, as the web client does. */
function put(id: string, token: string, bytes: Uint8Array | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  const init: RequestInit & { duplex?: string } = {
    method: "PUT",
    headers: { ...session(token), "Content-Type": "application/octet-stream", ...headers },
    body: bytes as BodyInit,
  };
  if (bytes instanceof ReadableStream) init.duplex = "half";
  return p.handle(new Request(`${ORIGIN}/api/client/v1/uploads/${id}`, init));
}

async function slot(token: string, filename: string, size: number, channel = w.general) {
  const r = await client(p, "POST", `/channels/${channel}/attachments`, token, { files: [{ filename, size }] });
  expect(r.status).toBe(200);
  return r.body[0] as { id: string; upload_url: string };
}

async function sendFile(bytes: Uint8Array, filename: string, extra: Record<string, unknown> = {}) {
  const s = await slot(w.alice, filename, bytes.byteLength);
  expect((await put(s.id, w.alice, bytes)).status).toBe(200);
  const m = await client(p, "POST", `/channels/${w.general}/messages`, w.alice, { attachments: [{ upload_id: s.id, ...extra }] });
  expect(m.status).toBe(200);
  return m.body;
}

function get(path: string, headers: Record<string, string> = {}, method = "GET") {
  return p.handle(new Request(path.startsWith("http") ? path : `${ORIGIN}${path}`, { method, headers }));
}

describe("uploading", () => {
  test("a file sent alone makes a message whose attachment serves the same bytes, with safe headers", async () => {
    const bytes = png(3, 2);
    const m = await sendFile(bytes, "pic.png", { description: "a tiny picture" });
    expect(m.content).toBe("");
    const [a] = m.attachments;
    expect(a).toMatchObject({
      filename: "pic.png",
      size: bytes.byteLength,
      content_type: "image/png",
      width: 3,
      height: 2,
      description: "a tiny picture",
      inline: true,
      spoiler: false,
    });
    const res = await get(a.url);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-disposition")).toStartWith("inline");
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]{64}"$/);
  });

  test("an HTML file is a download whose type comes from its bytes, never text/html", async () => {
    const html = new TextEncoder().encode("<!doctype html><script>alert(1)</script>");
    const m = await sendFile(html, "page.html");
    const res = await get(m.attachments[0].url);
    expect(res.headers.get("content-type")).not.toContain("html");
    expect(res.headers.get("content-disposition")).toStartWith('attachment; filename="page.html"');
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("filenames are cleaned of path separators and bidi overrides", async () => {
    const s = await slot(w.alice, "../../etc/\u202Egnp.exe", 1);
    expect((await client(p, "DELETE", `/uploads/${s.id}`, w.alice)).status).toBe(204);
    const r = await client(p, "POST", `/channels/${w.general}/attachments`, w.alice, {
      files: [{ filename: "../a\u202E/b.txt", size: 1 }],
    });
    expect(r.body[0].filename).not.toMatch(/[/\\\u202E]/);
  });

  test("a size past the file limit is 413 before any slot; too many files is 400", async () => {
    const max = p.config.media.maxFileBytes;
    expect(
      refusal(await client(p, "POST", `/channels/${w.general}/attachments`, w.alice, { files: [{ filename: "big", size: max + 1 }] })),
    ).toEqual([413, 40005]);
    const many = Array.from({ length: 11 }, (_, i) => ({ filename: `f${i}`, size: 1 }));
    expect(refusal(await client(p, "POST", `/channels/${w.general}/attachments`, w.alice, { files: many }))).toEqual([400, 50035]);
    expect(rowCounts(p, ["uploads"])).toEqual({ uploads: 0 });
  });

  test("a Content-Length past the slot is 413 before the body is read, and nothing is stored", async () => {
    const s = await slot(w.alice, "a.bin", 4);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>(
      { pull: (c) => void (pulled++, c.enqueue(new Uint8Array(8)), c.close()) },
      { highWaterMark: 0 },
    );
    const res = await put(s.id, w.alice, body, { "Content-Length": "8" });
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe(40005);
    expect(pulled).toBe(0);
    expect(rowCounts(p, ["media_blobs"])).toEqual({ media_blobs: 0 });
  });

  test("a length past the largest file is refused at the door, the connection closed", async () => {
    const s = await slot(w.alice, "a.bin", 4);
    const res = await put(s.id, w.alice, new Uint8Array(1), { "Content-Length": String(p.config.media.maxFileBytes + 1) });
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
  });

  test("a body without a length is cut while streaming at the slot's size: 413, nothing stored, the slot still empty", async () => {
    const s = await slot(w.alice, "a.bin", 10);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array(6));
        c.enqueue(new Uint8Array(6));
        c.close();
      },
    });
    const res = await put(s.id, w.alice, body);
    expect(res.status).toBe(413);
    expect(rowCounts(p, ["media_blobs"])).toEqual({ media_blobs: 0 });
    expect((await put(s.id, w.alice, new Uint8Array(10))).status).toBe(200);
  });

  test("another person's slot, an unknown one and a second body are refused; a bad id is 404, never 500", async () => {
    const s = await slot(w.alice, "a.bin", 1);
    expect((await put(s.id, w.bob, new Uint8Array(1))).status).toBe(404);
    expect((await put("not-an-id", w.alice, new Uint8Array(1))).status).toBe(404);
    expect((await put(s.id, w.alice, new Uint8Array(1))).status).toBe(200);
    const again = await put(s.id, w.alice, new Uint8Array(1));
    expect(again.status).toBe(400);
    const bobSends = await client(p, "POST", `/channels/${w.general}/messages`, w.bob, { attachments: [{ upload_id: s.id }] });
    expect(refusal(bobSends)).toEqual([400, 50035]);
  });

  test("an upload from another site is refused", async () => {
    const s = await slot(w.alice, "a.bin", 1);
    expect((await put(s.id, w.alice, new Uint8Array(1), { Origin: "https://evil.example" })).status).toBe(403);
  });
});

describe("serving", () => {
  test("a tampered or expired signature is 404; a foreign channel in the path too", async () => {
    const m = await sendFile(new TextEncoder().encode("hello"), "a.txt");
    const url = new URL(m.attachments[0].url, ORIGIN);
    const hm = url.searchParams.get("hm")!;
    url.searchParams.set("hm", (hm[0] === "0" ? "1" : "0") + hm.slice(1));
    expect((await get(url.href)).status).toBe(404);
    expect((await get(m.attachments[0].url.replace(w.general, w.staff))).status).toBe(404);
    expect((await get(m.attachments[0].url.split("?")[0])).status).toBe(404);
    expect((await get(m.attachments[0].url)).status).toBe(200);
    p.clock.advance(p.config.media.urlTtlMs + 2 * 3600_000);
    expect((await get(m.attachments[0].url)).status).toBe(404);
  });

  test("one range is 206, an unsatisfiable one 416, a matching ETag 304", async () => {
    const m = await sendFile(new TextEncoder().encode("0123456789"), "digits.txt");
    const url = m.attachments[0].url;
    const part = await get(url, { Range: "bytes=2-5" });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe("2345");
    expect(part.headers.get("content-range")).toBe("bytes 2-5/10");
    const tail = await get(url, { Range: "bytes=-3" });
    expect(await tail.text()).toBe("789");
    const bad = await get(url, { Range: "bytes=20-" });
    expect(bad.status).toBe(416);
    expect(bad.headers.get("content-range")).toBe("bytes */10");
    const etag = (await get(url)).headers.get("etag")!;
    expect((await get(url, { "If-None-Match": etag })).status).toBe(304);
  });

  test("the default avatars are served; an unknown file path is 404", async () => {
    const res = await get("/embed/avatars/3.png");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect((await get("/embed/avatars/9.png")).status).toBe(404);
    expect((await get("/emojis/nothing.png")).status).toBe(404);
    expect((await get("/avatars/123/abc.png")).status).toBe(404);
  });
});

describe("what bots see", () => {
  test("a person's attachment with MESSAGE_CONTENT: the spec's object, its link fetchable without a header", async () => {
    const bytes = png(4, 4);
    const m = await sendFile(bytes, "pic.png", { description: "grey" });
    const flake = p.api.flakes.of(m.id);
    const ch = p.api.flakes.of(w.general);
    const r = await call(p, "GET", `/channels/${ch}/messages/${flake}`, { token: w.w.applications.EchoBot.token });
    expect(r.status).toBe(200);
    const [a] = r.body.attachments;
    expect(a).toMatchObject({
      filename: "pic.png",
      size: bytes.byteLength,
      content_type: "image/png",
      width: 4,
      height: 4,
      description: "grey",
      ephemeral: false,
    });
    expect(a.id).toMatch(/^\d{17,20}$/);
    expect(a.proxy_url).toBe(a.url);
    expect(a.url).toContain(`/attachments/${ch}/${a.id}/pic.png?ex=`);
    const res = await get(a.url.replace(/^https?:\/\/[^/]+/, ORIGIN));
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  test("bots cannot upload: a message with attachments is 400 50035; an edit keeps only listed ids", async () => {
    const token = w.w.applications.EchoBot.token;
    const ch = p.api.flakes.of(w.general);
    expect(
      refusal(
        await call(p, "POST", `/channels/${ch}/messages`, { token, body: { content: "x", attachments: [{ id: "0", filename: "a.txt" }] } }),
      ),
    ).toEqual([400, 50035]);
    const sent = await call(p, "POST", `/channels/${ch}/messages`, { token, body: { content: "mine" } });
    expect(
      refusal(
        await call(p, "PATCH", `/channels/${ch}/messages/${sent.body.id}`, { token, body: { attachments: [{ filename: "new.txt" }] } }),
      ),
    ).toEqual([400, 50035]);
    expect(
      refusal(
        await call(p, "PATCH", `/channels/${ch}/messages/${sent.body.id}`, {
          token,
          body: { attachments: [{ id: "123456789012345678" }] },
        }),
      ),
    ).toEqual([400, 50035]);
    const ok = await call(p, "PATCH", `/channels/${ch}/messages/${sent.body.id}`, { token, body: { attachments: [] } });
    expect(ok.status).toBe(200);
    expect(ok.body.attachments).toEqual([]);
  });

  test("a person's edit drops the attachments it does not list", async () => {
    const m = await sendFile(new TextEncoder().encode("x"), "x.txt");
    const r = await client(p, "PATCH", `/channels/${w.general}/messages/${m.id}`, w.alice, { content: "now text", attachments: [] });
    expect(r.status).toBe(200);
    expect(r.body.attachments).toBeUndefined();
    expect(rowCounts(p, ["attachments"])).toEqual({ attachments: 0 });
  });
});
