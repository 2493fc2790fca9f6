/**
 * One message: an `article` named by its author and text, with the replied-to message,
 * Markdown, embeds, components, reactions and the person's actions on it.
 */
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { dismiss, editMessage, toggleReaction } from "../actions";
import { Markdown } from "../markdown";
import { editing, memberName, me, route } from "../state";
import { FLAG_LOADING, type Message } from "../types";
import { mentionsMe } from "../events";
import { EmbedView } from "./Embed";
import { Components } from "./Components";
import { EncryptedBody } from "./Encrypted";
import { editEncrypted, textOf } from "../dm-crypto";
import { PinNotice, PINNED_NOTICE } from "./Pins";
import { linked } from "../links";
import { Attachments } from "./files/Attachments";
import { SealedFiles } from "./files/SealedFiles";
import { ReactionBar } from "./reactions/ReactionBar";
import { ReactionsDialog } from "./reactions/ReactionsDialog";
import { EmojiPicker } from "./emoji/Picker";
import { emojiOut, emojiShown } from "./emoji/choices";
import { mentionsOut, mentionsShown } from "./Mentions";
import { MessageHeader } from "./list/MessageHeader";
import { ReplyRef } from "./list/ReplyRef";
import { DeleteConfirm, MessageActions, messageKeys, messageItems, useMessageActions } from "./list/Actions";

/** The author's name takes the colour of their highest coloured role here, as in the member list. */
interface Props {
  m: Message;
  onReply(m: Message): void;
  /** Under the header of the message before (same author, within minutes): no header of its own. */
  grouped?: boolean;
  /** The log's one tab stop (list/roving.ts): this message is the one Tab lands on. */
  active?: boolean;
}

export function MessageItem({ m, onReply, grouped = false, active = false }: Props) {
  const isEditing = editing.value === m.id;
  const setEditing = (on: boolean) => {
    editing.value = on ? m.id : null;
  };
  const [picking, setPicking] = useState(false);
  const [asking, setAsking] = useState(false);
  const [viewing, setViewing] = useState(false);
  const guild = route.value.guild === "@me" ? null : route.value.guild;
  const mine = m.author.id === me.value?.id;
  const name = memberName(m.author.id, guild);
  const loading = (m.flags & FLAG_LOADING) !== 0;
  const self = useRef<HTMLElement>(null);
  const items = messageItems(
    m,
    guild,
    mine,
    {
      onReply,
      onEdit: () => setEditing(true),
      onReact: () => setPicking(true),
      onAskDelete: () => setAsking(true),
      onViewReactions: () => setViewing(true),
    },
    () => self.current,
  );
  const actions = useMessageActions(items);
  const classes = [
    "message",
    mentionsMe(m) ? "mentioned" : "",
    m.ephemeral ? "ephemeral" : "",
    linked.value === m.id ? "linked" : "",
    grouped ? "grouped" : "",
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <article
      ref={self}
      class={classes}
      data-id={m.id}
      tabIndex={active ? 0 : -1}
      aria-labelledby={`a-${m.id} c-${m.id}`}
      aria-describedby={`t-${m.id}`}
      aria-keyshortcuts={messageKeys(items)}
      aria-current={linked.value === m.id ? "true" : undefined}
      {...actions.article}
    >
      {/* A pin's notice names the pinned message by reply_to too, but says so itself (Jump): no "Replying to". */}
      {m.reply_to && m.type !== PINNED_NOTICE && <ReplyRef channelId={m.channel_id} id={m.reply_to} guild={guild} />}
      {m.interaction?.name && <Used m={m} guild={guild} />}
      <MessageHeader m={m} name={name} guild={guild} grouped={grouped} />
      <div id={`c-${m.id}`} class="content">
        {isEditing ? <EditBox m={m} onDone={() => setEditing(false)} /> : <Body m={m} />}
      </div>
      {m.ciphertext === null ? <Attachments list={m.attachments} /> : <SealedFiles m={m} />}
      {loading && (
        <p class="thinking" role="status">
          {name} is thinking…
        </p>
      )}
      {m.embeds.map((e, i) => (
        <EmbedView key={i} e={e} />
      ))}
      {m.components.length > 0 && <Components m={m} />}
      {m.ephemeral && <OnlyYou m={m} />}
      <ReactionBar m={m} guild={guild} />
      <MessageActions m={m} items={items} open={actions.open} setOpen={actions.setOpen} />
      {picking && <Picker m={m} onDone={() => setPicking(false)} />}
      {viewing && <ReactionsDialog m={m} guild={guild} onClose={() => setViewing(false)} />}
      {asking && <DeleteConfirm m={m} name={name} self={() => self.current} onDone={() => setAsking(false)} />}
    </article>
  );
}

/** "Alice used /ping": a user or message command is named as its menu names it, without a slash. */
function Used({ m, guild }: { m: Message; guild: string | null }) {
  const i = m.interaction!;
  return (
    <div class="used">
      {memberName(i.user.id, guild)} used{" "}
      <code>
        {(i.type ?? 1) === 1 ? "/" : ""}
        {i.name}
      </code>
    </div>
  );
}

function OnlyYou({ m }: { m: Message }) {
  return (
    <p class="only-you">
      Only you can see this ·{" "}
      <button type="button" class="link" onClick={() => dismiss(m)}>
        Dismiss message
      </button>
    </p>
  );
}

function Body({ m }: { m: Message }) {
  if (m.type === PINNED_NOTICE) return <PinNotice m={m} guild={route.value.guild === "@me" ? null : route.value.guild} />;
  if (m.ciphertext !== null) return <EncryptedBody m={m} />;
  return <Markdown source={m.content} everyone={m.mention_everyone} />;
}

function Picker({ m, onDone }: { m: Message; onDone(): void }) {
  return (
    <EmojiPicker
      guildId={route.value.guild === "@me" ? null : route.value.guild}
      nameOf={(c) => `React with ${c.custom ? c.name : c.char}`}
      onPick={(c) => void toggleReaction(m, c.reaction, m.reactions.find((r) => r.emoji === c.reaction)?.me ?? false)}
      onClose={onDone}
    />
  );
}

function EditBox({ m, onDone }: { m: Message; onDone(): void }) {
  const guild = route.value.guild === "@me" ? null : route.value.guild;
  const before = m.ciphertext === null ? emojiShown(guild, mentionsShown(guild, m.content)) : (textOf(m) ?? "");
  const [text, setText] = useState(before);
  const box = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => box.current?.focus(), []);
  async function save() {
    // A DM's new text is encrypted again, as its first was.
    const edit = m.ciphertext === null ? editMessage : editEncrypted;
    const out = m.ciphertext === null ? emojiOut(guild, mentionsOut({ guild_id: guild }, text)) : text;
    if (text.trim() && text !== before && !(await edit(m, out))) return;
    onDone();
  }
  return (
    <div class="edit">
      <textarea
        aria-label="Edit message"
        value={text}
        ref={box}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey) {
            e.preventDefault();
            void save();
          } else if (e.key === "Escape") onDone();
        }}
      />
      <button type="button" onClick={save}>
        Save
      </button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
    </div>
  );
}
