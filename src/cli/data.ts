/**
 * Backup and portability: `parley backup FILE` (a consistent copy of the live database),
 * `parley export FILE` (the world as JSON: no tokens, no passwords) and `parley import
 * FILE` (an export, or a seed document, into an empty database). The logic lives in the
 * store, the core (core/world.ts) and the world document (src/world); these only
 * call it and say what happened.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { mediaRoot, type Config } from "../config";
import { DomainError } from "../core";
import { checkDocument } from "../world";
import { CliError, refusalLine } from "./errors";
import { DATA_FLAG, type Command } from "./operator";

/** The files a server keeps in its data directory (docs/operations.md, "The data directory"). */
const OWN_FILES = ["parley.db", "parley.db-wal", "parley.db-shm", "secret.key", "parley.lock", "serving.json"];

function target(file: string | undefined, force: boolean, config: Pick<Config, "dbPath" | "mediaDir">): string {
  if (!file) throw new CliError("name the file to write", 2);
  const path = resolve(file);
  // --force over the live database (or its key, or its files) would replace it under the
  // running server, whose later writes then go to a file nobody opens again: refuse it.
  // FILE.media is emptied and filled beside FILE: never the server's own files either.
  const media = mediaRoot(config);
  const own = config.dbPath === ":memory:" ? [] : OWN_FILES.map((f) => join(dirname(resolve(config.dbPath)), f));
  if (media !== null) own.push(resolve(media));
  if (own.includes(path) || own.includes(`${path}.media`))
    throw new CliError(`${path} is the server's own data: write the copy outside the data directory's files (e.g. /var/backups)`, 2);
  if (existsSync(path) && !force) throw new CliError(`${path} exists: pick a new name, or add --force to replace it`, 2);
  return path;
}

/** Where a server given --media-dir keeps files: the commands that read or write them must look there too. */
const MEDIA_DIR_FLAG = {
  name: "media-dir",
  kind: "string" as const,
  help: "the server's --media-dir, where its files are (default media/ in --data; env PARLEY_MEDIA_DIR)",
};
const FORCE = { name: "force", kind: "bool" as const, help: "replace FILE if it exists" };

