/** What a person does, over the people's API; the live connection brings the results back. */
import { api, ApiError } from "./api";
import type { Channel, Command, Message } from "./types";
import { dismissed, dms, interactions, type PendingInteraction, removeMessage, showNotice, upsertMessage, users } from "./state";

function fail(what: string, e: unknown): void {
  showNotice(`${what}: ${e instanceof ApiError ? e.message : "the server could not be reached"}`);
}

export async function sendMessage(
  channelId: string,
  content: string,
  replyTo: string | null,
  attachments?: { upload_id: string; description?: string }[],
): Promise<boolean> {
  try {
    // The answer is shown at once; the live event for it replaces it by id.
    const files = attachments?.length ? { attachments } : {};
    upsertMessage(await api<Message>("POST", `/channels/${channelId}/messages`, { content, reply_to: replyTo ?? undefined, ...files }));
    return true;
  } catch (e) {
    fail("Your message was not sent", e);
    return false;
  }
}

export async function editMessage(m: Message, content: string): Promise<boolean> {
  try {
    upsertMessage(await api<Message>("PATCH", `/channels/${m.channel_id}/messages/${m.id}`, { content }));
    return true;
  } catch (e) {
    fail("The message was not edited", e);
    return false;
  }
}

export async function deleteMessage(m: Message): Promise<void> {
  try {
    await api("DELETE", `/channels/${m.channel_id}/messages/${m.id}`);
    removeMessage(m.channel_id, m.id);
  } catch (e) {
    fail("The message was not deleted", e);
  }
}

export async function toggleReaction(m: Message, emoji: string, mine: boolean): Promise<void> {
  try {
    await api(mine ? "DELETE" : "PUT", `/channels/${m.channel_id}/messages/${m.id}/reactions/${encodeURIComponent(emoji)}`);
  } catch (e) {
    fail("The reaction did not go through", e);
  }
}

/**
 * Close a DM: it leaves this person's list (their other browsers hear dm.closed), and
 * comes back with the next message in it. Nothing is deleted.
 */
export async function closeDm(c: Channel): Promise<boolean> {
  try {
    await api("DELETE", `/channels/${c.id}`);
    dms.value = dms.value.filter((x) => x.id !== c.id);
    return true;
  } catch (e) {
    fail("The conversation was not closed", e);
    return false;
  }
}

/** Hide an ephemeral answer for good (only this browser ever had it). */
export function dismiss(m: Message): void {
  dismissed.value = new Set([...dismissed.value, m.id]);
  removeMessage(m.channel_id, m.id);
}

let lastTyping = 0;

/** The typing notice, at most every 8 s while the person types. */
export function typingNow(channelId: string): void {
  const now = Date.now();
  if (now - lastTyping < 8000) return;
  lastTyping = now;
  void api("POST", `/channels/${channelId}/typing`).catch(() => undefined);
}

export function typingDone(): void {
  lastTyping = 0;
}

type Invocation = { id: string; delivered: boolean };

/** Track an interaction until the bot answers; say so when the bot is not there to hear it. */
function track(channelId: string, appId: string, botName: string, r: Invocation, kind: PendingInteraction["kind"] = "command"): void {
  if (!r.delivered) {
    showNotice(`${botName} is not connected, so nobody answered.`);
    return;
  }
  const known = interactions.value[r.id];
  interactions.value = {
    ...interactions.value,
    [r.id]: { id: r.id, channel_id: channelId, application_id: appId, state: known?.state ?? "pending", botName, kind },
  };
}

export type OptionValue = string | number | boolean;
export type RawOption = { name: string; value?: OptionValue; options?: RawOption[] };

/** Run a slash command; answers whether a live bot got it (null: refused, and said so). */
export async function runCommand(channelId: string, c: Command, options: RawOption[]): Promise<{ delivered: boolean } | null> {
  try {
    const r = await api<Invocation>("POST", `/channels/${channelId}/interactions`, {
      application_id: c.application_id,
      name: c.name,
      type: 1,
      options,
    });
    track(channelId, c.application_id, c.application_name, r);
    return r;
  } catch (e) {
    fail(`/${c.name} did not run`, e);
    return null;
  }
}

export async function clickComponent(m: Message, customId: string, values?: string[]): Promise<void> {
  try {
    const r = await api<Invocation>("POST", `/channels/${m.channel_id}/interactions`, { message_id: m.id, custom_id: customId, values });
    track(m.channel_id, "", users.value[m.author.id]?.username ?? m.author.username, r, "component");
  } catch (e) {
    fail("That did not go through", e);
  }
}

/** Run a context-menu command: a USER command (type 2) on a person, a MESSAGE command (type 3) on a message. */
export async function runContextCommand(channelId: string, c: Command, type: 2 | 3, targetId: string): Promise<boolean> {
  try {
    const r = await api<Invocation>("POST", `/channels/${channelId}/interactions`, {
      application_id: c.application_id,
      name: c.name,
      type,
      target_id: targetId,
    });
    track(channelId, c.application_id, c.application_name, r);
    return true;
  } catch (e) {
    fail(`${c.name} did not run`, e);
    return false;
  }
}
