/**
 * The composer: a textbox named "Message #channel" (in a DM, "Message @name"). Enter
 * sends, Shift+Enter starts a new line. Typing `/` lists the commands available in the
 * channel (a `listbox` named "Commands"; a command's subcommands each an entry of their
 * own, matched by their whole path: composer/commands.ts); choosing one opens its
 * options as fields.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { sendMessage, typingDone, typingNow } from "../actions";
import { channelLabel, memberName } from "../state";
import type { Channel, Command, Message } from "../types";
import { matching, typedWhole, type CommandEntry } from "./composer/commands";
import { CommandForm } from "./CommandForm";
import { sendEncrypted } from "../dm-crypto";
import { DmComposerNote, dmReady } from "./DmComposerNote";
import { useDraft } from "../drafts";
import { mentionsOut, useMentionPicker } from "./Mentions";
import { useAttachments } from "./files/AttachTray";
import { CharCounter, editLast, MAX_CHARS, useSlowmode } from "./composer/helpers";
import { cannotAttach, cannotWrite } from "./composer/rights";
import { editing } from "../state";
import { EmojiButton, useEmojiCompleter } from "./emoji/Picker";
import { emojiOut } from "./emoji/choices";
import { Suggestions } from "./composer/Suggestions";
import { useCaret } from "./composer/caret";

interface Props {
  channel: Channel;
  replyTo: Message | null;
  onCancelReply(): void;
}

/**
 * The commands matching what follows a leading `/` (names with one space between them:
 * "/settings group v"), read from the server when a command starts.
 */
function useCommands(channelId: string, text: string) {
  const [commands, setCommands] = useState<Command[] | null>(null);
  const [active, setActive] = useState(0);
  // Escape closes the list for the text as it stands; typing on opens it again.
  const [closed, setClosed] = useState<string | null>(null);
  const typed = /^\/((?:\S+ )*\S*)$/.exec(text)?.[1];
  const query = closed === text ? undefined : typed;
  const shown = query === undefined || !commands ? [] : matching(commands, query);
  useLayoutEffect(() => setCommands(null), [channelId]);
  useEffect(() => {
    // The list is read when the person starts a command, so it is never stale for long.
    if (query !== undefined && !commands)
      void api<Command[]>("GET", `/channels/${channelId}/commands`)
        .then(setCommands)
        .catch(() => setCommands([]));
  }, [query === undefined, channelId]);
  useLayoutEffect(() => setActive(0), [query]);
  const move = (step: number) => setActive((active + step + shown.length) % shown.length);
  return {
    query,
    shown,
    active,
    move,
    close: () => setClosed(text),
    loading: query !== undefined && !commands,
    // Words after a `/` that match nothing are likely a message: no note for those.
    none: query !== undefined && !!commands && !shown.length && !query.includes(" "),
    whole: query !== undefined && commands ? typedWhole(commands, query) : null,
  };
}

