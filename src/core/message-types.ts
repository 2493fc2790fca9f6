/** The shapes and constants of messages, shared by the core's message services. */
import type { AllowedMentions } from "./mentions";

export type { AllowedMentions } from "./mentions";

export interface NewMessage {
  channelId: string;
  authorId: string;
  content?: string;
  /** A person's DM message: the opaque ciphertext their client produced. */
  ciphertext?: string | null;
  embeds?: unknown[];
  components?: unknown[];
  flags?: number;
  nonce?: string | null;
  tts?: boolean;
  type?: number;
  mentionEveryone?: boolean;
  /** What the text may mention (null or absent: all of it, and a reply's author). */
  allowedMentions?: AllowedMentions | null;
  reference?: { messageId: string; channelId: string; guildId: string | null } | null;
  webhook?: { id: string; name: string; avatar: string | null } | null;
  applicationId?: string | null;
  interactionId?: string | null;
  ephemeralUserId?: string | null;
}

export interface MessagePatch {
  content?: string;
  /** With new content: what it may mention (see NewMessage). */
  allowedMentions?: AllowedMentions | null;
  embeds?: unknown[];
  components?: unknown[];
  flags?: number;
  ciphertext?: string | null;
}

export interface Page {
  before?: string; // internal id bound (exclusive)
  after?: string;
  around?: string;
  limit: number;
}

/** The longest text a message holds, from any door (spec 2.7a). */
export const MAX_CONTENT = 2000;
export const EPHEMERAL = 1 << 6;
/** Message types Parley writes (reference-gaps 3.6.1). */
export const MESSAGE_TYPE = { DEFAULT: 0, CHANNEL_PINNED_MESSAGE: 6, REPLY: 19, CHAT_INPUT_COMMAND: 20, CONTEXT_MENU_COMMAND: 23 } as const;
/** Flags a sender may set on a channel message (reference-gaps 3.6.2); others are dropped. */
export const SENDABLE_FLAGS = (1 << 2) | (1 << 12);
export const SUPPRESS_EMBEDS = 1 << 2;

/** What an actor sends: already validated and normalized by the surface (mentions as internal ids). */
export interface SendInput {
  content?: string;
  embeds?: unknown[];
  components?: unknown[];
  flags?: number;
  nonce?: string | null;
  enforceNonce?: boolean;
  tts?: boolean;
  /** A reply. messageId null = an id that never existed. */
  reference?: { messageId: string | null; failIfNotExists: boolean } | null;
  /** allowed_mentions (absent: everything may be mentioned, as on the reference). */
  allowedMentions?: AllowedMentions | null;
  /** A person's files: their filled upload slots for this channel (core/message-attachments.ts). */
  attachments?: AttachmentInput[];
}

/** A file for a message being sent: a filled slot of the sender's, for this channel. */
export interface AttachmentInput {
  uploadId: string;
  /** Replaces the description given when the slot was opened. */
  description?: string | null;
  spoiler?: boolean;
}

/** One entry of an edit's `attachments`: an existing attachment to keep, or (people only) a new slot. */
export type AttachmentEdit = { id: string; description?: string | null } | AttachmentInput;

export interface EditInput {
  content?: string | null;
  embeds?: unknown[] | null;
  components?: unknown[] | null;
  flags?: number | null;
  allowedMentions?: AllowedMentions | null;
  /** The attachments to keep, by id, in order (and a person's new slots); null or []: none. Absent: all kept. */
  attachments?: AttachmentEdit[] | null;
}