export const DATA_COMMANDS: Command[] = [
  {
    name: "backup",
    usage: "parley backup FILE [--force]",
    summary: "copy the database, consistently, while the server runs",
    flags: [DATA_FLAG, MEDIA_DIR_FLAG, FORCE],
    database: "existing",
    async run(p, [file], f, out) {
      const path = target(file, f.force === true, p.config);
      // VACUUM INTO refuses an existing file: write beside it, then move it into place.
      const partial = `${path}.partial`;
      rmSync(partial, { force: true });
      const media = `${path}.media`;
      try {
        p.backup(partial);
        renameSync(partial, path);
      } catch (e) {
        rmSync(partial, { force: true });
        // The engine's own refusal (Postgres has pg_dump) is no trouble with the file.
        if ((e as { code?: unknown }).code === "PARLEY_PG_REFUSED") throw new CliError((e as Error).message);
        throw new CliError(`cannot write the backup to ${path}: ${(e as Error).message}`);
      }
      // Files' bytes, after the snapshot (core/media-gc.ts says why that order keeps every one it names).
      rmSync(media, { recursive: true, force: true });
      // Made even when empty: the restore moves it into place as media/, files or none.
      mkdirSync(media, { recursive: true });
      const copied = await p.core.mediaCollector.copyAll(media).catch((e: Error) => {
        throw new CliError(`the database was backed up to ${path}, but its files could not be copied to ${media}: ${e.message}`);
      });
      out(
        `backup written to ${path}, its ${copied.files} files (${copied.bytes} bytes) to ${media} (restore: stop the server, put them in place as parley.db and media/ in the data directory, start)`,
      );
    },
  },
  {
    name: "export",
    usage: "parley export FILE [--force]",
    summary: "write the world as JSON (no tokens, no passwords)",
    flags: [DATA_FLAG, MEDIA_DIR_FLAG, FORCE],
    database: "existing",
    async run(p, [file], f, out) {
      const path = target(file, f.force === true, p.config);
      const doc = p.exportWorld();
      // Written beside it, then moved into place: a write cut short (a full disk) leaves
      // the export it would replace (--force) whole, and no truncated JSON to import later.
      const partial = `${path}.partial`;
      try {
        writeFileSync(partial, JSON.stringify(doc, null, 1) + "\n");
        renameSync(partial, path);
      } catch (e) {
        rmSync(partial, { force: true });
        throw new CliError(`cannot write the export to ${path}: ${(e as Error).message}`);
      }
      // The files the world names, beside it (laid out as a data directory's media/).
      const files = doc.files ?? [];
      const media = `${path}.media`;
      rmSync(media, { recursive: true, force: true });
      if (files.length)
        await p.core.mediaCollector
          .copyAll(
            media,
            files.map((x) => x.sha256),
          )
          .catch((e: Error) => {
            throw new CliError(`the world was exported to ${path}, but its files could not be copied to ${media}: ${e.message}`);
          });
      const messages = doc.guilds.reduce((n, g) => n + g.channels.reduce((k, c) => k + (c.messages?.length ?? 0), 0), 0);
      // Counted as the import counts them: people, their bots go with the applications.
      const people = doc.users.filter((u) => !("bot" in u && u.bot)).length;
      out(
        `exported ${people} people, ${doc.guilds.length} servers, ${doc.applications.length} applications, ${messages} messages to ${path}${files.length ? `, ${files.length} files to ${media}` : ""}`,
      );
    },
  },
  {
    name: "import",
    usage: "parley import FILE",
    summary: "read an exported world (or a seed document) into an empty database",
    flags: [DATA_FLAG, MEDIA_DIR_FLAG],
    database: "create",
    before([file]) {
      if (!file) throw new CliError("name the file to read", 2);
      let doc: unknown;
      try {
        doc = JSON.parse(readFileSync(file, "utf8"));
      } catch {
        throw new CliError(`cannot read JSON from '${file}'`, 2);
      }
      // A document that is no world is refused before a data directory is made for it.
      try {
        checkDocument(doc);
      } catch (e) {
        if (!(e instanceof DomainError)) throw e;
        throw new CliError(`${file}: ${refusalLine(e)}`, 2);
      }
      return doc;
    },
    async run(p, [file], _f, out, doc) {
      await restoreFiles(p, file!, doc);
      const r = p.importWorld(doc);
      if (r.kind === "seeded") {
        out(`seeded: ${JSON.stringify(r.answer)}`);
        return;
      }
      out(`imported ${r.people} people, ${r.servers} servers, ${r.messages} messages`);
      if (r.needToken.length) {
        out("applications without a token (tokens are never exported): mint one each with 'parley app rotate <id>':");
        for (const a of r.needToken) out(`  ${a.name}  ${a.id}`);
      }
      if (r.needPassword.length)
        out(`people without a password: ${r.needPassword.join(", ")} ('parley user password <name> --password ...')`);
    },
  },
];

/** An export's files, from FILE.media beside it, each checked against its hash, before its rows name them. */
async function restoreFiles(p: Parameters<Command["run"]>[0], file: string, doc: unknown): Promise<void> {
  const files = (doc as { files?: unknown }).files;
  if (!Array.isArray(files)) return;
  for (const f of files) {
    const sha = String((f as { sha256?: unknown })?.sha256 ?? "");
    if (!/^[0-9a-f]{64}$/.test(sha)) continue; // the document's own check names it
    const path = join(`${resolve(file)}.media`, "blobs", sha.slice(0, 2), sha.slice(2, 4), sha);
    if (!existsSync(path))
      throw new CliError(`${file} names a file its ${file}.media directory does not hold (${sha}): nothing was imported`, 2);
    await p.core.mediaCollector.restoreFile(Bun.file(path).stream(), sha).catch((e: Error) => {
      throw new CliError(`${path}: ${e.message}; nothing was imported`, 2);
    });
  }
}

/** The operator's look at files: what they hold, and the collector run now. */
export const MEDIA_COMMANDS: Command[] = [
  {
    name: "media sweep",
    usage: "parley media sweep",
    summary: "remove files nothing names any more (past the grace period) now, not at the next sweep",
    flags: [DATA_FLAG, MEDIA_DIR_FLAG],
    database: "existing",
    run(p, _a, _f, out) {
      const r = p.core.mediaCollector.sweep();
      out(`expired uploads: ${r.expiredUploads}; files newly unreferenced: ${r.marked}; removed: ${r.removed} (${r.removedBytes} bytes)`);
    },
  },
  {
    name: "media usage",
    usage: "parley media usage",
    summary: "how many files the data directory holds, and their bytes",
    flags: [DATA_FLAG, MEDIA_DIR_FLAG],
    database: "existing",
    async run(p, _a, _f, out) {
      const u = await p.core.mediaCollector.usage();
      out(`${u.files} files, ${u.bytes} bytes`);
    },
  },
];
