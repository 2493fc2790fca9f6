/**
 * Direct messages, end to end: the devices of a DM's two people (read from the server,
 * refreshed when one is added or removed), the text of each encrypted message as this
 * device opens it, sending and editing sealed for every current device, and the devices
 * the person has not been told about yet. The scheme itself is src/e2e, shared with the
 * harness; the server only ever sees ciphertext.
 */
import { effect, signal } from "@preact/signals";
import { openMessage, parseEnvelope, sealMessage, type DeviceInfo, type Opened } from "../e2e";
import { api, ApiError } from "./api";
import { device, deviceReady, deviceRemoved } from "./device";
import { backupKeys, forgetBackupKeys, loadBackupKeys } from "./backup";
import { dms, me, showNotice, upsertMessage } from "./state";
import type { Channel, DeviceJson, Message } from "./types";

/** The longest text a DM may carry, as in server channels. */
export const MAX_TEXT = 2000;

/** Devices of each DM's two people (removed ones too: their old messages name them), by channel id. */
export const dmDevices = signal<Record<string, DeviceJson[]>>({});
/** Each encrypted message as this device opened it, by message id and ciphertext. */
export const opened = signal<Record<string, Opened>>({});
/** Devices that appeared since the person last looked, by DM channel id. */
export const unseenDevices = signal<Record<string, DeviceJson[]>>({});

export function deviceInfo(d: DeviceJson): DeviceInfo {
  return { id: d.id, user_id: d.user_id, keys: d.keys, created_at: Date.parse(d.created_at), removed_at: d.removed_at === null ? null : Date.parse(d.removed_at) };
}

export const current = (list: DeviceJson[]) => list.filter((d) => d.removed_at === null);

/** The DM's devices; `fresh` reads them again (before every send, so no new device is missed). */
export async function loadDevices(channelId: string, fresh = false): Promise<DeviceJson[]> {
  const known = dmDevices.value[channelId];
  if (known && !fresh) return known;
  // A page of messages opening at once asks once; a fresh read never joins an older one.
  const joined = fresh ? undefined : reading.get(channelId);
  if (joined) return joined;
  const n = ++started;
  const read = api<DeviceJson[]>("GET", `/channels/${channelId}/devices`).then((list) => {
    // An older read answering late must not replace a newer list.
    if (n >= (applied.get(channelId) ?? 0)) {
      applied.set(channelId, n);
      dmDevices.value = { ...dmDevices.value, [channelId]: list };
      noticeNew(channelId, list);
    }
    return list;
  });
  reading.set(channelId, read);
  const done = () => void (reading.get(channelId) === read && reading.delete(channelId));
  read.then(done, done);
  return read;
}

let started = 0;
const applied = new Map<string, number>();
const reading = new Map<string, Promise<DeviceJson[]>>();

/** Signing out forgets every DM's devices and decrypted text this page held. */
export function forgetDms(): void {
  forgetBackupKeys();
  dmDevices.value = {};
  opened.value = {};
  unseenDevices.value = {};
}

// ---- devices the person has been told about (trust on first use) ----

function seenKey(): string {
  return `parley.e2e.seen.${me.value?.id ?? ""}`;
}

function readSeen(): Record<string, string[]> {
  try {
    return JSON.parse(localStorage.getItem(seenKey()) ?? "{}") as Record<string, string[]>;
  } catch {
    return {};
  }
}

function writeSeen(seen: Record<string, string[]>): void {
  try {
    localStorage.setItem(seenKey(), JSON.stringify(seen));
  } catch {
    // Without storage the person is told again next time: the safe side.
  }
}

/**
 * The first time a person's devices are seen they are taken as they are; a device that
 * appears after that is announced until the person acknowledges it. This device is
 * never announced to itself.
 */
function noticeNew(channelId: string, list: DeviceJson[]): void {
  const seen = readSeen();
  const mine = device.value.state === "ready" ? device.value.own.id : null;
  let changed = false;
  const fresh: DeviceJson[] = [];
  for (const userId of new Set(list.map((d) => d.user_id))) {
    const now = current(list).filter((d) => d.user_id === userId);
    if (!seen[userId]) {
      seen[userId] = now.map((d) => d.id);
      changed = true;
    } else fresh.push(...now.filter((d) => d.id !== mine && !seen[userId].includes(d.id)));
  }
  if (changed) writeSeen(seen);
  unseenDevices.value = { ...unseenDevices.value, [channelId]: fresh };
}

/** The person has been told: the announced devices are known from now on, in every DM. */
export function acknowledgeDevices(channelId: string): void {
  const seen = readSeen();
  for (const d of unseenDevices.value[channelId] ?? []) seen[d.user_id] = [...(seen[d.user_id] ?? []), d.id];
  writeSeen(seen);
  for (const [id, list] of Object.entries(dmDevices.value)) noticeNew(id, list);
}

