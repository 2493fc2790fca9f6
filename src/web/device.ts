/**
 * This browser profile's device for end-to-end encrypted DMs: key pairs made here with
 * WebCrypto, the private halves non-extractable and kept in IndexedDB (per person signed
 * in), the public halves registered with the people's API. Nothing secret ever leaves
 * the browser. If the server no longer lists the device (removed, or a fresh server),
 * the browser makes a new one; older messages then read "Encrypted before this device
 * was added".
 */
import { effect, signal } from "@preact/signals";
import { generateDeviceKeys, publicKeysOf, type DeviceKeys, type OwnDevice } from "../e2e";
import { api } from "./api";
import { me, showNotice } from "./state";
import type { DeviceJson } from "./types";

export type DeviceState =
  | { state: "none" }
  | { state: "setting-up" }
  | { state: "ready"; own: OwnDevice }
  | { state: "failed"; error: string };

export const device = signal<DeviceState>({ state: "none" });

const DB_NAME = "parley-e2e";
const STORE = "devices";

interface Stored {
  id: string;
  created_at: number;
  keys: DeviceKeys;
}

function idb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const r = indexedDB.open(DB_NAME, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(STORE);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

async function request<T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest): Promise<T> {
  const db = await idb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const r = fn(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(r.result as T);
      tx.onerror = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/** This profile's key store (IndexedDB). CryptoKeys are stored as they are (structured clone): still non-extractable when read back. */
export const keyStore = {
  get: <T>(key: string) => request<T | undefined>("readonly", (s) => s.get(key)),
  put: (key: string, value: unknown) => request<unknown>("readwrite", (s) => s.put(value, key)),
};
const load = (userId: string) => keyStore.get<Stored>(userId);
const save = (userId: string, d: Stored) => keyStore.put(userId, d);

/** A name that tells the person's devices apart in the list, and nothing more. */
function deviceName(): string {
  const ua = navigator.userAgent;
  const browser = /Firefox\//.test(ua)
    ? "Firefox"
    : /Edg\//.test(ua)
      ? "Edge"
      : /Chrom(e|ium)\//.test(ua)
        ? "Chromium"
        : /Safari\//.test(ua)
          ? "Safari"
          : "Browser";
  const os = /Windows/.test(ua)
    ? "Windows"
    : /Android/.test(ua)
      ? "Android"
      : /iPhone|iPad/.test(ua)
        ? "iOS"
        : /Mac OS X/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : "";
  return os ? `${browser} on ${os}` : browser;
}

async function setUp(userId: string): Promise<OwnDevice> {
  const [stored, listed] = await Promise.all([load(userId).catch(() => undefined), api<DeviceJson[]>("GET", "/users/@me/devices")]);
  if (stored && listed.some((d) => d.id === stored.id)) {
    // This session holds the device now (the one that registered it may have signed out),
    // so removing the device signs this browser out. Best effort: the keys work without it.
    await api("PUT", `/users/@me/devices/${stored.id}/session`).catch(() => undefined);
    return stored;
  }
  const keys = await generateDeviceKeys();
  const d = await api<DeviceJson>("POST", "/users/@me/devices", { name: deviceName(), keys: await publicKeysOf(keys) });
  const own: Stored = { id: d.id, created_at: Date.parse(d.created_at), keys };
  // Without IndexedDB (some private windows) the keys last as long as the page.
  await save(userId, own).catch(() => undefined);
  return own;
}

let pending: { userId: string; ready: Promise<OwnDevice> } | null = null;
/** The person whose device was removed while this page was open: no new one until a reload. */
let retired: string | null = null;
const RETIRED = "This browser's device was removed from your account. Reload the page to set up a new one.";

/** This profile's device for the person signed in, set up once. */
export function ensureDevice(userId: string): Promise<OwnDevice> {
  if (pending?.userId === userId) return pending.ready;
  if (retired === userId) return Promise.reject(new Error(RETIRED));
  device.value = { state: "setting-up" };
  const ready = setUp(userId);
  pending = { userId, ready };
  ready.then(
    (own) => {
      if (pending?.ready === ready) device.value = { state: "ready", own };
    },
    (e) => {
      if (pending?.ready !== ready) return;
      pending = null;
      device.value = { state: "failed", error: e instanceof Error ? e.message : String(e) };
    },
  );
  return ready;
}

/** The device, once set up; rejects when it could not be. */
export function deviceReady(): Promise<OwnDevice> {
  const u = me.value;
  if (!u) return Promise.reject(new Error("not signed in"));
  return ensureDevice(u.id);
}

/**
 * This device was removed (from another of the person's devices, say because it was
 * lost): it stops, rather than quietly registering new keys, which would undo the removal.
 */
export function deviceRemoved(id: string): void {
  const d = device.value;
  if (d.state !== "ready" || d.own.id !== id) return;
  retireDevice(RETIRED);
  showNotice(RETIRED);
}

/** This browser's device was removed and its session ended with it (the live connection said so): it stops as above, `why` saying so. */
export function retireDevice(why: string): void {
  if (!me.value) return;
  retired = me.value.id;
  pending = null;
  device.value = { state: "failed", error: why };
}

/** Set up the device whenever someone is signed in; forget it (not its keys) on sign-out. */
export function watchDevice(): void {
  effect(() => {
    const u = me.value;
    if (u) void ensureDevice(u.id).catch(() => undefined);
    else {
      pending = null;
      retired = null;
      device.value = { state: "none" };
    }
  });
}
