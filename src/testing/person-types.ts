/** The people a test plays, and what their interactions came to (person.ts, interactions.ts). */
import type { HarnessMessage, WaitOptions } from "./wire-types.js";

export type InteractionState = "pending" | "deferred" | "responded" | "expired";

/** What became of an interaction (GET /interactions/{id}). */
export interface InteractionView {
  id: string;
  state: InteractionState;
  /** The response message (the "thinking" one while deferred), full content; null before any. */
  response: HarnessMessage | null;
  followups: HarnessMessage[];
}

/** What a slash command, a click, a menu choice or a context-menu command came to. */
export interface InteractionResult extends InteractionView {
  /** False when the bot had no live session: the spec drops the interaction. */
  delivered: boolean;
  /** The response is ephemeral (only the person sees it). */
  ephemeral: boolean;
  /** The bot's first answer was a deferral (callback type 5 or 6). */
  deferred: boolean;
  /** The first callback's type (4 reply, 5 deferred reply, 6 deferred update, 7 update), or null (none seen, or a follow-up answered). */
  callbackType: number | null;
}

/** Options for the interaction helpers. */
export interface InteractOptions extends WaitOptions {
  /** The application, by world name (default: the only application of the world, or the bot under test). */
  app?: string;
  /** Wait for the first answer ("answered": deferred or responded, the default) or for a response ("responded"). */
  until?: "answered" | "responded";
}

/** A slash command's options: name -> value (flat), or the raw list (subcommands). */
export type CommandOptions =
  | Record<string, string | number | boolean>
  | { name: string; type?: number; value?: unknown; options?: unknown[] }[];

/** A file a person attaches to a message: its name, bytes (or UTF-8 text), alt text. In a DM the harness encrypts it as the person's device. */
export interface PersonFile {
  name: string;
  data: Uint8Array | string;
  description?: string;
  spoiler?: boolean;
}

export interface Person {
  /** Post a message in a channel (name like "general" or "Lab/general", or snowflake). */
  say(channel: string, content: string, opts?: { embeds?: unknown[]; replyTo?: string; files?: PersonFile[] }): Promise<{ id: string }>;
  /** Send a direct message to a person or a bot (name or snowflake), with files if any; the harness encrypts it all as the person's device. */
  dm(recipient: string, content: string, opts?: { files?: PersonFile[] }): Promise<{ channel_id: string; id: string }>;
  /**
   * The person's harness device (made on first use): register it before a browser or
   * another client sends the person a DM, so the harness can read it as them.
   */
  device(): Promise<{ id: string; created_at: string }>;
  react(channel: string, messageId: string, emoji: string): Promise<void>;
  unreact(channel: string, messageId: string, emoji: string): Promise<void>;
  /** Pin a message (the person needs Manage Messages): the bot sees the type 6 notice and the message's update. */
  pin(channel: string, messageId: string): Promise<void>;
  unpin(channel: string, messageId: string): Promise<void>;
  /**
   * A people's API session for this person (test mode): a token for `Authorization:
   * Session <token>`, and their internal user id (the people's API's ids).
   */
  session(): Promise<{ token: string; user_id: string }>;
  /**
   * Any people's API route (/api/client/v1) as this person, as the web client calls it:
   * the parsed answer; a non-2xx answer throws HarnessError with the spec's error body.
   */
  api<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  /** Run a slash command; waits for the bot's answer and says what happened. */
  slash(channel: string, name: string, options?: CommandOptions, opts?: InteractOptions): Promise<InteractionResult>;
  /** Click a button on a message; waits for the bot's answer. */
  click(channel: string, messageId: string, customId: string, opts?: InteractOptions): Promise<InteractionResult>;
  /** Choose values in a select menu on a message; waits for the bot's answer. */
  select(channel: string, messageId: string, customId: string, values: string[], opts?: InteractOptions): Promise<InteractionResult>;
  /** Run a context-menu command on a user (type 2; seed name or snowflake) or a message (type 3); waits for the bot's answer. */
  contextMenu(
    channel: string,
    name: string,
    target: { user: string } | { message: string },
    opts?: InteractOptions,
  ): Promise<InteractionResult>;
  /** Run a slash command or click a component with a raw harness body; answers at once. */
  interact(body: Record<string, unknown>): Promise<{ id: string; delivered: boolean }>;
  /** A context-menu command, raw: answers at once (contextMenu waits for the bot). */
  useOn(
    channel: string,
    app: string,
    name: string,
    target: { user: string } | { message: string },
  ): Promise<{ id: string; delivered: boolean }>;
  /** Edit one's own message (in a DM the new text is encrypted again). */
  edit(messageId: string, content: string): Promise<void>;
  /** Delete a message: one's own, or anyone's with MANAGE_MESSAGES in a server channel. */
  delete(messageId: string): Promise<void>;
  /** Start typing in a channel (bots see TYPING_START). */
  type(channel: string): Promise<void>;
  /** Make an invite to a channel's server; answers its code. */
  invite(channel: string, opts?: { maxAge?: number; maxUses?: number }): Promise<string>;
  /** Join a server by invite code; answers the server's snowflake. */
  join(code: string): Promise<string>;
  /** Leave a server (by name from the seed, or snowflake). */
  leave(guild: string): Promise<void>;
}