// The composer is longer than 80 lines because the hooks of its helpers (commands, drafts, mentions, files) meet here; each lives in its own file.
export function Composer({ channel, replyTo, onCancelReply }: Props) {
  const [text, setText] = useState("");
  const [chosen, setChosen] = useState<CommandEntry | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const placeCaret = useCaret(box);
  const label = `Message ${channelLabel(channel)}`;
  const dm = channel.guild_id === null;
  const blocked = dm && !dmReady(); // a DM waits for this browser's device keys
  const { query, shown, active, move, close, loading, none, whole } = useCommands(channel.id, text);
  // Files (views/files): encrypted first in a DM; not offered where the server would refuse them.
  const files = useAttachments(channel.id, dm, cannotAttach(channel, channelLabel(channel)));
  const refused = cannotWrite(channel, channelLabel(channel));
  const slow = useSlowmode(channel);
  const tooLong = text.length > MAX_CHARS;

  // A switch resets the box before any input can reach it (see useDraft).
  useLayoutEffect(() => {
    setText("");
    setChosen(null);
  }, [channel.id]);
  useDraft(channel.id, text, setText);
  // A picked mention or emoji replaces the text and puts the caret after it, in one commit.
  const replace = (next: string, at: number) => {
    setText(next);
    placeCaret(at);
  };
  const mention = useMentionPicker(channel, text, replace, box);
  const emoji = useEmojiCompleter(channel.guild_id, text, replace, box);
  // Focus moves in the commit that shows the change, so nothing typed meanwhile lands elsewhere.
  useLayoutEffect(() => {
    if (replyTo) box.current?.focus();
  }, [replyTo]);
  // An edit done (saved or cancelled), the person is back where they write.
  const editingNow = editing.value;
  const wasEditing = useRef(false);
  useLayoutEffect(() => {
    if (editingNow === null && wasEditing.current) box.current?.focus({ preventScroll: true });
    wasEditing.current = editingNow !== null;
  }, [editingNow]);

  function pick(c: CommandEntry) {
    setChosen(c);
    setText("");
  }
  // A whole command typed and a space: chosen, as on the reference.
  useLayoutEffect(() => {
    if (whole) pick(whole);
  }, [whole?.key]);
  // A command sent or cancelled, the person is back in the box, which the form stood in for.
  const fromForm = useRef(false);
  useLayoutEffect(() => {
    if (chosen || !fromForm.current) return;
    fromForm.current = false;
    box.current?.focus();
  }, [chosen]);

  /** What is on its way: the box keeps it until the server has it, and Enter again (or a double click) must not send it twice. */
  const sending = useRef<string | null>(null);

  async function send() {
    const content = text.trim();
    const attachments = files.ready();
    if ((!content && !attachments.length) || blocked || files.busy || slow.left > 0 || tooLong) return;
    if (sending.current === content) return;
    sending.current = content;
    let sent: boolean;
    try {
      sent = await (dm
        ? sendEncrypted(channel, content, replyTo?.id ?? null, { attachments, sealed: files.sealed() })
        : sendMessage(channel.id, emojiOut(channel.guild_id, mentionsOut(channel, content)), replyTo?.id ?? null, attachments));
    } finally {
      sending.current = null;
    }
    if (sent) {
      setText((now) => (now.trim() === content ? "" : now)); // keep what was typed while it was sending
      files.clear();
      slow.sent();
      typingDone();
      onCancelReply();
    }
  }

  /** Text from the emoji picker, at the caret. */
  function insert(t: string) {
    const el = box.current;
    const at = el?.selectionStart ?? text.length;
    replace(text.slice(0, at) + t + text.slice(el?.selectionEnd ?? at), at + t.length);
  }

  function onKeyDown(e: KeyboardEvent) {
    if (mention.onKeyDown(e) || emoji.onKeyDown(e)) return;
    if (e.key === "ArrowUp" && !text && !shown.length && editLast(channel.id)) return e.preventDefault();
    if (shown.length && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      e.preventDefault();
      return move(e.key === "ArrowDown" ? 1 : -1);
    }
    if (shown.length && (e.key === "Enter" || e.key === "Tab")) {
      e.preventDefault();
      return pick(shown[active]);
    }
    if (query !== undefined && e.key === "Escape") {
      e.preventDefault();
      return close();
    }
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      // A command being typed is not sent as text while the list of commands is on its way.
      if (!loading) void send();
    }
    // Escape lets go of the message being replied to (its bar's "Cancel reply"), the text kept.
    if (e.key === "Escape" && replyTo && !shown.length && !e.defaultPrevented) {
      e.preventDefault();
      onCancelReply();
    }
  }

  if (refused)
    return (
      <div class="composer">
        <textarea aria-label={label} rows={1} disabled value="" placeholder={refused} aria-describedby="composer-refused" />
        <p id="composer-refused" class="muted" role="note">
          {refused}
        </p>
      </div>
    );
  if (chosen)
    return <CommandForm key={chosen.key} channel={channel} entry={chosen} onDone={() => ((fromForm.current = true), setChosen(null))} />;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target for files, no control; the keyboard's way is "Attach files"
    <div class="composer" onDrop={files.onDrop} onDragOver={files.onDragOver} onPaste={files.onPaste}>
      {replyTo && <ReplyBar to={replyTo} guildId={channel.guild_id} onCancel={onCancelReply} />}
      {shown.length > 0 && <CommandList list={shown} active={active} onPick={pick} />}
      {mention.list}
      {emoji.list}
      {none && <p class="muted">No command starts with “/{query}” here.</p>}
      {dm && <DmComposerNote channel={channel} />}
      {files.tray}
      {slow.line}
      <div class="compose-row">
        {files.button}
        <textarea
          ref={box}
          aria-label={label}
          placeholder={label}
          rows={1}
          value={text}
          disabled={blocked}
          aria-autocomplete="list"
          aria-controls={shown.length ? "commands" : undefined}
          aria-activedescendant={shown.length ? `cmd-${shown[active]?.key}` : undefined}
          {...mention.aria}
          {...emoji.aria}
          onInput={(e) => {
            setText(e.currentTarget.value);
            if (!e.currentTarget.value.startsWith("/")) typingNow(channel.id);
          }}
          onKeyDown={onKeyDown}
        />
        <EmojiButton guildId={channel.guild_id} onInsert={insert} />
        <CharCounter length={text.length} />
        <button
          type="button"
          class="send"
          disabled={blocked || slow.left > 0 || tooLong || (!text.trim() && !files.count) || files.busy || loading || shown.length > 0}
          onClick={send}
        >
          Send
        </button>
      </div>
    </div>
  );
}

function ReplyBar({ to, guildId, onCancel }: { to: Message; guildId: string | null; onCancel(): void }) {
  return (
    <div class="replying">
      Replying to <b>{memberName(to.author.id, guildId)}</b>
      <button type="button" class="link" onClick={onCancel}>
        Cancel reply
      </button>
    </div>
  );
}

function CommandList({ list, active, onPick }: { list: CommandEntry[]; active: number; onPick(c: CommandEntry): void }) {
  // Named by all it shows ("/order Order an ice cream Gizmo"), which begins with what one
  // types: a name of "/order" alone would leave out words on the screen (WCAG 2.5.3).
  const options = list.map((c) => ({
    id: `cmd-${c.key}`,
    children: (
      <>
        <b>/{c.label}</b> <span>{c.description}</span> <small class="muted">{c.command.application_name}</small>
      </>
    ),
  }));
  return <Suggestions id="commands" label="Commands" options={options} active={active} onPick={(i) => onPick(list[i])} />;
}
