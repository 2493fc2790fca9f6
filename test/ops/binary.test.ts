import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildExecutable } from "../../scripts/build";

const dir = mkdtempSync(join(tmpdir(), "parley-bin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the compiled single executable serves the bot API with nothing beside it but its database", async () => {
  const out = join(dir, "parley");
  expect(buildExecutable(out)).toBeGreaterThan(0); // the build `npm run build` makes (minified, bytecode)
  const proc = Bun.spawn([out, "serve", "--port", "0", "--data", join(dir, "data"), "--demo"], {
    cwd: dir,
    stdout: "pipe",
    stderr: "pipe",
  });
  try {
    const reader = proc.stdout.getReader();
    let text = "";
    while (!/listening on (\S+)/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const base = /listening on (\S+)/.exec(text)![1];
    const token = /bot token\s+(\S+)/.exec(text)![1];
    const me = await fetch(`${base}/api/v10/users/@me`, { headers: { Authorization: `Bot ${token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as any).username).toBe("DemoBot");
    expect(((await (await fetch(`${base}/healthz`)).json()) as any).status).toBe("ok");
    // The web client is embedded, and every page and asset carries the security headers (docs/security.md, finding 9).
    const page = await fetch(`${base}/channels/x`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const assets = [...(await page.text()).matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const a of assets) {
      const res = await fetch(`${base}${a}`);
      expect([a, res.status, res.headers.get("x-content-type-options"), res.headers.get("x-frame-options")]).toEqual([
        a,
        200,
        "nosniff",
        "DENY",
      ]);
      await res.arrayBuffer();
    }
    const missing = await fetch(`${base}/no/such/page`);
    expect([missing.status, missing.headers.get("content-type")]).toEqual([404, "text/html; charset=utf-8"]);
    expect(await missing.text()).toContain('<a href="/">');
    const docs = await fetch(`${base}/api/docs`);
    expect(docs.headers.get("content-security-policy")).toStartWith("sandbox allow-scripts;");
    await docs.arrayBuffer();
    // A person's file through the compiled executable: its hashing worker starts from an inline source (store/media-hash.ts).
    const signedIn = await fetch(`${base}/api/client/v1/auth/signin`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base },
      body: JSON.stringify({ username: "demo", password: "parley-demo" }),
    });
    const people = { Authorization: `Session ${((await signedIn.json()) as any).token}`, Origin: base };
    const general = /channel +#general; id (\S+)/.exec(text)![1];
    const file = crypto.getRandomValues(new Uint8Array(60_000));
    const slots = await fetch(`${base}/api/client/v1/channels/${general}/attachments`, {
      method: "POST",
      headers: { ...people, "Content-Type": "application/json" },
      body: JSON.stringify({ files: [{ filename: "f.bin", size: file.byteLength }] }),
    });
    const [slot] = (await slots.json()) as any[];
    expect((await fetch(`${base}/api/client/v1/uploads/${slot.id}`, { method: "PUT", headers: people, body: file })).status).toBe(200);
    const sent = await fetch(`${base}/api/client/v1/channels/${general}/messages`, {
      method: "POST",
      headers: { ...people, "Content-Type": "application/json" },
      body: JSON.stringify({ attachments: [{ upload_id: slot.id }] }),
    });
    const url = ((await sent.json()) as any).attachments[0].url;
    expect(new Uint8Array(await (await fetch(`${base}${url}`)).arrayBuffer())).toEqual(file);
    // Operator commands work as the compiled `parley ...`, beside the running server.
    const list = Bun.spawnSync([out, "app", "list", "--data", join(dir, "data")], { stdout: "pipe", stderr: "pipe" });
    expect(list.stdout.toString()).toMatch(/\d{17,20}  DemoBot  /);
    expect(Bun.spawnSync([out, "--version"], { stdout: "pipe" }).stdout.toString()).toMatch(/^parley \d+\.\d+\.\d+\n$/);
  } finally {
    proc.kill();
    await proc.exited;
  }
}, 60_000);
