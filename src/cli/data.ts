/**
 * Backup and portability: `parley backup FILE` (a consistent copy of the live database),
 * `parley export FILE` (the world as JSON: no tokens, no passwords) and `parley import
 * FILE` (an export, or a seed document, into an empty database). The logic lives in the
 * store, the core (core/world.ts) and the world document (src/world); these only
 * call it and say what happened.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { CliError } from "./errors";
import { DATA_FLAG, type Command } from "./operator";

function target(file: string | undefined, force: boolean): string {
  if (!file) throw new CliError("name the file to write", 2);
  const path = resolve(file);
  if (existsSync(path) && !force) throw new CliError(`${path} exists: pick a new name, or add --force to replace it`, 2);
  return path;
}

const FORCE = { name: "force", kind: "bool" as const, help: "replace FILE if it exists" };

export const DATA_COMMANDS: Command[] = [
  {
    name: "backup",
    usage: "parley backup FILE [--force]",
    summary: "copy the database, consistently, while the server runs",
    flags: [DATA_FLAG, FORCE],
    database: "existing",
    run(p, [file], f, out) {
      const path = target(file, f.force === true);
      // VACUUM INTO refuses an existing file: write beside it, then move it into place.
      const partial = `${path}.partial`;
      rmSync(partial, { force: true });
      try {
        p.backup(partial);
        renameSync(partial, path);
      } catch (e) {
        rmSync(partial, { force: true });
        throw new CliError(`cannot write the backup to ${path}: ${(e as Error).message}`);
      }
      out(`backup written to ${path} (restore: stop the server, put it in place as parley.db in the data directory, start)`);
    },
  },
  {
    name: "export",
    usage: "parley export FILE [--force]",
    summary: "write the world as JSON (no tokens, no passwords)",
    flags: [DATA_FLAG, FORCE],
    database: "existing",
    run(p, [file], f, out) {
      const path = target(file, f.force === true);
      const doc = p.exportWorld();
      writeFileSync(path, JSON.stringify(doc, null, 1) + "\n");
      const messages = doc.guilds.reduce((n, g) => n + g.channels.reduce((k, c) => k + (c.messages?.length ?? 0), 0), 0);
      out(`exported ${doc.users.length} users, ${doc.guilds.length} servers, ${doc.applications.length} applications, ${messages} messages to ${path}`);
    },
  },
  {
    name: "import",
    usage: "parley import FILE",
    summary: "read an exported world (or a seed document) into an empty database",
    flags: [DATA_FLAG],
    database: "create",
    run(p, [file], _f, out) {
      if (!file) throw new CliError("name the file to read", 2);
      let doc: unknown;
      try {
        doc = JSON.parse(readFileSync(file, "utf8"));
      } catch {
        throw new CliError(`cannot read JSON from '${file}'`, 2);
      }
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
      if (r.needPassword.length) out(`people without a password: ${r.needPassword.join(", ")} ('parley user password <name> --password ...')`);
    },
  },
];
