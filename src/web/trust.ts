/**
 * This browser's record of the devices it pinned (src/e2e/trust.ts) for the person signed
 * in, kept in IndexedDB beside the device's own keys, so a reload or a server that
 * changes its story later is judged against what was first seen. One copy in memory per
 * page: every change is made to it at once and written behind. (Two tabs of one profile
 * each keep their own copy and the last to write wins: at worst a device is announced
 * again.)
 */
import { signal } from "@preact/signals";
import { acknowledge, emptyTrust, reconcile, type Listed, type SelfDevice, type TrustRecord } from "../e2e";
import { keyStore } from "./device";

/** The record of the person signed in, once read. */
export const trust = signal<TrustRecord>(emptyTrust());

let loaded: { userId: string; ready: Promise<void> } | null = null;
let writing: Promise<unknown> = Promise.resolve();

const storeKey = (userId: string) => `${userId}:trust`;

/** Read the person's record once per page (and again after another person signs in). */
export function loadTrust(userId: string): Promise<void> {
  if (loaded?.userId === userId) return loaded.ready;
  const ready = keyStore
    .get<TrustRecord>(storeKey(userId))
    .catch(() => undefined)
    .then((r) => {
      if (loaded?.userId === userId) trust.value = r?.version === 1 ? r : emptyTrust();
    });
  loaded = { userId, ready };
  trust.value = emptyTrust();
  return ready;
}

function keep(userId: string, r: TrustRecord): void {
  if (loaded?.userId !== userId) return;
  trust.value = r;
  // Written in order; without IndexedDB the record lasts as long as the page (devices are announced again).
  writing = writing.then(() => keyStore.put(storeKey(userId), r)).catch(() => undefined);
}

/** Take in what the server listed for a DM of `people`. */
export async function takeIn(
  userId: string,
  channelId: string,
  people: string[],
  listed: Listed[],
  self: SelfDevice | null,
): Promise<void> {
  await loadTrust(userId);
  keep(userId, reconcile(trust.value, channelId, people, listed, self));
}

/** The person has been told what the DM showed: announced devices are known from now on. */
export function acknowledgeIn(userId: string, channelId: string, people: string[], selfId: string | null): void {
  keep(userId, acknowledge(trust.value, channelId, people, selfId));
}

/** Signing out forgets the copy in memory (the stored record stays, as the device's keys do). */
export function forgetTrust(): void {
  loaded = null;
  trust.value = emptyTrust();
}