/** A device was added or removed: the DMs it concerns read their devices again. */
export function onDeviceEvent(d: DeviceJson): void {
  if (d.removed_at !== null) deviceRemoved(d.id);
  for (const c of dms.value) {
    const people = [me.value?.id, ...(c.recipients ?? []).map((u) => u.id)];
    if (dmDevices.value[c.id] && people.includes(d.user_id)) void loadDevices(c.id, true).catch(() => undefined);
  }
}

// ---- reading ----

const keyOf = (m: Message) => `${m.id}\n${m.ciphertext}`;
const working = new Set<string>();

/** What this device made of a message, or undefined while it is still being opened. */
export function openedOf(m: Message): Opened | undefined {
  return opened.value[keyOf(m)];
}

/** The text of an encrypted message, when this device could open it. */
export function textOf(m: Message): string | null {
  const r = openedOf(m);
  return r?.state === "ok" ? r.text : null;
}

function remember(m: Message, r: Opened): void {
  opened.value = { ...opened.value, [keyOf(m)]: r };
}

/** Open a message in the background (once); the result lands in `opened`. */
export function decrypt(m: Message): void {
  const key = keyOf(m);
  if (m.ciphertext === null || opened.value[key] || working.has(key)) return;
  working.add(key);
  void openNow(m)
    .then((r) => remember(m, r))
    .finally(() => working.delete(key));
}

async function openNow(m: Message): Promise<Opened> {
  const meta = { channelId: m.channel_id, authorId: m.author.id, messageId: m.id, createdAt: Date.parse(m.created_at), edited: m.edited_at !== null };
  try {
    const own = await deviceReady();
    let list = await loadDevices(m.channel_id);
    const parsed = parseEnvelope(m.ciphertext!);
    // Sent from a device this page has not heard of yet: read the devices again first.
    if (parsed.ok && !list.some((d) => d.id === parsed.envelope.from)) list = await loadDevices(m.channel_id, true);
    const devices = list.map(deviceInfo);
    const r = await openMessage(m.ciphertext!, meta, own, devices);
    if (r.state === "ok") return r;
    // Not for this device: perhaps for a key backup the person restored here.
    for (const b of await loadBackupKeys()) {
      const viaBackup = await openMessage(m.ciphertext!, meta, b, devices);
      if (viaBackup.state === "ok") return viaBackup;
    }
    return r;
  } catch (e) {
    return { state: "failed", reason: `${UNAVAILABLE}${e instanceof Error ? e.message : ""}` };
  }
}

/** Marks a message that failed because this device or the server was not there, not because of what it says. */
const UNAVAILABLE = "unavailable: ";

function forgetWhere(drop: (r: Opened) => boolean): void {
  const kept = Object.entries(opened.peek()).filter(([, r]) => !drop(r));
  if (kept.length !== Object.keys(opened.peek()).length) opened.value = Object.fromEntries(kept);
}

// Once the device is (again) ready, what failed for want of it is tried again.
effect(() => {
  if (device.value.state === "ready") forgetWhere((r) => r.state === "failed" && r.reason.startsWith(UNAVAILABLE));
});
// A key backup restored here may open what this device could not.
effect(() => {
  if (backupKeys.value.length) forgetWhere((r) => r.state !== "ok");
});

// ---- writing ----

function fail(what: string, e: unknown): false {
  showNotice(`${what}: ${e instanceof ApiError ? e.message : e instanceof Error ? e.message : "the server could not be reached"}`);
  return false;
}

async function seal(channelId: string, text: string, editOf: string | null): Promise<string> {
  if (text.length > MAX_TEXT) throw new Error(`a message holds at most ${MAX_TEXT} characters`);
  const own = await deviceReady();
  const list = await loadDevices(channelId, true);
  return sealMessage(text, { channelId, authorId: me.value!.id, editOf }, own, current(list).map(deviceInfo));
}

/** Send a DM sealed for every current device of both people (a bot has none: the person's own only). */
export async function sendEncrypted(channel: Channel, text: string, replyTo: string | null): Promise<boolean> {
  try {
    const ciphertext = await seal(channel.id, text, null);
    const m = await api<Message>("POST", `/channels/${channel.id}/messages`, { ciphertext, reply_to: replyTo ?? undefined });
    remember(m, { state: "ok", text });
    upsertMessage(m);
    return true;
  } catch (e) {
    return fail("Your message was not sent", e);
  }
}

/** Edit one's own DM: the new text is sealed again, bound to the message it replaces. */
export async function editEncrypted(m: Message, text: string): Promise<boolean> {
  try {
    const ciphertext = await seal(m.channel_id, text, m.id);
    const edited = await api<Message>("PATCH", `/channels/${m.channel_id}/messages/${m.id}`, { ciphertext });
    remember(edited, { state: "ok", text });
    upsertMessage(edited);
    return true;
  } catch (e) {
    return fail("The message was not edited", e);
  }
}
