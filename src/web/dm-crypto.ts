/**
 * Direct messages, end to end: the devices of a DM's two people as the server lists them
 * (read again when one is added or removed), taken in against what this browser pinned
 * (trust.ts: a device of anyone else, or a changed key, is never used), the text of each
 * encrypted message as this device opens it with the pinned keys, and sending and
 * editing sealed for the pinned current devices. The scheme itself is src/e2e, shared
 * with the harness; the server only ever sees ciphertext.
 */
import { effect, signal } from "@preact/signals";
import {
  openMessage,
  parseEnvelope,
  pinnedDevices,
  publicKeysOf,
  sealMessage,
  sealTargets,
  type Listed,
  type MessageContent,
  type Opened,
  type OwnDevice,
  type PublicKeys,
  type SealedFile,
  type SelfDevice,
} from "../e2e";
import { api, ApiError } from "./api";
import { device, deviceReady, deviceRemoved } from "./device";
import { backupKeys, forgetBackupKeys, loadBackupKeys } from "./backup";
import { dms, me, showNotice, upsertMessage } from "./state";
import { acknowledgeIn, forgetTrust, takeIn, trust } from "./trust";
import type { Channel, DeviceJson, Message } from "./types";

/** The longest text a DM may carry, as in server channels. */
export const MAX_TEXT = 2000;

/** Devices of each DM's two people as the server last listed them (removed ones too), by channel id. */
export const dmDevices = signal<Record<string, DeviceJson[]>>({});
/** Each encrypted message as this device opened it, by message id and ciphertext. */
export const opened = signal<Record<string, Opened>>({});

export function listed(d: DeviceJson): Listed {
  return {
    id: d.id,
    user_id: d.user_id,
    name: d.name,
    keys: d.keys,
    created_at: Date.parse(d.created_at),
    removed_at: d.removed_at === null ? null : Date.parse(d.removed_at),
    backup: d.backup,
  };
}

export const current = (list: DeviceJson[]) => list.filter((d) => d.removed_at === null);

/**
 * The DM's two people: the person signed in and the DM's one recipient, as the DM was
 * opened. Devices are taken in for these two only, whoever else the server names.
 */
export function peopleOf(channelId: string): string[] {
  const c = dms.value.find((x) => x.id === channelId);
  const other = c?.recipients?.[0]?.id;
  if (!me.value || !other) throw new Error("this conversation is not loaded");
  return [me.value.id, other];
}

const selfKeys = new WeakMap<OwnDevice, Promise<PublicKeys>>();

/** This browser's device, with its public keys as it made them (never as the server lists them). */
async function selfDevice(): Promise<SelfDevice | null> {
  const own = await deviceReady().catch(() => null);
  if (!own || !me.value) return null;
  let keys = selfKeys.get(own);
  if (!keys) selfKeys.set(own, (keys = publicKeysOf(own.keys)));
  return { id: own.id, user_id: me.value.id, keys: await keys, created_at: own.created_at };
}

/** The DM's devices; `fresh` reads them again (before every send, so no new device is missed). */
export async function loadDevices(channelId: string, fresh = false): Promise<DeviceJson[]> {
  const known = dmDevices.value[channelId];
  if (known && !fresh) return known;
  // A page of messages opening at once asks once; a fresh read never joins an older one.
  const joined = fresh ? undefined : reading.get(channelId);
  if (joined) return joined;
  const n = ++started;
  const read = (async () => {
    const [list, self] = await Promise.all([api<DeviceJson[]>("GET", `/channels/${channelId}/devices`), selfDevice()]);
    // Every answer is taken in (what the server ever said is judged); the newest is shown.
    await takeIn(me.value!.id, channelId, peopleOf(channelId), list.map(listed), self);
    if (n >= (applied.get(channelId) ?? 0)) {
      applied.set(channelId, n);
      dmDevices.value = { ...dmDevices.value, [channelId]: list };
    }
    return list;
  })();
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
  forgetTrust();
  dmDevices.value = {};
  opened.value = {};
}

