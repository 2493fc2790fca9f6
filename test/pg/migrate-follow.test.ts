/**
 * `parley migrate`'s last line tells the operator how to start the nodes. Followed to the
 * letter (a node on a data directory of its own holding the copy of secret.key, with the
 * flags the line names), that node must serve every file the single node had. Without
 * --media-dir the files stay in the old data directory's media/, and the line used to
 * name only --database: every migrated attachment and emoji was then a 404.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley } from "../../src/app";
import { loadConfig } from "../../src/config";
import { ENGINE_MS, startPostgres, type Postgres } from "../support/engines";
import { BASIC_WORLD, call } from "../helpers";
import { parley, serve } from "../ops/support";
import { png } from "../support/png";

let pg: Postgres;
const dir = mkdtempSync(join(tmpdir(), "parley-pg-follow-"));
const single = join(dir, "single");
const sha = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

beforeAll(async () => {
  pg = await startPostgres();
}, ENGINE_MS);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await pg?.close();
}, ENGINE_MS);

test("a node started as parley migrate's last line says (no --media-dir given) serves the migrated files", async () => {
  const image = png(9, 4, 5);
  const p = createParley(loadConfig({ data: single, quiet: true, "rate-limits": "off" }, {}));
  let token = "";
  let general = "";
  try {
    const w = p.seed(structuredClone(BASIC_WORLD));
    token = w.applications.EchoBot.token;
    general = w.guilds.Lab.channels.general;
    const alice = p.api.flakes.uuid(w.users.alice.id)!;
    const [slot] = p.core.media.openAttachments(alice, p.api.flakes.uuid(general)!, [{ filename: "plan.png", size: image.byteLength }]);
    await p.core.media.receive(alice, slot!.id, image, image.byteLength);
    await p.core.media.flushed(alice, [slot!.id]);
    p.core.messages.send(alice, p.api.flakes.uuid(general)!, { content: "plan", attachments: [{ uploadId: slot!.id, description: null }] });
    expect((await call(p, "GET", `/channels/${general}/messages`, { token })).status).toBe(200);
  } finally {
    await p.stop();
  }

  const url = pg.url(await pg.createDatabase());
  const r = await parley(["migrate", "--data", single, "--database", url], { ms: 60_000 });
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  const said = /start the nodes with (.+), each with a copy of (\S+) in its --data/.exec(r.out);
  expect(said).not.toBeNull();
  // The line hides the password; this Postgres has none, so the URL it names is the one given.
  const flags = said![1]!.split(" ");
  const key = said![2]!;

  const nodeData = join(dir, "node-a");
  mkdirSync(nodeData);
  copyFileSync(key, join(nodeData, "secret.key"));
  const node = await serve([...flags, "--data", nodeData, "--port", "0", "--log-level", "warn"]);
  try {
    const res = await fetch(`${node.base}/api/v10/channels/${general}/messages`, { headers: { Authorization: `Bot ${token}` } });
    expect(res.status).toBe(200);
    const file = ((await res.json()) as any[]).find((m) => m.content === "plan").attachments[0];
    const got = await fetch(file.url.replace(/^https?:\/\/[^/]+/, node.base));
    expect(got.status).toBe(200);
    expect(sha(new Uint8Array(await got.arrayBuffer()))).toBe(sha(image));
  } finally {
    await node.stop();
  }
}, 60_000);
