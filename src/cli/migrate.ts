/**
 * `parley migrate`: a single node's data directory into a Postgres database (the copy,
 * the index and the check are the composition root's, src/migrate.ts). The server on the
 * data directory must be stopped: the command holds its lock while it reads.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { loadConfig, mediaRoot, redactUrl, type Config } from "../config";
import { migrateToPostgres } from "../migrate";
import { CliError, databaseFailure } from "./errors";
import { DATA_FLAG, type Command, type Flags, type Out } from "./operator";

export const MIGRATE_COMMAND: Command = {
  name: "migrate",
  usage: "parley migrate --database postgres://... [--data DIR] [--media-dir DIR] [--replace]",
  summary: "copy a single node's data directory (database and files) into an empty Postgres database, then check it",
  flags: [
    DATA_FLAG,
    { name: "database", kind: "string", help: "the Postgres database to fill (postgres://user:pass@host:port/db; env PARLEY_DATABASE)" },
    { name: "media-dir", kind: "string", help: "copy the files here, the directory the nodes will share (default: leave them in --data)" },
    { name: "replace", kind: "bool", help: "empty a database that already holds data instead of refusing it" },
  ],
  database: "own",
  run() {
    throw new Error("parley migrate opens its own databases (alone)");
  },
  alone: migrate,
};

async function migrate(args: string[], f: Flags, env: Record<string, string | undefined>, out: Out): Promise<void> {
  if (args.length) throw new CliError(`unexpected argument '${args[0]}'`, 2);
  const given = (name: string) => (typeof f[name] === "string" ? { [name]: f[name] } : {});
  // The source's files are where its server kept them (PARLEY_MEDIA_DIR, or media/ in --data); --media-dir is the target's.
  const config: Config = loadConfig({ ...given("data"), ...given("database"), quiet: true, "log-level": "error" }, env);
  const mediaDir = typeof f["media-dir"] === "string" ? resolve(f["media-dir"]) : null;
  if (!config.database) throw new CliError("name the Postgres database to fill with --database postgres://... (or PARLEY_DATABASE)", 2);
  if (config.data === ":memory:" || !existsSync(config.dbPath))
    throw new CliError(`no database at ${config.dbPath}: point --data (or PARLEY_DATA) at the data directory of the node to move`, 2);
  const where = redactUrl(config.database);
  out(`migrating ${config.data} into ${where}`);
  let r;
  try {
    r = await migrateToPostgres({ source: config, database: config.database, mediaDir, replace: f.replace === true, say: out });
  } catch (e) {
    throw databaseFailure(e, config) ?? e;
  }
  out(`copied ${r.tables} tables, ${r.rows} rows, ${r.files} files (${r.bytes} bytes)`);
  out(
    `checked: both worlds exported the same (users ${r.users}, servers ${r.servers}, messages ${r.messages}), every table's rows counted alike`,
  );
  // Always name where the files are: a node on a data directory of its own looks in its own media/.
  const files = mediaDir ?? resolve(mediaRoot(config) ?? config.data); // never null: :memory: was refused above
  out(`start the nodes with --database ${where} --media-dir ${files}, each with a copy of ${config.data}/secret.key in its --data`);
  if (!mediaDir) out(`the files stayed in ${files}: every node must reach that directory (or migrate again with --media-dir)`);
}
