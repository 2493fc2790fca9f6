/**
 * The composer's aids (issue 28): slow mode's countdown, the character counter near the
 * limit, and Up in an empty composer to edit one's last message.
 */
import { useEffect, useLayoutEffect, useState } from "preact/hooks";
import { editing, logs, me } from "../../state";
import type { Channel } from "../../types";
import { textOf } from "../../dm-crypto";
import { slowmodeSeconds } from "./rights";

/** The most a message may hold, and where the counter starts to show. */
export const MAX_CHARS = 2000;
const COUNT_FROM = 1800;

/** Slow mode: the seconds left before the next send (0: may send), started by `sent()`. */
export function useSlowmode(channel: Channel) {
  const rate = slowmodeSeconds(channel);
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useLayoutEffect(() => setUntil(0), [channel.id]);
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  useEffect(() => {
    if (!left) return;
    const t = setTimeout(() => setNow(Date.now()), 250);
    return () => clearTimeout(t);
  });
  return {
    left,
    sent() {
      if (!rate) return;
      setNow(Date.now());
      setUntil(Date.now() + rate * 1000);
    },
    line: rate ? (
      <p class="slowmode" role="status" aria-label="Slow mode">
        Slow mode: {left || rate} s
      </p>
    ) : null,
  };
}

export function CharCounter({ length }: { length: number }) {
  if (length < COUNT_FROM) return null;
  return (
    <output class={`char-count${length > MAX_CHARS ? " over" : ""}`} aria-label="Characters">
      {length.toLocaleString()} / {MAX_CHARS.toLocaleString()}
    </output>
  );
}

/** Up in an empty composer: edit the person's newest message in the channel that they can edit. Whether it did. */
export function editLast(channelId: string): boolean {
  const mine = me.value?.id;
  const list = logs.value[channelId]?.list ?? [];
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i];
    if (m.author.id !== mine || m.ephemeral || (m.ciphertext && textOf(m) === null)) continue;
    editing.value = m.id;
    return true;
  }
  return false;
}
