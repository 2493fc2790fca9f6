/**
 * Key backup in the web client: make one (a device whose private keys go to the server
 * sealed under a passphrase the server never sees), and restore it on a later device so
 * it reads what was sent after the backup was made. Restored keys stay non-extractable
 * in this profile's key store.
 */
import { signal } from "@preact/signals";
import { createBackup, MIN_PASSPHRASE, openBackup, type OwnDevice } from "../e2e";
import { api } from "./api";
import { keyStore } from "./device";
import { me } from "./state";
import { guessProblem } from "./strength";
import type { DeviceJson } from "./types";

/** Key backups this page can open, newest first. */
export const backupKeys = signal<OwnDevice[]>([]);
let loadedFor: string | null = null;

const storeKey = (userId: string) => `${userId}:backups`;

/** The backups this profile restored before (once per person signed in). */
export async function loadBackupKeys(): Promise<OwnDevice[]> {
  const u = me.value;
  if (!u) return [];
  if (loadedFor !== u.id) {
    loadedFor = u.id;
    backupKeys.value = (await keyStore.get<OwnDevice[]>(storeKey(u.id)).catch(() => undefined)) ?? [];
  }
  return backupKeys.value;
}

/**
 * Why a new backup's passphrase is refused, or null. The server keeps the sealed backup
 * and could try guesses offline, so it must be long and as hard to guess as a password
 * must be (strength.ts); only this browser can check, since the server never sees it.
 */
export async function passphraseProblem(passphrase: string, again: string): Promise<string | null> {
  if ([...passphrase].length < MIN_PASSPHRASE)
    return `Use at least ${MIN_PASSPHRASE} characters: the server keeps the backup and could try guesses.`;
  const weak = await guessProblem(passphrase, me.value?.username ?? "");
  if (weak) return weak;
  if (passphrase !== again) return "The two passphrases differ.";
  return null;
}

/** Make a key backup (replacing the current one); clients seal for it from now on. */
export async function makeBackup(passphrase: string): Promise<DeviceJson> {
  const problem = await passphraseProblem(passphrase, passphrase);
  if (problem) throw new Error(problem);
  const b = await createBackup(passphrase);
  return api<DeviceJson>("POST", "/users/@me/devices", { name: "Key backup", keys: b.publicKeys, backup: b.sealed });
}

type SealedBackup = DeviceJson & { sealed: string };

/** Open the person's backups with the passphrase; false when it opens none. */
export async function restoreBackup(passphrase: string): Promise<boolean> {
  const u = me.value;
  if (!u) return false;
  const list = await api<SealedBackup[]>("GET", "/users/@me/key-backups");
  const opened: OwnDevice[] = [];
  for (const b of list) {
    const keys = await openBackup(b.sealed, passphrase, b.keys);
    if (keys) opened.push({ id: b.id, keys, created_at: Date.parse(b.created_at) });
  }
  if (!opened.length) return false;
  const known = (await loadBackupKeys()).filter((k) => !opened.some((o) => o.id === k.id));
  backupKeys.value = [...opened, ...known];
  await keyStore.put(storeKey(u.id), backupKeys.value).catch(() => undefined);
  return true;
}

export function forgetBackupKeys(): void {
  loadedFor = null;
  backupKeys.value = [];
}
