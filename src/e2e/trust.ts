/**
 * What a client believes about devices, against a server that may lie about them. The
 * server lists a DM's devices; a client pins each device's keys the first time it sees
 * it (trust on first use) and from then on goes by what it pinned, never by the list:
 *
 * - it seals only for devices pinned to one of the DM's two people, with the pinned keys;
 * - a device listed under anyone else is never used, and the person is told ("outsider");
 * - a device id listed with other keys (or another owner) than it was pinned with keeps
 *   its pinned keys, and the person is told ("changed"): a device's keys never change
 *   (a new key pair is a new device), so only the server can have changed them;
 * - a device that appears for a person already known is pinned and announced until the
 *   person acknowledges it; the first devices seen of a person are taken as they are;
 * - a message opens only with the pinned keys of a device pinned to its author, and the
 *   safety number covers what was pinned.
 *
 * Plain data in, plain data out (the web client keeps the record in IndexedDB beside its
 * own keys); nothing here reaches storage or the network. A removal the server reports is
 * believed, and kept: at worst the server stops a device from receiving, which both
 * people can see in their safety numbers.
 */
import { CURVES } from "./format";
import type { PublicKeys } from "./keys";
import type { DeviceInfo } from "./messages";

/** A device as the server lists it, times in ms since the epoch. */
export interface Listed extends DeviceInfo {
  name: string;
  backup: boolean;
}

/** A device as this client pinned it. */
export interface Pin extends Listed {
  /** Appeared after its person was known, and the person has not acknowledged it yet. */
  announced: boolean;
}

export type Conflict =
  /** The server listed this device id with other keys or another owner than were pinned. */
  | { kind: "changed"; device_id: string; listed: { user_id: string; keys: PublicKeys }; acknowledged: boolean }
  /** The server listed, in this DM, a device of someone who is not one of its two people. */
  | { kind: "outsider"; device_id: string; user_id: string; channel_id: string; acknowledged: boolean };

export interface TrustRecord {
  version: 1;
  /** Pinned devices by id. */
  devices: Record<string, Pin>;
  /** People whose first devices were seen (their later ones are announced). */
  people: string[];
  conflicts: Conflict[];
}

/** This client's own device: its public keys are known first-hand, never from the list. */
export interface SelfDevice {
  id: string;
  user_id: string;
  keys: PublicKeys;
  created_at: number;
}

export function emptyTrust(): TrustRecord {
  return { version: 1, devices: {}, people: [], conflicts: [] };
}

export function sameKeys(a: PublicKeys, b: PublicKeys): boolean {
  return CURVES.every((c) => (a[c] ?? null) === (b[c] ?? null));
}

function recordConflict(r: TrustRecord, c: Conflict): void {
  const key = (x: Conflict) =>
    x.kind === "changed" ? `changed ${x.device_id} ${JSON.stringify(x.listed)}` : `outsider ${x.device_id} ${x.channel_id}`;
  if (!r.conflicts.some((x) => key(x) === key(c))) r.conflicts.push(c);
}

/**
 * Take in what the server lists for the DM `channelId` of `people` (its two people).
 * Returns a new record; the one given is left as it was.
 */
export function reconcile(given: TrustRecord, channelId: string, people: string[], listed: Listed[], self: SelfDevice | null): TrustRecord {
  const r: TrustRecord = structuredClone(given);
  const known = new Set(r.people);
  if (self && !r.devices[self.id]) r.devices[self.id] = { ...self, name: "", removed_at: null, backup: false, announced: false };
  for (const d of listed) {
    if (!people.includes(d.user_id)) {
      recordConflict(r, { kind: "outsider", device_id: d.id, user_id: d.user_id, channel_id: channelId, acknowledged: false });
      continue;
    }
    const pin = r.devices[d.id];
    if (!pin) {
      r.devices[d.id] = { ...d, keys: { x25519: d.keys.x25519 ?? null, p256: d.keys.p256 ?? null }, announced: known.has(d.user_id) };
      continue;
    }
    if (pin.user_id !== d.user_id || !sameKeys(pin.keys, d.keys)) {
      recordConflict(r, { kind: "changed", device_id: d.id, listed: { user_id: d.user_id, keys: d.keys }, acknowledged: false });
      continue;
    }
    if (!pin.name) pin.name = d.name; // this device's own pin, made before its name was listed
    if (d.removed_at !== null && pin.removed_at === null) pin.removed_at = d.removed_at;
  }
  for (const p of people) if (!known.has(p) && Object.values(r.devices).some((d) => d.user_id === p)) r.people.push(p);
  return r;
}

const info = (p: Pin): DeviceInfo => ({ id: p.id, user_id: p.user_id, keys: p.keys, created_at: p.created_at, removed_at: p.removed_at });

/** Every device pinned to one of `people`, removed ones included (their older messages still open), with the pinned keys. */
export function pinnedDevices(r: TrustRecord, people: string[]): DeviceInfo[] {
  return Object.values(r.devices)
    .filter((d) => people.includes(d.user_id))
    .map(info);
}

/** The pinned devices of `people` that are not removed: what the safety number covers and the person is shown. */
export function currentPins(r: TrustRecord, people: string[]): Pin[] {
  return Object.values(r.devices).filter((d) => people.includes(d.user_id) && d.removed_at === null);
}

/**
 * The devices to seal for: current pins of `people` that the server still lists as
 * current (one it stopped listing may be gone), each with its pinned keys.
 */
export function sealTargets(r: TrustRecord, people: string[], listed: Listed[]): DeviceInfo[] {
  const current = new Set(listed.filter((d) => d.removed_at === null).map((d) => d.id));
  return currentPins(r, people)
    .filter((d) => current.has(d.id))
    .map(info);
}

/** What the person should be told of in the DM of `people`: devices announced, and conflicts not yet acknowledged. */
export function noticesFor(
  r: TrustRecord,
  channelId: string,
  people: string[],
  selfId: string | null,
): { announced: Pin[]; conflicts: Conflict[] } {
  return {
    announced: Object.values(r.devices).filter((d) => d.announced && d.id !== selfId && people.includes(d.user_id)),
    conflicts: r.conflicts.filter(
      (c) =>
        !c.acknowledged && (c.kind === "outsider" ? c.channel_id === channelId : people.includes(r.devices[c.device_id]?.user_id ?? "")),
    ),
  };
}

/** The person has been told what `noticesFor` listed: those devices are known from now on, in every DM. */
export function acknowledge(given: TrustRecord, channelId: string, people: string[], selfId: string | null): TrustRecord {
  const r: TrustRecord = structuredClone(given);
  const { announced, conflicts } = noticesFor(r, channelId, people, selfId);
  // Both lists hold the copy's own objects.
  for (const d of announced) d.announced = false;
  for (const c of conflicts) c.acknowledged = true;
  return r;
}
