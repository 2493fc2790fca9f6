/**
 * Start-up and command failures as one line each: what is wrong and what to do, never a
 * stack trace. Errors are recognised by their codes (Node's fs and listen errors, SQLite's
 * result codes, Parley's own), so nothing here reaches into the store.
 */
import { redactUrl, type Config } from "../config";
import type { DomainError } from "../core";

/** A failure the operator can act on: printed as `parley: <message>`, exit code `code`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code = 1,
  ) {
    super(message);
  }
}

function codeOf(e: unknown): string {
  const c = (e as { code?: unknown })?.code;
  return typeof c === "string" ? c : "";
}

const MISSING = ["ENOENT", "ENOTDIR"];
const NOT_WRITABLE = ["EACCES", "EPERM", "EROFS", "SQLITE_PERM"];
/** SQLite's extended codes say more (SQLITE_READONLY_DIRECTORY, SQLITE_CANTOPEN_ISDIR, ...): the family is what counts. */
const NOT_WRITABLE_FAMILIES = ["SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_IOERR"];
const DAMAGED = ["SQLITE_NOTADB", "SQLITE_CORRUPT"];
const FULL = ["ENOSPC", "SQLITE_FULL"];

/** A core refusal as one line: its first field's path and sentence, or its message. */
export function refusalLine(e: DomainError): string {
  return e.issues[0] ? `${e.issues[0].path}: ${e.issues[0].message}` : e.message;
}

/** Opening the data directory and its database. */
export function databaseFailure(e: unknown, config: Pick<Config, "data" | "dbPath"> & Partial<Pick<Config, "database">>): CliError | null {
  const code = codeOf(e);
  const dir = config.data;
  if (config.database) {
    const where = `Postgres (${redactUrl(config.database)})`;
    if (code === "PARLEY_NEWER_SCHEMA")
      return new CliError(`${where} was migrated by a newer Parley (${(e as Error).message}): run that version`);
    if (code === "PARLEY_STORE_UNAVAILABLE" || code === "PARLEY_STORE_TIMEOUT")
      return new CliError(
        `${where}: cannot connect (${(e as Error).message}): is Postgres running there, and does --database (or PARLEY_DATABASE) name it right?`,
      );
    // Refused sign-in, no such database, not Parley's, commits that may be lost.
    if (code.startsWith("PARLEY_STORE_") || code === "PARLEY_PG_REFUSED") return new CliError(`${where}: ${(e as Error).message}`);
  }
  if (code === "PARLEY_DATA_IN_USE") {
    const pid = (e as { holder?: { pid?: number } | null }).holder?.pid;
    return new CliError(
      `the data directory '${dir}' is in use by another Parley${pid ? ` (pid ${pid})` : ""}: stop that one first, or give this one another --data`,
    );
  }
  if (code === "PARLEY_NEWER_SCHEMA")
    return new CliError(
      `${config.dbPath} was written by a newer Parley (${(e as Error).message}): run that version, or restore a backup taken before the upgrade`,
    );
  if (MISSING.includes(code))
    return new CliError(
      `the data directory '${dir}' cannot be created (a parent is missing or is a file): give --data a directory Parley may create`,
    );
  if (code === "EEXIST") return new CliError(`the data directory '${dir}' is a file: give --data a directory`);
  // Before the "not writable" families: SQLITE_IOERR_WRITE can be a full disk too, but SQLite says FULL when it knows.
  if (FULL.includes(code))
    return new CliError(`the disk holding the data directory '${dir}' is full (${code}): free some space there, then try again`);
  if (NOT_WRITABLE.includes(code) || NOT_WRITABLE_FAMILIES.some((f) => code.startsWith(f)))
    return new CliError(
      `the data directory '${dir}' is not writable (${code}): run Parley as the user that owns it and its database, give this user write access to both, or pick another directory with --data`,
    );
  if (code === "PARLEY_SCHEMA_DAMAGED")
    return new CliError(
      `${config.dbPath} is damaged (${(e as Error).message}): restore it from a backup (docs/operations.md), or move it aside to start empty`,
    );
  if (DAMAGED.includes(code))
    return new CliError(
      `${config.dbPath} is not a Parley database or is damaged (${code}): restore it from a backup (docs/operations.md), or move it aside to start empty`,
    );
  if (code.startsWith("SQLITE_BUSY")) return new CliError(`${config.dbPath} is locked by another process: wait for it, or stop it`);
  return null;
}

/** Listening on the configured address. */
export function listenFailure(e: unknown, config: Pick<Config, "host" | "port">): CliError | null {
  const code = codeOf(e);
  const where = `${config.host}:${config.port}`;
  if (code === "EADDRINUSE")
    return new CliError(`port ${config.port} on ${config.host} is already in use: stop the other server, or pick another port with --port`);
  if (code === "EACCES")
    return new CliError(`not allowed to listen on ${where} (ports below 1024 need privileges): pick a port above 1023 with --port`);
  if (["EADDRNOTAVAIL", "EINVAL", "ENOTFOUND", "EAI_NONAME", "EAFNOSUPPORT"].includes(code))
    return new CliError(
      `cannot listen on host '${config.host}' (${code}): it is not an address of this machine; use --host 127.0.0.1, 0.0.0.0 or one of its addresses`,
    );
  return null;
}
