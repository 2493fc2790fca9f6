/**
 * What of a message is searched: the words people read (its text without the mention
 * tokens, custom emoji by name, embeds' title, description, fields, footer and author,
 * attachments' file names) and the facts the filters ask about. Only what people wrote in
 * server channels: never a DM (people's DMs are end-to-end encrypted, and the server keeps
 * no words of any DM in the index), an ephemeral message, or a system message (a pin).
 */
import type { Channel, Message } from "./models";
import type { HasKind, SearchDoc, SearchTerm } from "./search-engine";
import { MESSAGE_TYPE } from "./message-types";

/** A file a message carries, as far as search cares (core/media, when it attaches files). */
export interface SearchFile {
  filename: string;
  contentType: string | null;
}

const INDEXED_TYPES: ReadonlySet<number> = new Set([
  MESSAGE_TYPE.DEFAULT,
  MESSAGE_TYPE.REPLY,
  MESSAGE_TYPE.CHAT_INPUT_COMMAND,
  MESSAGE_TYPE.CONTEXT_MENU_COMMAND,
]);

/** Whether this message of this channel has an entry in the index. */
export function indexable(m: Pick<Message, "type" | "ephemeral_user_id" | "ciphertext">, ch: Pick<Channel, "guild_id">): boolean {
  return ch.guild_id !== null && m.ephemeral_user_id === null && m.ciphertext === null && INDEXED_TYPES.has(m.type);
}

const TOKENS = /<(?:@!?|@&|#)[0-9a-f-]{36}>|<t:-?\d+(?::[tTdDfFR])?>/g;
const CUSTOM_EMOJI = /<a?:(\w{1,32}):[0-9a-f-]+>/g;
const LINK = /\bhttps?:\/\/\S/i;
/** Scripts written without spaces between words: cut into words before indexing, and terms alike. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** A term with nothing a word is made of matches nothing: it is dropped. */
const WORDLIKE = /[\p{L}\p{N}]/u;

/** Cuts text into words where a script writes none (Intl.Segmenter; made once per index). */
export class WordCutter {
  private segmenter: Intl.Segmenter | null = null;

  cut(text: string): string {
    if (!UNSPACED.test(text)) return text;
    this.segmenter ??= new Intl.Segmenter(undefined, { granularity: "word" });
    let out = "";
    for (const s of this.segmenter.segment(text)) out += s.isWordLike ? ` ${s.segment} ` : s.segment;
    return out;
  }

  /**
   * Terms as documents are cut; terms with nothing to match go. In a script without spaces
   * a word is also found inside the longer words the segmenter may have cut (東京 in
   * 東京タワー): such a term is a prefix.
   */
  terms(terms: SearchTerm[]): SearchTerm[] {
    return terms
      .filter((t) => WORDLIKE.test(t.text))
      .map((t) => (UNSPACED.test(t.text) ? { ...t, text: this.cut(t.text).trim(), prefix: true } : t));
  }
}

interface EmbedText {
  title?: string;
  description?: string;
  url?: string;
  fields?: { name?: string; value?: string }[];
  footer?: { text?: string };
  author?: { name?: string };
}

function embedWords(embeds: EmbedText[]): string[] {
  const out: string[] = [];
  for (const e of embeds) {
    out.push(e.title ?? "", e.description ?? "", e.footer?.text ?? "", e.author?.name ?? "");
    for (const f of e.fields ?? []) out.push(f.name ?? "", f.value ?? "");
  }
  return out.filter(Boolean);
}

function hasKinds(content: string, embeds: EmbedText[], files: SearchFile[]): HasKind[] {
  const has = new Set<HasKind>();
  if (LINK.test(content) || embeds.some((e) => typeof e.url === "string" && e.url)) has.add("link");
  if (embeds.length) has.add("embed");
  for (const f of files) {
    has.add("file");
    const type = f.contentType ?? "";
    if (type.startsWith("image/")) has.add("image");
    else if (type.startsWith("video/")) has.add("video");
    else if (type.startsWith("audio/")) has.add("sound");
  }
  return [...has];
}

/** What of a message its entry is made of. */
export type DocFields = Pick<
  Message,
  "id" | "author_id" | "content" | "embeds" | "mentions" | "mention_roles" | "mention_everyone" | "pinned"
>;

/** The entry of an indexable message (see indexable()). */
export function searchDoc(m: DocFields, ch: Channel, cutter: WordCutter, files: SearchFile[] = []): SearchDoc {
  const embeds = m.embeds === "[]" ? [] : (JSON.parse(m.embeds) as EmbedText[]);
  const all = [m.content, ...embedWords(embeds), ...files.map((f) => f.filename)].join("\n");
  const words = all.includes("<") ? all.replace(TOKENS, " ").replace(CUSTOM_EMOJI, " $1 ") : all;
  return {
    messageId: m.id,
    guildId: ch.guild_id!,
    channelId: ch.id,
    authorId: m.author_id,
    body: cutter.cut(words),
    users: JSON.parse(m.mentions) as string[],
    roles: JSON.parse(m.mention_roles) as string[],
    everyone: m.mention_everyone === 1,
    has: hasKinds(m.content, embeds, files),
    pinned: m.pinned === 1,
  };
}
