/**
 * Mentions in the web client. `@` in the composer opens a `listbox` named "Mentions":
 * the server's people by display and user name, the roles one may mention (mentionable
 * ones; all for an administrator) and, for administrators, @everyone and @here.
 * Choosing inserts `@Name`; at send every `@Name` that names exactly one person or role
 * becomes its token (src/text/mentions.ts), which everyone's client shows as the name.
 * "Mentions" in the channel header opens one's inbox, each entry with "Jump".
 */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { RefObject } from "preact";
import { api } from "../api";
import { channelOf, displayName, guildOf, members } from "../state";
import { BIT, holds } from "../names";
import type { Channel, Message } from "../types";
import { resolveAtNames, foldName, showMentions, type MentionDirectory } from "../../text/mentions";
import { FoundMessage } from "./FoundMessage";
import { errorText } from "./ui";
import { Placeholders } from "./Placeholders";
import { useModal } from "./modal";
import { Suggestions } from "./composer/Suggestions";
import { useCaretNow } from "./composer/caret";

interface Option {
  id: string;
  /** What is inserted after `@`. */
  insert: string;
  label: string;
}

const MAX_OPTIONS = 8;

function directory(guildId: string): MentionDirectory {
  const g = guildOf(guildId);
  const admin = !!g && holds(g, BIT.ADMINISTRATOR);
  return {
    people: (members.value[guildId] ?? []).map((m) => ({ id: m.user.id, names: [m.nick, m.user.global_name, m.user.username] })),
    roles: (g?.roles ?? []).filter((r) => !r.everyone && (r.mentionable || admin)).map((r) => ({ id: r.id, name: r.name })),
  };
}

function options(guildId: string, query: string): Option[] {
  const q = foldName(query);
  const dir = directory(guildId);
  const g = guildOf(guildId);
  const out: Option[] = [];
  for (const m of members.value[guildId] ?? []) {
    const shown = m.nick ?? displayName(m.user);
    const names = [shown, m.user.username];
    if (!names.some((n) => foldName(n).startsWith(q))) continue;
    // A display name two people share would not name one of them: insert the user name then.
    const unique = (members.value[guildId] ?? []).filter((x) => foldName(x.nick ?? displayName(x.user)) === foldName(shown)).length === 1;
    out.push({
      id: `u-${m.user.id}`,
      insert: unique ? shown : m.user.username,
      label: shown === m.user.username ? shown : `${shown} (${m.user.username})`,
    });
  }
  for (const r of dir.roles) if (foldName(r.name).startsWith(q)) out.push({ id: `r-${r.id}`, insert: r.name, label: `@${r.name} (role)` });
  // @everyone and @here (the server lets only administrators ping everyone) keep their
  // places at the end however many people match: a long list once cut @here off.
  const all =
    g && holds(g, BIT.ADMINISTRATOR)
      ? ["everyone", "here"].filter((w) => w.startsWith(q)).map((w) => ({ id: `all-${w}`, insert: w, label: `@${w}` }))
      : [];
  return [...out.slice(0, MAX_OPTIONS - all.length), ...all];
}

/** The text as sent: `@Name` of exactly one person or role of the server becomes its token. */
export function mentionsOut(channel: Pick<Channel, "guild_id">, text: string): string {
  return channel.guild_id ? resolveAtNames(text, directory(channel.guild_id)) : text;
}

/**
 * The text as an edit box shows it: `<@id>` as `@Name` where that name comes back as the
 * same token when sent (mentionsOut); any other token stays as it is.
 */
export function mentionsShown(guildId: string | null, text: string): string {
  if (!guildId) return text;
  const dir = directory(guildId);
  return showMentions(text, (kind, id) => {
    if (kind === "channel") return null;
    const p = kind === "user" ? dir.people.find((x) => x.id === id) : undefined;
    const name = kind === "user" ? (p?.names.find(Boolean) ?? null) : (dir.roles.find((r) => r.id === id)?.name ?? null);
    if (!name) return null;
    const token = kind === "user" ? `<@${id}>` : `<@&${id}>`;
    return resolveAtNames(`@${name}`, dir) === token ? name : null;
  });
}

/** The `@…` being typed before the caret, if any. */
const AT_QUERY = /(^|\s)@([^\s@<>]{0,32})$/;

/** The picker's state for the composer: call `onKeyDown` first (true: it handled the key) and render `list`. */
export function useMentionPicker(
  channel: Channel,
  text: string,
  /** The composer's text replaced, the caret put at `at` (views/composer/caret.ts). */
  replace: (next: string, at: number) => void,
  box: RefObject<HTMLTextAreaElement | null>,
) {
  const [active, setActive] = useState(0);
  const [closed, setClosed] = useState<string | null>(null);
  const caret = useCaretNow(box, text);
  const before = text.slice(0, caret.at);
  const match = channel.guild_id ? AT_QUERY.exec(before) : null;
  const query = match?.[2];
  const shown = query === undefined || closed === before ? [] : options(channel.guild_id!, query);
  useLayoutEffect(() => setActive(0), [query]);

  function pick(o: Option) {
    const start = caret.at - query!.length - 1;
    caret.placed(start + o.insert.length + 2);
    replace(`${text.slice(0, start)}@${o.insert} ${text.slice(caret.at)}`, start + o.insert.length + 2);
  }

  function onKeyDown(e: KeyboardEvent): boolean {
    if (!shown.length) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") setActive((active + (e.key === "ArrowDown" ? 1 : -1) + shown.length) % shown.length);
    else if (e.key === "Enter" || e.key === "Tab") pick(shown[active]);
    else if (e.key === "Escape") setClosed(before);
    else return false;
    e.preventDefault();
    return true;
  }

  const list = shown.length ? (
    <Suggestions
      id="mentions"
      label="Mentions"
      options={shown.map((o) => ({ id: `mention-${o.id}`, children: o.label }))}
      active={active}
      onPick={(i) => pick(shown[i])}
    />
  ) : null;
  const aria = shown.length ? { "aria-controls": "mentions", "aria-activedescendant": `mention-${shown[active]?.id}` } : {};
  return { onKeyDown, list, aria, open: shown.length > 0 };
}

/** The inbox: "Mentions" opens a dialog of the messages that mention one, newest first, each with "Jump". */
export function MentionsInbox() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" class="header-button" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Mentions
      </button>
      {open && <InboxDialog onClose={() => setOpen(false)} />}
    </>
  );
}

/** The inbox, a list to read: focus starts on its heading. */
function InboxDialog({ onClose }: { onClose(): void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const modal = useModal(onClose, heading);
  const [list, setList] = useState<Message[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void api<Message[]>("GET", "/users/@me/mentions")
      .then(setList)
      .catch((e) => setError(errorText(e)));
  }, []);
  return (
    <dialog ref={modal.ref} class="pins" aria-labelledby="inbox-title" aria-busy={!list && !error}>
      <h2 id="inbox-title" tabIndex={-1} ref={heading}>
        Mentions
      </h2>
      {error && <p role="alert">{error}</p>}
      {!list && !error && <Placeholders what="mentions" rows={2} />}
      {list && !list.length && <p class="muted">Nobody has mentioned you yet.</p>}
      {list?.map((m) => (
        <FoundMessage key={m.id} m={m} guild={channelOf(m.channel_id)?.guild_id ?? null} idPrefix="in" onJump={modal.close} />
      ))}
      <div class="buttons">
        <button type="button" onClick={modal.close}>
          Close
        </button>
      </div>
    </dialog>
  );
}
