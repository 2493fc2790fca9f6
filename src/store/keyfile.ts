/**
 * The server's secret key: 32 random bytes in `secret.key` beside the database, made on
 * first start, readable by its owner only. The core seals the few secrets it must be able
 * to show again (webhook tokens) under it, so a copy of the database alone does not give
 * them away. An in-memory server gets a key that lives as long as the process.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

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
