/**
 * A message found elsewhere than its channel (a search result, a mention in the inbox, a
 * pin): its author and text as one article, and "Jump" to it in its channel.
 */
import type { ComponentChildren } from "preact";
import { memberName } from "../state";
import type { Message } from "../types";
import { Markdown } from "../markdown";
import { jumpTo } from "../links";

interface Props {
  m: Pick<Message, "id" | "author" | "content" | "channel_id" | "mention_everyone">;
  /** The message's server; null in a DM. */
  guild: string | null;
  /** Makes the article's labelling ids unique among the lists on the page. */
  idPrefix: string;
  /** Shown after the author (the search's "in #channel"). */
  where?: ComponentChildren;
  /** Before jumping: close what lists it. */
  onJump(): void;
}

export function FoundMessage({ m, guild, idPrefix, where, onJump }: Props) {
  const a = `${idPrefix}-a-${m.id}`;
  const c = `${idPrefix}-c-${m.id}`;
  return (
    <article class="found" aria-labelledby={`${a} ${c}`}>
      <span id={a} class="author">
        {memberName(m.author.id, guild)}
      </span>
      {where}
      <div id={c}>
        <Markdown source={m.content} everyone={m.mention_everyone} />
      </div>
      <button
        type="button"
        onClick={() => {
          onJump();
          void jumpTo(guild ?? "@me", m.channel_id, m.id);
        }}
      >
        Jump
      </button>
    </article>
  );
}
