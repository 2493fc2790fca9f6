/** "Copy link" on a message: its `/channels/{server}/{channel}/{message}` address (web/links.ts). */
import { copyLink } from "../links";
import type { Message } from "../types";

export function CopyLinkAction({ m, guild }: { m: Message; guild: string | null }) {
  if (m.ephemeral) return null;
  return <button onClick={() => void copyLink(guild, m.channel_id, m.id)}>Copy link</button>;
}
