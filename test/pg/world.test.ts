/**
 * A world moved onto a Postgres node: what a single SQLite node exports (`parley export`)
 * is restored into an empty Postgres database (`parley serve --database ... --seed FILE`
 * does the same at start-up) with the same ids, and exported again it is the same
 * document; bots find their messages under the ids they knew.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley } from "../../src/app";
import { testConfig } from "../../src/config";
import { rotateToken } from "../../src/wire/tokens";
import { ENGINE_MS, startPostgres, type Postgres } from "../support/engines";
import { BASIC_WORLD, call, makeParley } from "../helpers";

let pg: Postgres;
const dir = mkdtempSync(join(tmpdir(), "parley-pg-world-"));
beforeAll(async () => {
  pg = await startPostgres();
}, ENGINE_MS);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await pg?.close();
}, ENGINE_MS);

const withoutDate = (doc: any) => ({ ...doc, parley: { ...doc.parley, exported_at: null } });

test("a SQLite node's export restored on Postgres: the same world, the same ids, exported again the same", async () => {
  const lite = makeParley();
  const w = lite.seed(structuredClone(BASIC_WORLD));
  const general = w.guilds.Lab.channels.general;
  const posted: string[] = [];
  for (const content of ["one", "two", "three"])
    posted.push(
      (await call(lite, "POST", `/channels/${general}/messages`, { token: w.applications.EchoBot.token, body: { content } })).body.id,
    );
  const doc = lite.exportWorld();
  await lite.stop();

  const p = createParley(testConfig({ data: dir, dbPath: join(dir, "parley.db"), database: pg.url(await pg.createDatabase()) }));
  try {
    expect(p.store.engine.kind).toBe("postgres");
    const report = p.importWorld(JSON.parse(JSON.stringify(doc)));
    expect(report).toMatchObject({ kind: "restored", people: 3, servers: 1, messages: 3 });
    expect(withoutDate(p.exportWorld())).toEqual(withoutDate(doc));
    // The bot, given a token again, reads its messages under the ids it knew.
    const token = rotateToken(p.core.apps, p.api.flakes, p.api.flakes.uuid(w.applications.EchoBot.id)!);
    const history = await call(p, "GET", `/channels/${general}/messages`, { token });
    expect(history.status).toBe(200);
    expect(history.body.map((m: any) => m.id)).toEqual([...posted].reverse());
  } finally {
    await p.stop();
  }
}, 60_000);

test("a Postgres node's export restored on SQLite: the same world, the same ids, exported again the same", async () => {
  const p = createParley(testConfig({ data: dir, dbPath: join(dir, "parley.db"), database: pg.url(await pg.createDatabase()) }));
  let doc;
  let w;
  const posted: string[] = [];
  try {
    expect(p.store.engine.kind).toBe("postgres");
    w = p.seed(structuredClone(BASIC_WORLD));
    const general = w.guilds.Lab.channels.general;
    for (const content of ["uno", "dos"])
      posted.push(
        (await call(p, "POST", `/channels/${general}/messages`, { token: w.applications.EchoBot.token, body: { content } })).body.id,
      );
    doc = p.exportWorld();
  } finally {
    await p.stop();
  }
  const lite = makeParley();
  try {
    expect(lite.store.engine.kind).toBe("sqlite");
    expect(lite.importWorld(JSON.parse(JSON.stringify(doc)))).toMatchObject({ kind: "restored", people: 3, servers: 1, messages: 2 });
    expect(withoutDate(lite.exportWorld())).toEqual(withoutDate(doc));
    const token = rotateToken(lite.core.apps, lite.api.flakes, lite.api.flakes.uuid(w.applications.EchoBot.id)!);
    const history = await call(lite, "GET", `/channels/${w.guilds.Lab.channels.general}/messages`, { token });
    expect(history.body.map((m: any) => m.id)).toEqual([...posted].reverse());
  } finally {
    await lite.stop();
  }
}, 60_000);
