/**
 * Nodes on one Postgres database must hold one `secret.key` (docs/operations.md, "Several
 * nodes"): it signs the links to files and seals webhook tokens. A node started on a data
 * directory without the copy used to make a key of its own and serve: behind a balancer,
 * every file link it signed was a 404 on the other nodes, and theirs on it. The database
 * now keeps a fingerprint of the key its first node used, and a node or an operator's
 * command holding another key is refused at start, in one line, saying which file to copy.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley } from "../../src/app";
import { loadConfig } from "../../src/config";
import { ENGINE_MS, startPostgres, type Postgres } from "../support/engines";
import { oneLine, parley, serve } from "../ops/support";

let pg: Postgres;
const dir = mkdtempSync(join(tmpdir(), "parley-pg-key-"));

beforeAll(async () => {
  pg = await startPostgres();
}, ENGINE_MS);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await pg?.close();
}, ENGINE_MS);

const nodeArgs = (data: string, url: string) => ["--data", data, "--database", url, "--port", "0", "--log-level", "warn"];

test("a second node or a command with another secret.key is refused in one line; with the first node's copy it serves", async () => {
  const url = pg.url(await pg.createDatabase());
  const first = join(dir, "node1");
  const a = await serve(nodeArgs(first, url));
  try {
    expect((await fetch(`${a.base}/readyz`)).status).toBe(200);

    // A second node whose data directory lacks the first one's key: refused, not serving.
    const second = join(dir, "node2");
    mkdirSync(second);
    const refused = await parley(["serve", ...nodeArgs(second, url)], { ms: 30_000 });
    oneLine(refused, /node2\/secret\.key is not the key the other nodes of this database use: copy secret\.key from a node/);

    // An operator's command given a data directory without the key: refused too, before it makes one there.
    const elsewhere = join(dir, "cli");
    mkdirSync(elsewhere);
    oneLine(
      await parley(["user", "list", "--data", elsewhere], { env: { PARLEY_DATABASE: url }, ms: 30_000 }),
      /no secret\.key in '.*cli': on Postgres a command needs a node's key/,
    );
    expect(existsSync(join(elsewhere, "secret.key"))).toBe(false);
    // ... and given another key: refused by the database's fingerprint.
    writeFileSync(join(elsewhere, "secret.key"), new Uint8Array(32).fill(7));
    oneLine(
      await parley(["user", "list", "--data", elsewhere], { env: { PARLEY_DATABASE: url }, ms: 30_000 }),
      /cli\/secret\.key is not the key/,
    );

    // The documented step, done: the first node's key copied in. It serves beside the first.
    copyFileSync(join(first, "secret.key"), join(second, "secret.key"));
    const b = await serve(nodeArgs(second, url));
    try {
      expect((await fetch(`${b.base}/readyz`)).status).toBe(200);
    } finally {
      await b.stop();
    }
    copyFileSync(join(first, "secret.key"), join(elsewhere, "secret.key"));
    const listed = await parley(["user", "list", "--data", elsewhere], { env: { PARLEY_DATABASE: url }, ms: 30_000 });
    expect(listed.err).toBe("");
    expect(listed.code).toBe(0);
    expect(existsSync(join(first, "secret.key"))).toBe(true);
  } finally {
    await a.stop();
  }
}, 60_000);

test("after parley migrate, a node must hold the migrated data directory's key from its first start", async () => {
  const single = join(dir, "single");
  const p = createParley(loadConfig({ data: single, quiet: true }, {}));
  await p.stop();
  const url = pg.url(await pg.createDatabase());
  const migrated = await parley(["migrate", "--data", single, "--database", url], { ms: 60_000 });
  expect(migrated.err).toBe("");
  expect(migrated.code).toBe(0);
  const fresh = join(dir, "fresh-node");
  mkdirSync(fresh);
  oneLine(await parley(["serve", ...nodeArgs(fresh, url)], { ms: 30_000 }), /fresh-node\/secret\.key is not the key/);
  copyFileSync(join(single, "secret.key"), join(fresh, "secret.key"));
  const node = await serve(nodeArgs(fresh, url));
  try {
    expect((await fetch(`${node.base}/readyz`)).status).toBe(200);
  } finally {
    await node.stop();
  }
}, 60_000);
