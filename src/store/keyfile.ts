/**
 * The server's secret key: 32 random bytes in `secret.key` beside the database, made on
 * first start, readable by its owner only. The core seals the few secrets it must be able
 * to show again (webhook tokens) under it, so a copy of the database alone does not give
 * them away. An in-memory server gets a key that lives as long as the process.
 *
 * Nodes sharing one Postgres database must hold the same key (it also signs the links to
 * files): the database keeps a fingerprint of the key its first node held, and a node or
 * command holding another is refused (`agreeOnKey`).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Store } from "./db";

export const KEY_FILE = "secret.key";
const KEY_BYTES = 32;

/** The key kept beside `dbPath` (":memory:" gets a fresh one). */
export function serverKey(dbPath: string): Uint8Array {
  if (dbPath === ":memory:") return crypto.getRandomValues(new Uint8Array(KEY_BYTES));
  const path = join(dirname(dbPath), KEY_FILE);
  if (existsSync(path)) {
    const key = new Uint8Array(readFileSync(path));
    if (key.length !== KEY_BYTES)
      throw new Error(`${path} is not a Parley key (${key.length} bytes, not ${KEY_BYTES}); restore it from the backup it came with`);
    return key;
  }
  mkdirSync(dirname(path), { recursive: true });
  const key = crypto.getRandomValues(new Uint8Array(KEY_BYTES));
  writeFileSync(path, key, { mode: 0o600, flag: "wx" });
  chmodSync(path, 0o600);
  return key;
}

/** Where the fingerprint is kept: a row of instance_settings, whose reader ignores keys it does not know. */
const CHECK_SETTING = "secret_key_check";

/** A one-way fingerprint of the key: the digest of a labelled copy, which reveals nothing of the key. */
function fingerprint(key: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update("parley secret.key check\0").update(key).digest("hex").slice(0, 32);
}

/**
 * On a shared (Postgres) database: record this key's fingerprint if none is, and refuse a
 * key that is not the recorded one. A node that made a key of its own because its data
 * directory lacked the copy would otherwise serve, and the links to files it signed would
 * fail on every other node (and theirs on it).
 */
export function agreeOnKey(store: Store, key: Uint8Array, dbPath: string): void {
  const mine = fingerprint(key);
  const recorded = store.write(() => {
    store.db.query("INSERT INTO instance_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING").run(CHECK_SETTING, mine);
    return (store.db.query("SELECT value FROM instance_settings WHERE key = ?").get(CHECK_SETTING) as { value: string }).value;
  });
  if (recorded === mine) return;
  const dir = dirname(dbPath);
  throw Object.assign(
    new Error(
      `${join(dir, KEY_FILE)} is not the key the other nodes of this database use: copy secret.key from a node that serves it (or from the data directory parley migrate read) into ${dir}, replacing that one`,
    ),
    { code: "PARLEY_PG_REFUSED" },
  );
}
