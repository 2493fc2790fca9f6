/**
 * Developer mode: "Copy server ID", "Copy channel ID", "Copy message ID" and "Copy user
 * ID" beside what they name, for a person writing a bot, who needs the ids their bot
 * will meet (the server to register commands in, the channel to post to). Off by
 * default, as on the reference, so nobody else's menus grow. Kept in this browser for
 * each person apart, as the trusted picture hosts are (images.ts). The ids are the
 * snowflakes bots see, asked of the server (clientapi/bot-ids.ts): the page itself
 * speaks internal ids only.
 */
import { computed, signal } from "@preact/signals";
import { api } from "./api";
import { copyAndSay, me, showNotice } from "./state";

const key = (userId: string) => `parley.developerMode.${userId}`;
/** Choices made in this page, by person: they hold if storage refuses the write. */
const chosen = signal<Record<string, boolean>>({});

function stored(userId: string): boolean {
  try {
    return localStorage.getItem(key(userId)) === "on";
  } catch {
    return false;
  }
}

export const developerMode = computed<boolean>(() => {
  const id = me.value?.id;
  return id ? (chosen.value[id] ?? stored(id)) : false;
});

export function setDeveloperMode(on: boolean): void {
  const id = me.value?.id;
  if (!id) return;
  try {
    if (on) localStorage.setItem(key(id), "on");
    else localStorage.removeItem(key(id));
  } catch {
    // Storage refused (private mode, full): the choice lasts as long as the page.
  }
  chosen.value = { ...chosen.value, [id]: on };
}

/** Where each kind's bot id is asked for, by the internal ids the page holds. */
export const botIdPath = {
  server: (guildId: string) => `/guilds/${guildId}/bot-id`,
  channel: (channelId: string) => `/channels/${channelId}/bot-id`,
  message: (channelId: string, messageId: string) => `/channels/${channelId}/messages/${messageId}/bot-id`,
  user: (userId: string) => `/users/${userId}/bot-id`,
};

/** Ask the server for the id bots see, and put it on the clipboard; a notice says how it went. */
export async function copyBotId(what: "Server" | "Channel" | "Message" | "User", path: string): Promise<void> {
  let id: string;
  try {
    id = (await api<{ id: string }>("GET", path)).id;
  } catch {
    showNotice(`The server did not give the ${what.toLowerCase()}'s ID.`);
    return;
  }
  await copyAndSay(id, `${what} ID copied: ${id}`, `${what} ID: ${id} (the browser did not let the page copy it)`);
}
