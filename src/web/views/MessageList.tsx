/**
 * The open channel's messages in a `log`: older pages load when the person scrolls to
 * the top, new messages keep the view at the bottom when it was there, and the lines
 * below say who is typing and what a bot is doing with the person's command.
 */
import { Fragment } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { loadOlder, markRead, unreadMarked } from "../load";
import { channelLabel, dismissed, interactions, logs, memberName, me, readStates, typing } from "../state";
import type { Channel, Message } from "../types";
import { FLAG_LOADING } from "../types";
import { MessageItem } from "./MessageItem";
import { JumpToPresent, NewDivider, useFollow, useKeepPlace } from "./list/follow";
import { firstUnread, groupedWith } from "./list/groups";
import { useRoving } from "./list/roving";
import { Placeholders } from "./Placeholders";

/** How long a command may wait for its bot before the person is told it did not answer: the reference's 3 s. */
const NO_ANSWER_MS = 3000;

interface Props {
  channel: Channel;
  onReply(m: Message): void;
}

export function MessageList({ channel, onReply }: Props) {
  const log = logs.value[channel.id];
  const list = (log?.list ?? []).filter((m) => !dismissed.value.has(m.id));
  const box = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const { pinned, away, scrolled, jump } = useFollow(box, content, channel.id);
  const divider = firstUnread(list, useReadMark(channel.id), me.value?.id);
  useKeepPlace(box, list[0]?.id, pinned, channel.id);
  const roving = useRoving({
    box,
    content,
    channelId: channel.id,
    ids: list.map((m) => m.id),
    older: () => loadOlder(channel.id).catch(() => undefined),
    // focus() has scrolled the log already: whether it is still at the bottom is known now.
    moved: scrolled,
  });
  // Until the first page is in, the log is busy: placeholders, never a false "start of the channel".
  const busy = !log || log.loading;

  useMarkRead(channel.id, list.length ? list[list.length - 1].id : null);

  function onScroll() {
    const el = box.current!;
    scrolled();
    if (el.scrollTop < 120 && log && !log.complete && !log.loading) void loadOlder(channel.id).catch(() => undefined);
  }

  return (
    <>
      <div
        class="log"
        role="log"
        aria-label={`Messages in ${channelLabel(channel)}`}
        aria-busy={busy}
        ref={box}
        onScroll={onScroll}
        tabIndex={list.length ? undefined : 0}
        // The log's own keys (list/roving.ts): they act on its messages, the one tab stop in it.
        onKeyDown={roving.onKeyDown}
        onFocusIn={roving.onFocusIn}
        onFocusOut={roving.onFocusOut}
        onPointerDown={roving.onPointerDown}
      >
        {log?.complete && !log.loading && <p class="start">This is the start of {channelLabel(channel)}.</p>}
        {busy && !list.length && <Placeholders what="messages" />}
        {busy && list.length > 0 && (
          <p class="muted" role="status">
            Loading messages…
          </p>
        )}
        <div ref={content}>
          {list.map((m, i) => (
            <Fragment key={m.id}>
              {m.id === divider && <NewDivider />}
              <MessageItem
                m={m}
                onReply={onReply}
                grouped={m.id !== divider && groupedWith(m, list[i - 1])}
                active={m.id === roving.active}
              />
            </Fragment>
          ))}
        </div>
      </div>
      {away && <JumpToPresent onJump={jump} />}
      <TypingLine channel={channel} />
      <InteractionLine channel={channel} list={list} />
    </>
  );
}

/**
 * Where the reader had read to when the channel opened: "New messages" stays there until
 * they leave, or move it themselves ("Mark unread").
 */
function useReadMark(channelId: string): string | null {
  const readMark = useRef<{ channel: string; id: string | null; marked: number } | null>(null);
  const marked = unreadMarked.value[channelId] ?? 0;
  if (readMark.current?.channel !== channelId || readMark.current.marked !== marked) {
    const state = readStates.value[channelId];
    // Marked unread from the channel's first message: no mark, the whole log is new.
    const id = state?.unread ? (state.last_read_id ?? (marked ? "" : null)) : null;
    readMark.current = { channel: channelId, id, marked };
  }
  return readMark.current.id;
}

/** The open channel is read up to its newest message while the tab shows, and when the person comes back to the tab. */
function useMarkRead(channelId: string, newest: string | null): void {
  useEffect(() => {
    if (document.visibilityState === "visible") void markRead(channelId);
  }, [channelId, newest]);
  // What came while the tab was hidden is read when the person comes back to it, not at the next message.
  useEffect(() => {
    const shown = () => document.visibilityState === "visible" && void markRead(channelId);
    document.addEventListener("visibilitychange", shown);
    return () => document.removeEventListener("visibilitychange", shown);
  }, [channelId]);
}

function TypingLine({ channel }: { channel: Channel }) {
  const [, tick] = useState(0);
  const now = Date.now();
  const here = typing.value[channel.id] ?? {};
  const who = Object.entries(here)
    .filter(([id, until]) => until > now && id !== me.value?.id)
    .map(([id]) => memberName(id, channel.guild_id));
  useEffect(() => {
    if (!who.length) return;
    const t = setTimeout(() => tick((x) => x + 1), 1000);
    return () => clearTimeout(t);
  });
  const text = !who.length
    ? ""
    : who.length === 1
      ? `${who[0]} is typing…`
      : who.length < 4
        ? `${who.join(", ")} are typing…`
        : "Several people are typing…";
  return (
    <div class="typing" role="status" aria-live="polite">
      {text}
    </div>
  );
}

/** A command on its way: "waiting", "thinking" (deferred without a message of its own), or no answer. */
function InteractionLine({ channel, list }: { channel: Channel; list: Message[] }) {
  const [, tick] = useState(0);
  const mine = Object.values(interactions.value).filter(
    // A component's deferral (type 6) only acknowledges: the reference shows nothing while the bot works.
    (i) => i.channel_id === channel.id && (i.state === "pending" || (i.state === "deferred" && i.kind === "command")),
  );
  const loadingShown = list.some((m) => m.flags & FLAG_LOADING);
  useEffect(() => {
    if (!mine.some((i) => i.state === "pending")) return;
    const t = setTimeout(() => tick((x) => x + 1), NO_ANSWER_MS);
    return () => clearTimeout(t);
  });
  const i = mine[mine.length - 1];
  let text = "";
  if (i?.state === "deferred" && !loadingShown) text = `${i.botName} is thinking…`;
  else if (i?.state === "pending" && Date.now() - started(i.id) <= NO_ANSWER_MS) text = `Waiting for ${i.botName}…`;
  else if (i?.state === "pending")
    text = i.kind === "component" ? "This interaction failed" : `${i.botName}: The application did not respond`;
  return (
    <div class="interaction" role="status" aria-live="polite">
      {text}
    </div>
  );
}

const startedAt = new Map<string, number>();
function started(id: string): number {
  if (!startedAt.has(id)) startedAt.set(id, Date.now());
  return startedAt.get(id)!;
}
