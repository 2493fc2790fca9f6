/**
 * Secrets the server must show again are sealed under a key kept beside the database,
 * not in it (docs/security.md): a tampered or foreign seal opens to nothing, and the key
 * survives a restart, so webhook tokens are still shown after one.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Sealer } from "../../src/core/crypto";
import { serverKey } from "../../src/store/keyfile";
import { createParley } from "../../src/app";
import { testConfig } from "../../src/config";
import { call, seedBasic } from "../helpers";

describe("the server key and sealed secrets", () => {
  test("a seal opens under its key only, and never once tampered with", () => {
    const a = new Sealer(crypto.getRandomValues(new Uint8Array(32)));
    const b = new Sealer(crypto.getRandomValues(new Uint8Array(32)));
    const sealed = a.seal("the token");
    expect(sealed).not.toContain("the token");
    expect(a.open(sealed)).toBe("the token");
    expect(b.open(sealed)).toBeNull();
    // One bit of the body flipped, in its bytes: a character's swap could land on the same
    // value, or on base64's padding bits, and leave the bytes as they were.
    const [v, iv, body] = sealed.split(".");
    for (const at of [0, Math.floor(Buffer.from(body, "base64url").length / 2), Buffer.from(body, "base64url").length - 1]) {
      const bytes = Buffer.from(body, "base64url");
      bytes[at] ^= 1;
      expect(a.open(`${v}.${iv}.${bytes.toString("base64url")}`)).toBeNull();
    }
    expect(a.open("not a seal")).toBeNull();
  });

  test("the key is made once, owner-only, beside the database, and kept across restarts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-key-"));
    try {
      const key = serverKey(join(dir, "parley.db"));
      expect(statSync(join(dir, "secret.key")).mode & 0o777).toBe(0o600);
      expect(serverKey(join(dir, "parley.db"))).toEqual(key);

      const config = testConfig({ data: dir, dbPath: join(dir, "parley.db") });
      let p = createParley(config);
      const w = seedBasic(p);
      p.core.guilds.addMemberRole(
        p.api.flakes.uuid(w.guilds.Lab.id)!,
        p.api.flakes.uuid(w.applications.EchoBot.bot_user_id)!,
        p.api.flakes.uuid(w.guilds.Lab.roles.Mod)!,
      );
      p.core.roles.edit(
        p.api.flakes.uuid(w.guilds.Lab.id)!,
        p.api.flakes.uuid(w.guilds.Lab.roles.Mod)!,
        p.api.flakes.uuid(w.users.alice.id)!,
        { permissions: 16 | 8192 },
        null,
      );
      const token = w.applications.EchoBot.token;
      const made = await call(p, "POST", `/channels/${w.guilds.Lab.channels.general}/webhooks`, { token, body: { name: "Hook" } });
      expect(made.status).toBe(200);
      await p.stop();
      p = createParley(config);
      const seen = await call(p, "GET", `/webhooks/${made.body.id}`, { token });
      expect(seen.body.token).toBe(made.body.token);
      await p.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
