/**
 * Who reacted with an emoji, from the people's API (GET .../reactions/{emoji}), and the
 * sentence a reaction's tooltip says: "Alice, Bob, Carol and 2 others reacted with 👍",
 * as the reference chat says it.
 */
import { api } from "../../api";
import { displayName, members, rememberUsers } from "../../state";
import type { Message, User } from "../../types";
import { emojiLabel } from "../files/Emoji";

/** How many people a tooltip names before it counts the rest. */
export const NAMED = 3;

/** One page of who reacted with `emoji` on `m`, by user id, after `after`. */
export async function whoReacted(m: Pick<Message, "id" | "channel_id">, emoji: string, limit: number, after?: string): Promise<User[]> {
  const q = new URLSearchParams({ limit: String(limit) });
  if (after) q.set("after", after);
  const list = await api<User[]>("GET", `/channels/${m.channel_id}/messages/${m.id}/reactions/${encodeURIComponent(emoji)}?${q}`);
  rememberUsers(list);
  return list;
}

/** A person's name as the open server shows it: their nickname there, else their own. */
export function nameIn(u: User, guild: string | null): string {
  const nick = guild ? members.value[guild]?.find((x) => x.user.id === u.id)?.nick : null;
  return nick || displayName(u);
}

/** Before the names are known: "3 people reacted with 👍". */
export function countSentence(count: number, emoji: string): string {
  return `${count} ${count === 1 ? "person" : "people"} reacted with ${emojiLabel(emoji)}`;
}

/** "Alice reacted with 👍", "Alice and Bob …", "Alice, Bob, Carol and 1 other …". */
export function whoSentence(names: string[], count: number, emoji: string): string {
  if (!names.length) return countSentence(count, emoji);
  const shown = names.slice(0, NAMED);
  const others = Math.max(0, count - shown.length);
  const parts = others ? [...shown, `${others} ${others === 1 ? "other" : "others"}`] : shown;
  const listed = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
  return `${listed} reacted with ${emojiLabel(emoji)}`;
}
