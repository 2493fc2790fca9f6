/**
 * Sealing and opening a direct message (the wire format is format.ts). A message is
 * encrypted once, with a fresh AES-256-GCM key, and that key is wrapped for every current
 * device of both people. The body's associated data binds it to its channel, its author,
 * its sending device and (for an edit) the message it replaces, so the server cannot move
 * it, re-attribute it or pass an edit off as another message.
 */
import { buf, utf8 } from "./bytes";
import { formatEnvelope, parseEnvelope, type Wrap } from "./format";
import { padContent, unpadContent, type MessageContent, type SealedFile } from "./content";
import { wrappingKey, type DeviceKeys, type PublicKeys } from "./keys";

/** A device as the server lists it (docs/people-api.md), times in ms since the epoch. */
export interface DeviceInfo {
  id: string;
  user_id: string;
  keys: PublicKeys;
  created_at: number;
  removed_at: number | null;
}

/** This client's own device: its id, its key pairs and when the server registered it. */
export interface OwnDevice {
  id: string;
  keys: DeviceKeys;
  created_at: number;
}

/** Where a message belongs; an edit names the message it replaces. */
export interface MessageContext {
  channelId: string;
  authorId: string;
  editOf: string | null;
}

export type Opened =
  /** `files` only when the message carries some (content.ts), in the order of its attachments. */
  | { state: "ok"; text: string; files?: SealedFile[] }
  /** No key for this device, and the message is not newer than the device. */
  | { state: "before_device" }
  /** Sealed by a device of its author's that was removed before the message was sent: not to be taken as theirs. */
  | { state: "removed_device" }
  /** Tampered with, not meant for this device, or from a device its author does not have. */
  | { state: "failed"; reason: string };

function associatedData(ctx: MessageContext, from: string): ArrayBuffer {
  return buf(utf8(`parley dm1\n${ctx.channelId}\n${ctx.authorId}\n${from}\n${ctx.editOf ?? ""}`));
}

/**
 * Encrypt a text (or a text with its files' secrets) for `devices` (the current devices
 * of the DM's two people, the sender's own included). A device of anyone but `people`
 * (the DM's two people) is never sealed for, whatever list it came in; nor is a removed
 * one, or one sharing no curve with the sender. Throws when it is too long for the
 * largest bucket.
 */
export async function sealMessage(
  content: string | MessageContent,
  ctx: MessageContext,
  from: OwnDevice,
  devices: DeviceInfo[],
  people: string[],
): Promise<string> {
  if (!people.includes(ctx.authorId)) throw new Error("The author is not one of the conversation's people");
  const c = typeof content === "string" ? { text: content, files: [] } : content;
  const block = padContent(c);
  if (!block)
    throw new Error(
      c.files.length
        ? "The message and its files' names and descriptions are too long to encrypt: shorten them or send fewer files"
        : "The message is too long to encrypt",
    );
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  // Extractable only so it can be wrapped; it lives in memory for this call alone.
  const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt", "decrypt"]);
  const body = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv: buf(nonce), additionalData: associatedData(ctx, from.id) }, key, buf(block)),
  );
  const wraps: Wrap[] = [];
  for (const d of devices) {
    if (d.removed_at !== null || !people.includes(d.user_id)) continue;
    const kek = await wrappingKey(from.keys, d.keys, nonce, from.id, d.id);
    if (kek) wraps.push({ device: d.id, key: new Uint8Array(await crypto.subtle.wrapKey("raw", key, kek, "AES-KW")) });
  }
  if (!wraps.length) throw new Error("No device to encrypt for");
  return formatEnvelope({ from: from.id, nonce, body, wraps });
}

/** What a message says, for this device; never another text than the one sealed. */
export async function openMessage(
  ciphertext: string,
  meta: { channelId: string; authorId: string; messageId: string; createdAt: number; edited: boolean },
  me: OwnDevice,
  devices: DeviceInfo[],
): Promise<Opened> {
  const fail = (reason: string): Opened => ({ state: "failed", reason });
  const parsed = parseEnvelope(ciphertext);
  if (!parsed.ok) return fail(parsed.problem);
  const e = parsed.envelope;
  const wrap = e.wraps.find((w) => w.device === me.id);
  // Same millisecond counts as before: a frozen (virtual) clock gives both one time.
  if (!wrap) return meta.createdAt <= me.created_at ? { state: "before_device" } : fail("not encrypted for this device");
  const sender = devices.find((d) => d.id === e.from);
  if (!sender || sender.user_id !== meta.authorId) return fail("sent from a device its author does not have");
  // The server's times, which a lying server controls; it refuses such sends itself.
  if (sender.removed_at !== null && meta.createdAt > sender.removed_at) return { state: "removed_device" };
  try {
    const kek = await wrappingKey(me.keys, sender.keys, e.nonce, e.from, me.id);
    if (!kek) return fail("no curve in common with the sending device");
    const key = await crypto.subtle.unwrapKey("raw", buf(wrap.key), kek, "AES-KW", "AES-GCM", false, ["decrypt"]);
    const ctx = { channelId: meta.channelId, authorId: meta.authorId, editOf: meta.edited ? meta.messageId : null };
    const block = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: buf(e.nonce), additionalData: associatedData(ctx, e.from) },
      key,
      buf(e.body),
    );
    const c = unpadContent(new Uint8Array(block));
    if (c === null) return fail("the padding is malformed");
    return c.files.length ? { state: "ok", text: c.text, files: c.files } : { state: "ok", text: c.text };
  } catch {
    return fail("the ciphertext or its key was altered");
  }
}
