/**
 * `parley migrate`: a single node's data directory (its SQLite database and its files)
 * into a Postgres database, for a node, or several, to run on (docs/scaling.md). Part of
 * the composition root because it holds two stores at once: the source opened as its
 * server would (its lock held, so no server writes beside it; its schema brought up to
 * date), and the target as a node would open it (migrated under the advisory lock).
 *
 * The files go first, each checked against its hash and placed as an upload would be;
 * then the rows (store/pg/copy.ts), batch by batch; then the search index is built on
 * Postgres; then both worlds are exported and compared, and every table's rows counted
 * on both sides. Nothing is written to the source.
 */
import { resolve } from "node:path";
import { createParley, recordKey, storeCopy, type Parley } from "./app";
import { mediaRoot, redactUrl, type Config } from "./config";

type StoreCopy = ReturnType<typeof storeCopy>;

/** A refusal the CLI prints as one line (cli/errors.ts knows the code). */
const refused = (message: string) => Object.assign(new Error(message), { code: "PARLEY_PG_REFUSED" });

export interface MigrateOptions {
  /** The data directory's configuration (its --data; its media directory is the source's files). */
  source: Config;
  /** Postgres URL. */
  database: string;
  /** Where the nodes will keep files; null: the source's own media directory, shared as it is. */
  mediaDir: string | null;
  /** Empty a target that holds rows already, instead of refusing it. */
  replace: boolean;
  /** Progress lines. */
  say: (line: string) => void;
}

export interface MigrateReport {
  tables: number;
  rows: number;
  files: number;
  bytes: number;
  users: number;
  servers: number;
  messages: number;
}

/** Copy, index, compare. Throws PARLEY_PG_REFUSED errors (one line each) for what the operator must change. */
export async function migrateToPostgres(o: MigrateOptions): Promise<MigrateReport> {
  const source = createParley({ ...o.source, database: null }, { exclusive: true });
  let target: Parley | null = null;
  try {
    const from = mediaRoot(o.source);
    const mediaDir = o.mediaDir ? resolve(o.mediaDir) : from;
    target = createParley({ ...o.source, database: o.database, mediaDir }, { keyUnchecked: true });
    const copier = storeCopy(source, target);
    const occupied = copier.occupied();
    if (occupied.length && !o.replace)
      throw refused(
        `the database already holds data (${occupied.slice(0, 3).join(", ")}${occupied.length > 3 ? ", ..." : ""}): migrate into an empty database, or add --replace to empty this one first`,
      );
    if (occupied.length) {
      o.say(`emptying ${redactUrl(o.database)} (--replace)`);
      target.store.wipe();
    }
    const files = await copyFiles(source, target, mediaDir !== from);
    o.say(`files: ${files.files} (${files.bytes} bytes)${mediaDir !== from ? ` copied to ${mediaDir}` : ` left in ${mediaDir}`}`);
    let shown = "";
    const copied = copier.copy({
      progress: (table, rows) => {
        if (rows % 10_000 === 0 && `${table}:${rows}` !== shown) o.say(`${table}: ${(((shown = `${table}:${rows}`)), rows)} rows`);
      },
    });
    copier.queueSearchIndex();
    while (target.core.search.backfillStep());
    const checked = verify(source, target, copier);
    // The nodes must hold this data directory's key: one that does not is refused from its first start.
    recordKey(target, o.source.dbPath);
    return { ...checked, files: files.files, bytes: files.bytes, tables: copier.tables.length, rows: copied.rows };
  } finally {
    await target?.stop();
    await source.stop();
  }
}

/** Every file the source's rows name, into the target's media directory (unless it is the same one). */
async function copyFiles(source: Parley, target: Parley, copy: boolean): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const { sha256, size } of source.core.mediaCollector.blobs()) {
    const blob = source.core.media.open(sha256);
    if (!blob)
      throw refused(`the file ${sha256} the database names is missing from ${mediaRoot(source.config)}: restore it from a backup first`);
    if (copy) await target.core.mediaCollector.restoreFile(blob.stream(), sha256);
    files++;
    bytes += Number(size);
  }
  return { files, bytes };
}

/** Both worlds exported and compared, and every copied table's rows counted on both sides. */
function verify(source: Parley, target: Parley, copier: StoreCopy): Pick<MigrateReport, "users" | "servers" | "messages"> {
  const a = source.exportWorld();
  const b = target.exportWorld();
  a.parley.exported_at = b.parley.exported_at = undefined;
  if (JSON.stringify(a) !== JSON.stringify(b))
    throw refused(`the worlds differ after the copy (${firstDifference(a, b)}): do not start a node on it`);
  for (const t of copier.tables) {
    const [n, m] = copier.counts(t);
    if (n !== m) throw refused(`the table ${t} holds ${n} rows in SQLite but ${m} in Postgres after the copy: do not start a node on it`);
  }
  const messages = a.guilds.reduce((n, g) => n + g.channels.reduce((k, c) => k + (c.messages?.length ?? 0), 0), 0);
  return { users: a.users.length, servers: a.guilds.length, messages };
}

/** Where two documents first part: a path such as guilds[0].channels[2].messages[5].content. */
function firstDifference(a: unknown, b: unknown, path = ""): string {
  if (JSON.stringify(a) === JSON.stringify(b)) return "";
  if (a && b && typeof a === "object" && typeof b === "object") {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference((a as never)[k], (b as never)[k], Array.isArray(a) ? `${path}[${k}]` : path ? `${path}.${k}` : k);
      if (d) return d;
    }
  }
  return path || "the whole document";
}