/** The person has been told of the DM's new devices and conflicts: not shown again. */
export function acknowledgeDevices(channelId: string): void {
  const own = device.value.state === "ready" ? device.value.own.id : null;
  if (me.value) acknowledgeIn(me.value.id, channelId, peopleOf(channelId), own);
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

/** What an opened message says of its files (none when it carries none), in the order of its attachments. */
export function filesOf(m: Message): SealedFile[] {
  const r = openedOf(m);
  return r?.state === "ok" ? (r.files ?? []) : [];
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
  const meta = {
    channelId: m.channel_id,
    authorId: m.author.id,
    messageId: m.id,
    createdAt: Date.parse(m.created_at),
    edited: m.edited_at !== null,
  };
  try {
    const own = await deviceReady();
    const people = peopleOf(m.channel_id);
    await loadDevices(m.channel_id);
    const parsed = parseEnvelope(m.ciphertext!);
    // Sent from a device this browser has not pinned yet: read the devices again first.
    if (parsed.ok && !trust.value.devices[parsed.envelope.from]) await loadDevices(m.channel_id, true);
    // Opened with the keys pinned to the DM's two people, never with what the server lists now.
    const devices = pinnedDevices(trust.value, people);
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

async function seal(channelId: string, content: MessageContent, editOf: string | null): Promise<string> {
  if (content.text.length > MAX_TEXT) throw new Error(`a message holds at most ${MAX_TEXT} characters`);
  const own = await deviceReady();
  const people = peopleOf(channelId);
  const list = await loadDevices(channelId, true);
  // The pinned keys of the two people's devices the server still lists as current.
  return sealMessage(
    content,
    { channelId, authorId: me.value!.id, editOf },
    own,
    sealTargets(trust.value, people, list.map(listed)),
    people,
  );
}

/** What the sender knows its message says, as a reader opens it (openMessage). */
const openedAs = (c: MessageContent): Opened =>
  c.files.length ? { state: "ok", text: c.text, files: c.files } : { state: "ok", text: c.text };

/** A DM's files as the composer hands them over: the uploaded slots and, in the same order, what the sealed text says of each. */
export interface OutgoingFiles {
  attachments: { upload_id: string }[];
  sealed: SealedFile[];
}

/**
 * Send a DM sealed for every current device of both people (a bot has none: the person's
 * own only). Its files, already encrypted and uploaded, are named by their slots, and
 * their keys and facts go in the sealed text, in the same order.
 */
export async function sendEncrypted(channel: Channel, text: string, replyTo: string | null, files?: OutgoingFiles): Promise<boolean> {
  try {
    if ((files?.attachments.length ?? 0) !== (files?.sealed.length ?? 0)) throw new Error("a file is not ready yet");
    const content = { text, files: files?.sealed ?? [] };
    const ciphertext = await seal(channel.id, content, null);
    const attachments = files?.attachments.length ? files.attachments : undefined;
    const m = await api<Message>("POST", `/channels/${channel.id}/messages`, { ciphertext, reply_to: replyTo ?? undefined, attachments });
    remember(m, openedAs(content));
    upsertMessage(m);
    return true;
  } catch (e) {
    return fail("Your message was not sent", e);
  }
}

/** Edit one's own DM: the new text is sealed again, bound to the message it replaces, with the files it already has. */
export async function editEncrypted(m: Message, text: string): Promise<boolean> {
  try {
    const content = { text, files: filesOf(m) };
    const ciphertext = await seal(m.channel_id, content, m.id);
    const edited = await api<Message>("PATCH", `/channels/${m.channel_id}/messages/${m.id}`, { ciphertext });
    remember(edited, openedAs(content));
    upsertMessage(edited);
    return true;
  } catch (e) {
    return fail("The message was not edited", e);
  }
}
